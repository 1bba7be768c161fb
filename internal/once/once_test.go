package once_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktest"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
)

// world is a channel in the fake Slack and two workers' Posters on one
// database, on a clock the test moves.
type world struct {
	fake  *slacktest.Server
	api   *slack.Client
	clock *clocktest.Clock
	url   string
}

func (w *world) poster(t *testing.T, owner string) *once.Poster {
	st, err := store.Open(t.Context(), w.url, store.WithClock(w.clock.Now))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return &once.Poster{Ledger: st, Slack: w.api, Owner: owner, Lease: 2 * time.Minute}
}

// work posts "hello" to channel with key in its metadata; fail, when set,
// replaces Slack's answer after the post (a run killed before it heard).
func (w *world) work(key string, fail error) once.Work {
	return once.Work{
		Key:          key,
		Conversation: func(context.Context) (string, error) { return "C0NEWS", nil },
		Post: func(ctx context.Context) (string, error) {
			_, ts, err := w.api.PostMessageContext(ctx, "C0NEWS", slack.MsgOptionText("hello", false),
				slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "test_post", EventPayload: map[string]any{"key": key}}))
			if err == nil && fail != nil {
				return "", fail
			}
			return ts, err
		},
	}
}

// The mechanism on each engine: a refused post is released and retried
// at once; a post whose outcome is unknown keeps its claim until the
// lease lapses, and is then found in the history rather than posted
// again; a done key is never posted again.
func TestPostExactlyOnce(t *testing.T) {
	t.Parallel()
	for _, eng := range storetest.Engines {
		t.Run(eng.Name, func(t *testing.T) {
			t.Parallel()
			w := &world{clock: clocktest.New(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)), url: eng.NewURL(t)}
			w.fake = slacktest.NewServer()
			t.Cleanup(w.fake.Close)
			w.api = slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.fake.APIURL()))
			a, b := w.poster(t, "pod-a"), w.poster(t, "pod-b")

			// Refused: nothing posted, the key free again for b at once.
			w.fake.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "not_in_channel", Times: 1})
			r := a.Post(t.Context(), w.work("k/refused", nil))
			assert.Equal(t, once.Failed, r.Outcome)
			r = b.Post(t.Context(), w.work("k/refused", nil))
			assert.Equal(t, once.Sent, r.Outcome, "released, so taken at once")
			assert.Equal(t, once.Already, a.Post(t.Context(), w.work("k/refused", nil)).Outcome)

			// Unknown: a 500 that did not post, and a post that landed but
			// whose answer was lost. Both are held for the lease.
			w.fake.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, Times: 1})
			assert.Equal(t, once.Failed, a.Post(t.Context(), w.work("k/500", nil)).Outcome)
			assert.Equal(t, once.Failed, a.Post(t.Context(), w.work("k/lost", context.DeadlineExceeded)).Outcome)
			assert.Equal(t, once.Busy, b.Post(t.Context(), w.work("k/500", nil)).Outcome)
			assert.Equal(t, once.Busy, b.Post(t.Context(), w.work("k/lost", nil)).Outcome)
			require.Len(t, w.fake.Messages("C0NEWS"), 2)

			w.clock.Advance(3 * time.Minute)
			assert.Equal(t, once.Sent, b.Post(t.Context(), w.work("k/500", nil)).Outcome, "not in the history: posted")
			r = b.Post(t.Context(), w.work("k/lost", nil))
			assert.Equal(t, once.Recovered, r.Outcome, "in the history: recorded, not posted again")
			msgs := w.fake.Messages("C0NEWS")
			require.Len(t, msgs, 3)
			assert.Equal(t, msgs[1].TS, r.TS, "the ts of the post found")
			assert.Equal(t, once.Already, a.Post(t.Context(), w.work("k/lost", nil)).Outcome)
			assert.Len(t, w.fake.Calls("conversations.history"), 2, "the history is read only after an expired claim")
		})
	}
}

// PostNow, for a person waiting on the post (and with no ledger, as a
// click's post has none): when Slack's answer is lost it looks at once,
// so a post that landed is Recovered, one that did not is Failed, and
// one it cannot tell is Unknown; a refused post is not looked for.
func TestPostNowLooksAtOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		faults  []slacktest.Fault
		want    once.Outcome
		posted  int
		history int
	}{
		{"answered", nil, once.Sent, 1, 0},
		{"posted, answer lost", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, AfterEffect: true, Times: 1},
		}, once.Recovered, 1, 1},
		{"not posted, answer lost", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, Times: 1},
		}, once.Failed, 0, 1},
		{"posted, history unreadable", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, AfterEffect: true, Times: 1},
			{Method: "conversations.history", HTTPStatus: http.StatusInternalServerError},
		}, once.Unknown, 1, 1},
		{"refused", []slacktest.Fault{
			{Method: "chat.postMessage", Error: "not_in_channel", Times: 1},
		}, once.Failed, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := slacktest.NewServer()
			t.Cleanup(fake.Close)
			api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(fake.APIURL()), slack.OptionRetry(0))
			for _, f := range tt.faults {
				fake.InjectFault(f)
			}
			w := &world{fake: fake, api: api}
			p := &once.Poster{Slack: api, HistoryDepth: 20}
			r := p.PostNow(t.Context(), w.work("share/U1/1.2", nil))
			assert.Equal(t, tt.want, r.Outcome, "error: %v", r.Err)
			assert.Len(t, fake.Messages("C0NEWS"), tt.posted)
			assert.Len(t, fake.Calls("chat.postMessage"), 1, "never posted twice")
			assert.Len(t, fake.Calls("conversations.history"), tt.history)
			if tt.want == once.Recovered {
				assert.Equal(t, fake.Messages("C0NEWS")[0].TS, r.TS)
			}
		})
	}
}
