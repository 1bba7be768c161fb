package bot_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// When Slack posts the minutes but its answer is lost (a 5xx after the
// post), the bot looks in the channel's history for the post by its
// metadata: the person is told it was shared, and nothing is posted twice.
// When the history cannot be read either, the person is told to look
// before sharing again, not that nothing was shared. The audit trail
// says the same: shared, unconfirmed, or nothing.
func TestShareWhoseAnswerIsLost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		faults      []slacktest.Fault
		want        string
		wantMessage bool
		wantTrail   []audit.Outcome
	}{
		{"posted, answer lost", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, AfterEffect: true, Times: 1},
		}, "Shared the minutes", true, []audit.Outcome{audit.Done}},
		{"posted, gateway timeout", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusGatewayTimeout, AfterEffect: true, Times: 1},
		}, "Shared the minutes", true, []audit.Outcome{audit.Done}},
		{"posted, history unreadable", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, AfterEffect: true, Times: 1},
			{Method: "conversations.history", HTTPStatus: http.StatusInternalServerError},
		}, "look in the channel before sharing them again", true, []audit.Outcome{audit.Unconfirmed}},
		{"not posted", []slacktest.Fault{
			{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, Times: 1},
		}, "nothing was shared", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := openTestStore(t, "sqlite")
			h := newStoreHarness(t, st)
			alice := h.person("alice")
			m, _ := h.slash(alice, "/minutes", "")
			for _, f := range tt.faults {
				h.slack.InjectFault(f)
			}

			posts := h.clickEphemeral(alice, m, "minutes:share", "")
			require.Len(t, posts, 1)
			assert.Contains(t, posts[0].Text, tt.want)
			if tt.wantMessage {
				assert.Len(t, h.slack.Messages("C0GENERAL"), 1, "posted once, not twice")
			} else {
				assert.Empty(t, h.slack.Messages("C0GENERAL"))
			}
			assert.Len(t, h.slack.Calls("chat.postMessage"), 1, "the bot itself never posts again")
			page, _, err := st.AuditPage(t.Context(), 0, 10)
			require.NoError(t, err)
			var trail []audit.Outcome
			for _, e := range page {
				if e.Kind == audit.MinutesShare {
					trail = append(trail, e.Outcome)
				}
			}
			assert.Equal(t, tt.wantTrail, trail)
		})
	}
}
