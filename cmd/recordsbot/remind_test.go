package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/store"
)

// remindEnv starts the test world's records and a fake Slack whose members
// are its people, and returns the Config `recordsbot remind` would read.
func remindEnv(t *testing.T) (Config, *slacktest.Server) {
	t.Helper()
	data := testworld.Dataset(time.Now())
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	records, fake := w.Records, w.Slack
	return Config{
		SlackBotToken: slacktest.DefaultToken, SlackAPIURL: fake.APIURL(),
		RecordsAPIURL: records.URL, RecordsAPIKey: recordstest.DefaultKey, AuditKey: testAuditKey,
		Port: 3000, LogFormat: "text", LogLevel: "info", RemindDays: 3,
		// Whatever the hour the test runs at, it is past everyone's
		// reminder time.
		RemindAt:    "00:00",
		DatabaseURL: "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
	}, fake
}

// lastLine is the last line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestRemindCommand(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), cfg, []string{"remind"}, nil, &stdout, &stderr), "stderr: %s", &stderr)
	sent := len(fake.Messages(""))
	require.Positive(t, sent, "the demo has due actions")
	today := time.Now().UTC().Format(time.DateOnly)
	assert.Regexp(t, `^remind `+today+`: \d+ users reminded, \d+ actions included, 0 skipped as already reminded, 0 unmatched, 0 failed \(`,
		lastLine(stdout.String()), "the summary line ends the output")
	assert.Contains(t, stdout.String(), fmt.Sprintf(": %d users reminded", sent))
	assert.Contains(t, stderr.String(), "remind: done", "structured logs go to stderr")

	stdout.Reset()
	require.NoError(t, run(t.Context(), cfg, []string{"remind"}, nil, &stdout, &stderr))
	assert.Contains(t, lastLine(stdout.String()), fmt.Sprintf(": 0 users reminded, 0 actions included, %d skipped as already reminded", sent))
	assert.Len(t, fake.Messages(""), sent, "a second run the same day sends nothing")
}

func TestRemindCommandFailsWhenAReminderFails(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	fake.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "fatal_error", Times: 1})
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), cfg, []string{"remind"}, nil, &stdout, &stderr)
	require.Error(t, err)
	var ce *configError
	assert.False(t, errors.As(err, &ce) || errors.Is(err, errUsage), "a failure, so main exits 1, not 2")
	assert.Regexp(t, `(?m)^failed: U0[A-Z]+: post to D?U0[A-Z]+: fatal_error$`, stdout.String(), "to the user ID, or to the DM once there is one")
	assert.Contains(t, lastLine(stdout.String()), ", 1 failed (")
	assert.Positive(t, len(fake.Messages("")), "the other reminders still went out")
}

func TestRemindCommandDryRun(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(t.Context(), cfg, []string{"remind", "--dry-run"}, nil, &stdout, &stderr), "stderr: %s", &stderr)
	out := stdout.String()
	assert.Contains(t, out, "Reminder for Alice Adams (U0ALICE)\n")
	assert.Contains(t, lastLine(out), "(dry run, nothing sent)")
	assert.Empty(t, fake.Calls("chat.postMessage"))
	assert.Empty(t, fake.Calls("conversations.open"))
}

func TestRemindCommandUsage(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), cfg, []string{"remind", "--dryrun"}, nil, &stdout, &stderr)
	assert.ErrorIs(t, err, errUsage)
	err = run(t.Context(), cfg, []string{"remind", "now"}, nil, &stdout, &stderr)
	assert.ErrorIs(t, err, errUsage)

	stderr.Reset()
	require.NoError(t, run(t.Context(), cfg, []string{"remind", "-h"}, nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-dry-run")
	assert.Contains(t, stderr.String(), "SLACK_BOT_TOKEN is still needed")
	assert.Empty(t, fake.Calls(""), "nothing was run")
}

// The reminder job runs on the store DATABASE_URL names: people's own
// settings are obeyed and reminded-today is recorded there.
func TestRemindCommandUsesTheStore(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	ctx := t.Context()
	st, err := store.Open(ctx, cfg.DatabaseURL)
	require.NoError(t, err)
	off := false
	require.NoError(t, st.SaveSettings(ctx, "U0ALICE", store.Settings{RemindEnabled: &off}))
	require.NoError(t, st.Close())

	var stdout, stderr bytes.Buffer
	require.NoError(t, run(ctx, cfg, []string{"remind"}, nil, &stdout, &stderr), "stderr: %s", &stderr)
	assert.Empty(t, fake.Messages("DU0ALICE"), "Alice turned reminders off")
	require.NotEmpty(t, fake.Messages("DU0BOB"), "Bob has the default")

	st, err = store.Open(ctx, cfg.DatabaseURL)
	require.NoError(t, err)
	defer st.Close()
	_, done, err := st.Result(ctx, "remind:U0BOB:"+time.Now().UTC().Format(time.DateOnly))
	require.NoError(t, err)
	assert.True(t, done, "reminded-today is in the store")
}

func TestRemindCommandWithTheStoreGone(t *testing.T) {
	t.Parallel()
	cfg, fake := remindEnv(t)
	cfg.DatabaseURL = "sqlite://" + filepath.Join(t.TempDir(), "missing", "recordsbot.db")
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), cfg, []string{"remind"}, nil, &stdout, &stderr)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "DATABASE_URL: "), "one line naming the variable: %v", err)
	assert.Empty(t, fake.Calls("chat.postMessage"), "nobody reminded without the ledger")
}
