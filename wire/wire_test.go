package wire_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/wire"
)

// The services wire builds are the ones the bot serves with: the action
// domain's settings (here an admin and the organisation's zone) reach
// /actions, and the minutes domain's public pages are served.
func TestServicesAreTheBots(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Now())
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	zone, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	svc := bottest.Services(t, w, wire.Config{
		Actions: actions.Config{Admins: []string{"U0BOB"}, Zone: zone},
		Minutes: minutes.Config{PublicURL: "https://bot.example.org", Public: true},
	}, nil)
	assert.Equal(t, zone, svc.Actions.Zone())
	assert.True(t, svc.Actions.IsAdmin("U0BOB"))
	assert.NotSame(t, svc.Actions, svc.FreshActions(), "a fresh domain has its own list")

	b := bottest.Start(t, w, svc, bot.Config{SigningSecret: "s3cret"}, bot.Deps{})
	bob := w.Users[1]
	require.Equal(t, "bob", bob.Name)
	resp, err := b.Send.SlashCommand(t.Context(), slacktest.Command{User: bob, Command: "/actions", Text: "all"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.Status)

	page := httptest.NewRecorder()
	b.Server.ServeHTTP(page, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/minutes", nil))
	assert.Equal(t, http.StatusOK, page.Code, "PUBLIC_MINUTES on: the archive is served")
}

// The private calendar feeds are on only with both a key and a token
// store.
func TestCalendarPrivateFeedsNeedKeyAndTokens(t *testing.T) {
	t.Parallel()
	base := wire.Config{
		Records:  wire.Records{URL: "http://records.invalid/api/v1", Key: "k"},
		Calendar: calendar.Config{PublicURL: "https://bot.example.org"},
	}
	off, err := wire.New(base)
	require.NoError(t, err)
	assert.False(t, off.Calendar.PrivateOn())

	on := base
	on.CalendarKey, on.CalendarTokens = []byte("key"), noTokens{}
	svc, err := wire.New(on)
	require.NoError(t, err)
	assert.True(t, svc.Calendar.PrivateOn())
}

// A records URL the client refuses is New's error.
func TestNewRefusesABadRecordsURL(t *testing.T) {
	t.Parallel()
	_, err := wire.New(wire.Config{Records: wire.Records{URL: "ftp://records.example.org", Key: "k"}})
	assert.ErrorContains(t, err, "records client")
}

// noTokens is a token store never reached: these tests only ask whether
// the private feeds are on.
type noTokens struct{ calendar.Tokens }

// The bot builds no domain service of its own: without the follow domain
// wire builds it refuses to start.
func TestBotNeedsTheFollowDomainWireBuilds(t *testing.T) {
	t.Parallel()
	svc, err := wire.New(wire.Config{Records: wire.Records{URL: "http://records.invalid/api/v1", Key: "k"}})
	require.NoError(t, err)
	deps := bot.Deps{Slack: svc.Slack, Actions: svc.Actions, Minutes: svc.Minutes, Calendar: svc.Calendar}
	assert.PanicsWithValue(t, "bot.NewServer: Deps.Follows is required", func() { bot.NewServer(bot.Config{}, deps) })
	assert.NotPanics(t, func() { svc.Bot(bot.Config{}, bot.Deps{}) })
}
