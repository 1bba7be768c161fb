package bot_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// With the records service hung and MaxInFlight requests already at work,
// the next command is answered "I'm busy" at once, and counted; once the
// work in flight ends, commands are served again. The records service is
// held until the test lets it go, not for a time.
func TestWorkInFlightIsBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{Metrics: metrics.New()}, withConfig(func(c *bot.Config) {
		c.MaxInFlight = 2
		c.AckBudget = 200 * time.Millisecond
		c.WorkTimeout = 3 * time.Second
	}))
	hung := make(chan struct{})
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/actions", Hold: hung})
	alice, bob := h.person("alice"), h.person("bob")

	for _, u := range []slacktest.User{alice, bob} {
		r, err := h.send.SlashCommand(t.Context(), slacktest.Command{User: u, Command: "/actions"})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		require.Empty(t, r.Body, "deferred: the answer follows")
	}

	busy, _ := h.slash(h.person("carol"), "/actions", "")
	assert.Equal(t, "ephemeral", busy.ResponseType)
	assert.Contains(t, busy.Text, "I'm busy just now. Please try again in a moment.")
	fams := h.scrape()
	assert.Equal(t, 1.0, counter(fams, "recordsbot_work_rejected_total", map[string]string{"kind": "command"}))
	assert.Equal(t, 1.0, counter(fams, "recordsbot_requests_total", map[string]string{"kind": "command", "command": "/actions", "outcome": "busy"}))

	h.records.ClearFaults()
	close(hung)
	h.settle(t)
	again, _ := h.slash(h.person("carol"), "/actions", "")
	assert.NotContains(t, again.Text, "busy", "served once the work in flight ended")
}

// panicky is a Slack whose views.publish panics, as a bug in a background
// task would.
type panicky struct{ bot.SlackAPI }

func (panicky) PublishViewContext(context.Context, slack.PublishViewContextRequest) (*slack.ViewResponse, error) {
	panic("views.publish blew up")
}

// A panic in background work (here a Home tab publish) is recovered,
// logged and counted; the server carries on.
func TestPanicInBackgroundWorkIsRecovered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	real := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()))
	h.rebuild(bot.Deps{Metrics: metrics.New(), Slack: panicky{real}})
	alice := h.person("alice")

	h.sendEvent(t, "Ev_panic", appHomeOpened(alice.ID), 0) // waits for the background work
	assert.Equal(t, 1.0, counter(h.scrape(), "recordsbot_background_panics_total", nil))

	reply, _ := h.slash(alice, "/actions", "")
	assert.NotEmpty(t, reply.Blocks, "the server still answers")
	h.sendEvent(t, "Ev_panic_2", appHomeOpened(alice.ID), 0)
	assert.Equal(t, 2.0, counter(h.scrape(), "recordsbot_background_panics_total", nil))
}
