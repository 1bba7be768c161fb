package remind_test

import (
	"bytes"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
)

// The report of unmatched assignees is posted once a day, against a fake
// that grants exactly the manifest's scopes: two runs on one day, one
// report, with a ledger or without one.
func TestRemindReportOnceADay(t *testing.T) {
	t.Parallel()
	scopes := readManifest(t).OAuth.Scopes.Bot
	now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
	for _, withLedger := range []bool{false, true} {
		name := map[bool]string{false: "history", true: "ledger"}[withLedger]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newTierEnv(t, []slacktest.User{person(1, "UTC")}, []slacktest.User{person(99, "UTC")},
				time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500, slacktest.WithScopes(scopes...))
			var ledger remind.Ledger
			if withLedger {
				ledger = newMemLedger(e.clock.Now)
			}
			cfg := remind.Config{Days: 3, Now: now, ReportChannel: "C0REPORTS"}
			for run := range 2 {
				cfg.Now = now.Add(time.Duration(run) * time.Hour)
				sum, err := remind.Run(t.Context(), cfg, e.deps(ledger, nil))
				require.NoError(t, err)
				require.Len(t, sum.Unmatched, 1)
			}
			assert.Len(t, e.fake.Messages("C0REPORTS"), 1, "one report")
			for _, c := range e.fake.Calls("") {
				assert.NotEqual(t, "missing_scope", c.Error, "%s needs a scope the manifest lacks", c.Method)
			}
		})
	}
}

// Without channels:history the fake refuses to read the report channel, as
// Slack does; without a ledger the job then posts the report again rather
// than risk never posting it, and says so.
func TestRemindReportWithoutHistoryScope(t *testing.T) {
	t.Parallel()
	e := newTierEnv(t, []slacktest.User{person(1, "UTC")}, []slacktest.User{person(99, "UTC")},
		time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500,
		slacktest.WithScopes("chat:write", "users:read", "users:read.email", "im:write", "im:history", "metadata.message:read"))
	cfg := remind.Config{Days: 3, Now: time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC), ReportChannel: "C0REPORTS"}
	for range 2 {
		_, err := remind.Run(t.Context(), cfg, e.deps(nil, nil))
		require.NoError(t, err)
	}
	refused := e.fake.Calls("conversations.history")
	var missing int
	for _, c := range refused {
		if c.Error == "missing_scope" {
			missing++
			assert.Equal(t, "C0REPORTS", c.Params.Get("channel"))
		}
	}
	assert.Equal(t, 2, missing, "each run's check of the report channel is refused")
	assert.Len(t, e.fake.Messages("C0REPORTS"), 2, "posted again rather than lost")

	// With a ledger no history is needed.
	e = newTierEnv(t, []slacktest.User{person(1, "UTC")}, []slacktest.User{person(99, "UTC")},
		time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500, slacktest.WithScopes("chat:write", "users:read", "users:read.email"))
	ledger := newMemLedger(e.clock.Now)
	for range 2 {
		_, err := remind.Run(t.Context(), cfg, e.deps(ledger, nil))
		require.NoError(t, err)
	}
	assert.Len(t, e.fake.Messages("C0REPORTS"), 1)
	assert.Empty(t, e.fake.Calls("conversations.history"))
}

// Every warning Slack returns is logged: here the invalid_metadata_schema
// of a reminder whose metadata breaks the schema (an array of strings, as
// reminders carried before), which Slack drops from the message.
func TestSlackWarningsAreLogged(t *testing.T) {
	t.Parallel()
	fake := slacktest.NewServer(slacktest.WithUsers(person(1, "UTC")))
	t.Cleanup(fake.Close)
	var logs bytes.Buffer
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(fake.APIURL()), slack.OptionHTTPClient(
		&http.Client{Transport: slackapi.WarningTransport(nil, slog.New(slog.NewTextHandler(&logs, nil)))}))
	_, _, err := api.PostMessageContext(t.Context(), "U0000001", slack.MsgOptionText("hi", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: remind.ReminderEventType, EventPayload: map[string]any{"action_ids": []string{"A-1"}}}))
	require.NoError(t, err)
	assert.Contains(t, logs.String(), "invalid_metadata_schema")
	assert.Contains(t, logs.String(), "chat.postMessage")
	msgs := fake.Messages("DU0000001")
	require.Len(t, msgs, 1)
	assert.Empty(t, msgs[0].Metadata, "Slack drops the invalid metadata")
}
