package remind_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
)

// The report of unmatched assignees is posted once a day, against a fake
// that grants exactly the manifest's scopes: two runs on one day, one
// report, on each store engine.
func TestRemindReportOnceADay(t *testing.T) {
	t.Parallel()
	scopes := slacktest.ManifestScopes() // kept equal to manifest.yaml by slacktest's test
	now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
	eachEngine(t, func(t *testing.T, eng engine) {
		e := newTierEnvOn(t, eng, []slacktest.User{person(1, "UTC")}, []slacktest.User{person(99, "UTC")},
			time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500, slacktest.WithScopes(scopes...))
		cfg := remind.Config{Days: 3, Now: now, ReportChannel: "C0REPORTS"}
		for run := range 2 {
			cfg.Now = now.Add(time.Duration(run) * time.Hour)
			sum, err := remind.Run(t.Context(), cfg, e.deps(nil))
			require.NoError(t, err)
			require.Len(t, sum.Unmatched, 1)
		}
		assert.Len(t, e.fake.Messages("C0REPORTS"), 1, "one report")
		for _, c := range e.fake.Calls("") {
			assert.NotEqual(t, "missing_scope", c.Error, "%s needs a scope the manifest lacks", c.Method)
		}
	})
}

// A run killed after posting the report and before recording it: the
// next run, once the lease has lapsed, finds the report in the channel by
// its metadata and does not post it again (channels:history is for this).
// Without a crash, no history is read, so the scope is not needed.
func TestRemindReportAfterACrash(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, eng engine) {
		e := newTierEnvOn(t, eng, []slacktest.User{person(1, "UTC")}, []slacktest.User{person(99, "UTC")},
			time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500,
			slacktest.WithScopes("chat:write", "users:read", "users:read.email", "channels:history", "metadata.message:read"))
		cfg := remind.Config{Days: 3, Now: time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC), ReportChannel: "C0REPORTS", Owner: "killed"}
		deps := e.deps(nil)
		deps.Slack = &crashAfterPost{Slack: deps.Slack, channel: "C0REPORTS"}
		_, err := remind.Run(t.Context(), cfg, deps)
		require.ErrorIs(t, err, remind.ErrRemindersFailed)
		require.Len(t, e.fake.Messages("C0REPORTS"), 1)
		assert.Empty(t, e.fake.Calls("conversations.history"))

		e.advance(time.Hour) // the killed run's lease lapses
		cfg.Owner, cfg.Now = "next", cfg.Now.Add(time.Hour)
		_, err = remind.Run(t.Context(), cfg, e.deps(nil))
		require.NoError(t, err)
		assert.Len(t, e.fake.Messages("C0REPORTS"), 1, "found, not posted again")
		require.Len(t, e.fake.Calls("conversations.history"), 1)
	})
}

// crashAfterPost lets a post to channel land and then answers as a run
// killed before it could record it.
type crashAfterPost struct {
	remind.Slack
	channel string
}

func (s *crashAfterPost) PostMessageContext(ctx context.Context, channel string, opts ...slack.MsgOption) (string, string, error) {
	ch, ts, err := s.Slack.PostMessageContext(ctx, channel, opts...)
	if err == nil && channel == s.channel {
		return "", "", context.DeadlineExceeded
	}
	return ch, ts, err
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
