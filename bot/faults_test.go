package bot_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testlog"
)

// The end-to-end fault tests that commands_test.go and
// interactions_test.go do not already hold: the records service answering
// too much, too slowly for the whole work timeout, or unreadably after a
// write; and Slack refusing response_url, chat.update and chat.postMessage.
// Each checks that the user hears within Slack's 3 s (or gets a correct
// follow-up), that nothing reports a status change the records do not
// have, and that the bot still serves afterwards.

// slackDeadline is how long Slack waits for an answer before it shows the
// user an error.
const slackDeadline = 3 * time.Second

// withRecordsClient rebuilds h's bot (see rebuild) around a records client
// made with opts, logging to logs as well as to the test log.
func (h *harness) withRecordsClient(logs io.Writer, cfg func(*bot.Config), opts ...apiclient.Option) {
	h.t.Helper()
	logger := slog.New(slog.NewTextHandler(io.MultiWriter(testlog.Writer(h.t), logs), &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.rebuild(bot.Deps{Logger: logger}, withConfig(cfg), withRecords(h.records.URL, opts...))
}

// requireServing checks, once every fault is cleared, that the bot still
// answers a slash command inline and that the answer contains want: the
// process survived and its state agrees with the records.
func (h *harness) requireServing(user slacktest.User, text, want string) {
	h.t.Helper()
	h.records.ClearFaults()
	h.slack.ClearFaults()
	start := time.Now()
	m, _ := h.slash(user, "/actions", text)
	require.Less(h.t, time.Since(start), slackDeadline)
	require.Contains(h.t, m.all(), want, "after the faults, /actions %s", text)
}

func TestRecordsAnswerOverTheSizeCap(t *testing.T) {
	t.Parallel()
	const limit = 256 // every answer the commands need is larger
	for _, command := range []string{"/actions", "/meetings", "/minutes"} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			logs := new(lockedBuffer)
			h.withRecordsClient(logs, func(*bot.Config) {}, apiclient.WithMaxResponseBytes(limit))

			start := time.Now()
			m, _ := h.slash(h.person("alice"), command, "")
			assert.Less(t, time.Since(start), slackDeadline)
			assert.Equal(t, "ephemeral", m.ResponseType)
			assert.Contains(t, m.Text, "couldn't read", "the user is told the answer was unreadable")
			assert.NotContains(t, m.all(), "byte limit", "no raw Go error for the user")
			assert.Contains(t, string(logs.Bytes()), "exceeds the 256 byte limit", "the cause is logged")
		})
	}
}

func TestRecordsSlowerThanTheWorkTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *bot.Config) {
		c.AckBudget = 100 * time.Millisecond
		c.WorkTimeout = 700 * time.Millisecond
	}))
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, Latency: time.Minute})
	alice := h.person("alice")

	start := time.Now()
	m, r := h.slash(alice, "/actions", "")
	assert.Less(t, time.Since(start), slackDeadline)
	assert.Empty(t, m.Text, "an empty ack")

	posts := h.responses(r.ResponseURLID, 1)
	require.Len(t, posts, 1, "exactly one follow-up")
	assert.Contains(t, posts[0].Text, "isn't answering")
	seen := h.screen(alice, 1)
	require.Len(t, seen, 1, "the user sees one message: what happened")
	assert.Contains(t, seen[0].Text, "isn't answering")
	h.settle(t)
	assert.Len(t, h.slack.ResponsePosts(r.ResponseURLID), 1, "nothing more arrives")

	// The list fetch the timed-out command started is shared with any
	// command that comes while it ends (the action cache's singleflight),
	// and it ends a moment after the follow-up went out: ask until that
	// moment has passed.
	h.records.ClearFaults()
	want := `"complete|` + h.openActionsOf(alice.Email)[0].ID + `|`
	var last string
	for range 20 {
		m, _ := h.slash(alice, "/actions", "")
		if last = m.all(); strings.Contains(last, want) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	assert.Contains(t, last, want, "the bot serves again once the records do")
}

