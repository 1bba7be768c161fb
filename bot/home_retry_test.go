package bot_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// A views.publish refused for a moment (429 with Retry-After, or a 500) is
// tried once more, and the tab is drawn; the person is told nothing.
func TestHomePublishIsRetriedOnce(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]slacktest.Fault{
		"429": {Method: "views.publish", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1},
		"500": {Method: "views.publish", HTTPStatus: http.StatusInternalServerError, Times: 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			alice := h.person("alice")
			h.slack.InjectFault(f)

			view := h.openHome(t, "Ev_retry", alice)
			assert.NotEmpty(t, view.Blocks, "drawn on the second try")
			assert.Len(t, h.slack.Calls("views.publish"), 2)
			assert.Empty(t, h.slack.Calls("chat.postEphemeral"), "nothing to tell")
		})
	}
}

// When the second try is refused too, the person is told, in their
// conversation with the app, that the tab may be stale and where to go.
func TestHomePublishRefusedTwiceTellsThePerson(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	h.slack.InjectFault(slacktest.Fault{Method: "views.publish", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 2})

	h.sendEvent(t, "Ev_stale", appHomeOpened(alice.ID), 0)
	assert.Len(t, h.slack.Calls("views.publish"), 2, "one retry, no more")
	calls := h.slack.Calls("chat.postEphemeral")
	require.Len(t, calls, 1)
	dm := calls[0].Params.Get("channel")
	screen := h.slack.Screen(alice.ID, dm)
	require.Len(t, screen, 1, "an ephemeral message in alice's conversation with the app")
	assert.Contains(t, screen[0].Text, "didn't let me refresh your Home tab")
	assert.Contains(t, screen[0].Text, "`/actions`")
}
