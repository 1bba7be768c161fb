package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/store"
)

// TestWatchCommand runs `recordsbot watch` as the CronJob does, three
// times against one SQLite file: the baseline, then the announcement of a
// followed committee's newly published minutes, then nothing new.
func TestWatchCommand(t *testing.T) {
	t.Parallel()
	cfg, records, fake := watchEnv(t)

	st, err := store.Open(t.Context(), cfg.DatabaseURL)
	require.NoError(t, err)
	committee := records.Meetings()[0].Committee
	_, err = st.Follow(t.Context(), store.Follow{ChannelID: "C0FOLLOW", Committee: committee, CommitteeKey: strings.ToLower(committee)})
	require.NoError(t, err)
	require.NoError(t, st.Close())

	watchRun := func() string {
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(t.Context(), cfg, []string{"watch"}, nil, &stdout, &stderr), "stderr: %s", &stderr)
		return lastLine(stdout.String())
	}
	out := watchRun()
	assert.Contains(t, out, "baselined 1 follow;")
	assert.Contains(t, out, "actions baseline taken")
	assert.Empty(t, fake.Messages("C0FOLLOW"), "following starts now")

	records.AddMeeting(recordstest.Meeting{ID: "NEW-1", Title: "An extra meeting", Committee: committee, Date: time.Now().Add(-time.Hour)})
	records.SetMinutes(recordstest.Minutes{MeetingID: "NEW-1", Status: "published_draft", Body: "Present: all."})
	out = watchRun()
	assert.Contains(t, out, "announced 1,")
	msgs := fake.Messages("C0FOLLOW")
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0].Text, "An extra meeting")
	assert.Contains(t, string(msgs[0].Blocks), "https://bot.example.org/minutes/NEW-1")

	watchRun()
	assert.Len(t, fake.Messages("C0FOLLOW"), 1, "a rerun posts nothing twice")
}

// watchEnv starts the demo records and a fake Slack with the demo's people,
// and returns the Config `recordsbot watch` would read, on a SQLite file of
// the test's own.
func watchEnv(t *testing.T) (Config, *recordstest.Server, *slacktest.Server) {
	t.Helper()
	data := testworld.Dataset(time.Now())
	records := recordstest.NewServer(recordstest.WithDataset(data))
	t.Cleanup(records.Close)
	var users []slacktest.User
	for _, p := range data.People {
		users = append(users, slacktest.User{ID: p.SlackID, Name: strings.ToLower(strings.Fields(p.Name)[0]), RealName: p.Name, Email: p.Email})
	}
	fake := slacktest.NewServer(slacktest.WithUsers(users...))
	t.Cleanup(fake.Close)
	return Config{
		SlackBotToken: slacktest.DefaultToken, SlackAPIURL: fake.APIURL(),
		RecordsAPIURL: records.URL, RecordsAPIKey: recordstest.DefaultKey, AuditKey: testAuditKey,
		Port: 3000, LogFormat: "text", LogLevel: "info",
		DatabaseURL:      "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
		AssignDMsDefault: "on", PublicURL: "https://bot.example.org", PublicMinutes: true,
	}, records, fake
}

func TestWatchConfig(t *testing.T) {
	t.Parallel()
	base := func() Config {
		return Config{
			SlackBotToken: "xoxb-1", SlackAPIURL: "https://slack.com/api/",
			RecordsAPIURL: "https://records.example.org/api/v1", RecordsAPIKey: "k", AuditKey: testAuditKey,
			Port: 3000, LogFormat: "text", LogLevel: "info", AssignDMsDefault: "on",
		}
	}
	cases := []struct {
		name string
		mod  func(*Config)
		want string // "" for accepted
	}{
		{"valid", func(*Config) {}, ""},
		{"no bot token", func(c *Config) { c.SlackBotToken = "" }, "SLACK_BOT_TOKEN is required"},
		{"no records key", func(c *Config) { c.RecordsAPIKey = "" }, "RECORDS_API_KEY is required"},
		{"bad database", func(c *Config) { c.DatabaseURL = "mysql://x" }, "DATABASE_URL"},
		{"bad default", func(c *Config) { c.AssignDMsDefault = "maybe" }, `ASSIGN_DMS_DEFAULT must be on or off, got "maybe"`},
		{"off is fine", func(c *Config) { c.AssignDMsDefault = "OFF" }, ""},
		{"interval too short", func(c *Config) { c.WatchInterval = time.Second }, "WATCH_INTERVAL must be 0 (off) or at least 30s, got 1s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := base()
			tc.mod(&cfg)
			err := cfg.check("watch")
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			var ce *configError
			require.True(t, errors.As(err, &ce), "a configuration error (exit 2), got %v", err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
	set, _ := parseSettings(Config{AssignDMsDefault: "OFF"}, "")
	assert.True(t, watchConfig(set).Notify.AssignDMsOff, "ASSIGN_DMS_DEFAULT=off reaches the watcher")
}

// TestServeWatchesInTheBackground: with WATCH_INTERVAL set, serve polls
// on its own (here: takes the actions baseline into the store) and stops
// polling on shutdown.
func TestServeWatchesInTheBackground(t *testing.T) {
	t.Parallel()
	cfg, _, _ := watchEnv(t)
	a := testApp(t, cfg, "watch", &bytes.Buffer{})
	// A short tick stands in for WATCH_INTERVAL; parseSettings keeps real
	// ones at 30 s or more.
	a.set.watchInterval = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	st, err := store.Open(t.Context(), cfg.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	stop := startWatching(ctx, a, st)
	require.Eventually(t, func() bool {
		_, ok, err := st.GetState(t.Context(), "actions_baselined")
		return err == nil && ok
	}, 10*time.Second, 20*time.Millisecond, "a background poll took the actions baseline")
	cancel()
	stop()
}