// A status change whose answer is lost or garbled may or may not have been
// made: the records service may have changed the action before the answer
// broke. The bot must neither report it done nor say nothing changed, and
// the next list must show what the records hold, not a cached guess.
func TestStatusChangeWithAnUnconfirmedAnswer(t *testing.T) {
	t.Parallel()
	// Enough for the action list, not for the padded answer below.
	const putLimit = 1 << 20
	tests := []struct {
		name    string
		fault   recordstest.Fault
		applied bool   // whether the records service makes the change
		want    string // in the message besides "can't tell whether"
	}{
		{"malformed", recordstest.Fault{Method: http.MethodPut, Malformed: true}, true, "couldn't read"},
		{"reset mid-body", recordstest.Fault{Method: http.MethodPut, ResetMidBody: true}, true, "isn't answering"},
		{"over the size cap", recordstest.Fault{Method: http.MethodPut, Body: `{"id":"x","status":"complete","padding":"` + strings.Repeat("x", putLimit) + `"}`}, false, "couldn't read"},
		{"timed out", recordstest.Fault{Method: http.MethodPut, Latency: time.Minute}, false, "isn't answering"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.withRecordsClient(io.Discard, func(c *bot.Config) { c.AckBudget, c.WorkTimeout = 300*time.Millisecond, time.Second },
				apiclient.WithMaxResponseBytes(putLimit))
			alice := h.person("alice")
			target := h.openActionsOf(alice.Email)[0]
			list, _ := h.slash(alice, "/actions", "")
			h.records.InjectFault(tt.fault)

			start := time.Now()
			posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
			assert.Less(t, time.Since(start), slackDeadline)
			require.Len(t, posts, 1)
			got, _ := h.records.Action(target.ID)
			require.Equal(t, tt.applied, got.Status == "complete", "the fault applies the change: %v", tt.applied)
			assert.False(t, posts[0].ReplaceOriginal, "the list stays as it was")
			assert.Contains(t, posts[0].Text, tt.want)
			assert.Contains(t, posts[0].Text, "can't tell whether the change was made")
			assert.NotContains(t, posts[0].Text, "Nothing was changed")
			assert.NotContains(t, posts[0].all(), "marked complete")

			h.settle(t)
			if tt.applied {
				h.requireServing(alice, "all", `"open|`+target.ID+`|`)
			} else {
				h.requireServing(alice, "all", `"complete|`+target.ID+`|`)
			}
		})
	}
}

// A request that never reached the records service changed nothing, and
// the bot can say so.
func TestStatusChangeWithTheRecordsServiceGone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	target := h.openActionsOf(alice.Email)[0]
	list, _ := h.slash(alice, "/actions", "")
	h.records.Close()

	start := time.Now()
	posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
	assert.Less(t, time.Since(start), slackDeadline)
	require.Len(t, posts, 1)
	assert.Contains(t, posts[0].Text, "isn't answering")
	assert.Contains(t, posts[0].Text, "Nothing was changed")
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, target.Status, got.Status)
}

func TestResponseURLRefusedThenAccepted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault slacktest.Fault
	}{
		{"rate limited", slacktest.Fault{Method: slacktest.ResponseMethod, HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1}},
		{"unavailable", slacktest.Fault{Method: slacktest.ResponseMethod, HTTPStatus: http.StatusServiceUnavailable, Times: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/slash follow-up", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, withConfig(func(c *bot.Config) { c.AckBudget = 100 * time.Millisecond }))
			h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 300 * time.Millisecond, Times: 1})
			h.slack.InjectFault(tt.fault)
			alice := h.person("alice")

			start := time.Now()
			m, r := h.slash(alice, "/actions", "")
			assert.Less(t, time.Since(start), slackDeadline)
			assert.Empty(t, m.Text, "an empty ack")
			posts := h.responses(r.ResponseURLID, 1)
			require.Len(t, posts, 1)
			assert.Len(t, h.screen(alice, 1), 1, "one message on screen")
			assert.Contains(t, posts[0].all(), `"complete|`+h.openActionsOf(alice.Email)[0].ID+`|`, "the list arrives after the retry")
			assertRefusedThenAccepted(t, h, tt.fault)
		})
		t.Run(tt.name+"/status click", func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			alice := h.person("alice")
			target := h.openActionsOf(alice.Email)[0]
			list, _ := h.slash(alice, "/actions", "")
			h.slack.InjectFault(tt.fault)

			posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
			require.Len(t, posts, 1)
			assert.True(t, posts[0].ReplaceOriginal, "the list is redrawn in place after the retry")
			assert.Contains(t, posts[0].all(), "by <@"+alice.ID+">")
			got, _ := h.records.Action(target.ID)
			assert.Equal(t, "complete", got.Status)
			assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"), "the retry posts again; it does not change again")
			assertRefusedThenAccepted(t, h, tt.fault)
		})
	}
}

// assertRefusedThenAccepted checks that the response_url was refused as f
// says, then accepted once.
func assertRefusedThenAccepted(t *testing.T, h *harness, f slacktest.Fault) {
	t.Helper()
	h.settle(t)
	calls := h.slack.Calls(slacktest.ResponseMethod)
	require.Len(t, calls, f.Times+1, "refused %d times, then accepted", f.Times)
	for _, c := range calls[:f.Times] {
		assert.Equal(t, f.HTTPStatus, c.Status)
	}
	assert.Equal(t, http.StatusOK, calls[f.Times].Status)
	if f.RetryAfter > 0 {
		assert.GreaterOrEqual(t, calls[f.Times].At.Sub(calls[0].At), time.Duration(f.RetryAfter)*time.Second, "Retry-After was honoured")
	}
}

func TestResponseURLDownForGood(t *testing.T) {
	t.Parallel()
	down := slacktest.Fault{Method: slacktest.ResponseMethod, HTTPStatus: http.StatusInternalServerError}

	t.Run("slash follow-up", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		logs := new(lockedBuffer)
		h.withRecordsClient(logs, func(c *bot.Config) { c.AckBudget = 100 * time.Millisecond })
		h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, Latency: 300 * time.Millisecond, Times: 1})
		h.slack.InjectFault(down)
		alice := h.person("alice")

		start := time.Now()
		m, _ := h.slash(alice, "/actions", "")
		assert.Less(t, time.Since(start), slackDeadline)
		assert.Empty(t, m.Text, "an empty ack")
		h.settle(t)
		assert.Len(t, h.slack.Calls(slacktest.ResponseMethod), 3, "three attempts, then the bot gives up")
		assert.Empty(t, h.slack.ResponsePosts(""))
		assert.Contains(t, string(logs.Bytes()), "slash command follow-up failed")
		assert.NotContains(t, string(logs.Bytes()), "/response/", "a response_url is a credential and stays out of the log")
		h.requireServing(alice, "", `"complete|`+h.openActionsOf(alice.Email)[0].ID+`|`)
	})

	t.Run("status click", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		logs := new(lockedBuffer)
		h.withRecordsClient(logs, func(*bot.Config) {})
		alice := h.person("alice")
		target := h.openActionsOf(alice.Email)[0]
		list, _ := h.slash(alice, "/actions", "")
		h.slack.InjectFault(down)

		blockID, el, _ := list.element(t, "status:complete", "complete|"+target.ID+"|")
		r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: blockID, Element: el})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, r.Status)
		h.settle(t)

		got, _ := h.records.Action(target.ID)
		assert.Equal(t, "complete", got.Status, "the change was made even though Slack could not be told")
		assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
		assert.Empty(t, h.slack.ResponsePosts(""))
		assert.Contains(t, string(logs.Bytes()), "response_url failed")
		assert.NotContains(t, string(logs.Bytes()), "/response/")
		// Nothing claims otherwise: asked again, the bot knows it is done.
		h.requireServing(alice, "complete "+target.ID, "already")
	})
}

// dmList posts alice's action list to her DM as the bot would (a reminder)
// and returns the list, its blocks' JSON and the message's ts.
func dmList(t *testing.T, h *harness, alice slacktest.User) (list msg, blocksJSON []byte, ts string) {
	t.Helper()
	list, _ = h.slash(alice, "/actions", "")
	blocksJSON, err := json.Marshal(list.Blocks)
	require.NoError(t, err)
	ts = h.slack.PutMessage(slacktest.Message{Channel: "D0ALICE", Text: "Your actions", Blocks: blocksJSON})
	return list, blocksJSON, ts
}

func TestChatUpdateRefusedOnADMClick(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault slacktest.Fault
	}{
		{"rate limited", slacktest.Fault{Method: "chat.update", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 30}},
		{"server error", slacktest.Fault{Method: "chat.update", HTTPStatus: http.StatusInternalServerError}},
		{"unavailable", slacktest.Fault{Method: "chat.update", HTTPStatus: http.StatusServiceUnavailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			alice := h.person("alice")
			target := h.openActionsOf(alice.Email)[0]
			list, blocksJSON, ts := dmList(t, h, alice)
			h.slack.InjectFault(tt.fault)

			blockID, el, _ := list.element(t, "status:complete", "complete|"+target.ID+"|")
			start := time.Now()
			r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "D0ALICE", MessageTS: ts, MessageBlocks: blocksJSON, BlockID: blockID, Element: el})
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, r.Status)
			assert.Less(t, time.Since(start), slackDeadline)
			posts := h.responses(r.ResponseURLID, 1)

			got, _ := h.records.Action(target.ID)
			assert.Equal(t, "complete", got.Status)
			require.Len(t, posts, 1)
			assert.False(t, posts[0].ReplaceOriginal, "the DM is the bot's message; response_url must not replace it")
			assert.Contains(t, posts[0].Text, "marked complete", "the change was made, and the user is told so")
			assert.Contains(t, posts[0].Text, "couldn't refresh", "and that the message above is out of date")
			updates := h.slack.Calls("chat.update")
			require.NotEmpty(t, updates)
			for _, c := range updates {
				assert.Equal(t, tt.fault.HTTPStatus, c.Status)
			}
			dm := h.slack.Messages("D0ALICE")
			require.Len(t, dm, 1)
			assert.False(t, dm[0].Edited)
			h.requireServing(alice, "complete "+target.ID, "already")
		})
	}
}

func TestShareRefusedBySlack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault slacktest.Fault
	}{
		{"rate limited", slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 30}},
		{"server error", slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError}},
		{"unavailable", slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusServiceUnavailable}},
		{"fatal error", slacktest.Fault{Method: "chat.postMessage", Error: "fatal_error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			alice := h.person("alice")
			m, _ := h.slash(alice, "/minutes", "")
			h.slack.InjectFault(tt.fault)

			start := time.Now()
			posts := h.clickEphemeral(alice, m, "minutes:share", "")
			assert.Less(t, time.Since(start), slackDeadline)
			require.Len(t, posts, 1)
			assert.Contains(t, posts[0].Text, "nothing was shared")
			assert.False(t, posts[0].ReplaceOriginal, "the minutes stay on screen to try again")
			assert.Empty(t, h.slack.Messages("C0GENERAL"))
			assert.NotEmpty(t, h.slack.Calls("chat.postMessage"))

			h.slack.ClearFaults()
			posts = h.clickEphemeral(alice, m, "minutes:share", "")
			assert.Contains(t, posts[0].Text, "Shared", "sharing works again once Slack does")
			assert.Len(t, h.slack.Messages("C0GENERAL"), 1)
		})
	}
}
