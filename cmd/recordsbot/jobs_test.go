package main

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// TestJobsReadZoneAndUserMapFromTheOneActionDomain gives RECORDS_TIMEZONE
// and USER_MAP once, in the settings, and runs `recordsbot remind` and
// `recordsbot watch`: both take them from the one actions.Service run
// builds, and keep no copy. Pat is pat@records.example in the records and
// pat@slack.example in Slack, with no time zone in their profile: only
// USER_MAP matches them, and their morning is the organisation's.
func TestJobsReadZoneAndUserMapFromTheOneActionDomain(t *testing.T) {
	t.Parallel()
	// The organisation is six hours from UTC, on the side that keeps its
	// time of day on today's date, with REMIND_AT three hours from now in
	// UTC: a job that read the zone as UTC decides the other way. (POSIX
	// signs are inverted: Etc/GMT-6 is UTC+6.)
	now := time.Now().UTC()
	zone, remindAt, remindedNow := "Etc/GMT-6", now.Add(3*time.Hour), true // 09:00 UTC is 15:00 there; REMIND_AT 12:00
	if now.Hour() >= 12 {
		zone, remindAt, remindedNow = "Etc/GMT+6", now.Add(-3*time.Hour), false // 15:00 UTC is 09:00 there; REMIND_AT 12:00
	}
	pat := slacktest.User{ID: "U0PAT", Name: "pat", RealName: "Pat Clerk", Email: "pat@slack.example"}
	due := now.Truncate(24*time.Hour).AddDate(0, 0, 2) // date-only: due soon in any zone
	records := recordstest.NewServer(recordstest.WithDataset(recordstest.Dataset{
		Actions: []recordstest.Action{{ID: "P-1", Title: "File the returns", Status: "open",
			AssigneeName: "Pat Clerk", AssigneeEmail: "pat@records.example", Deadline: due, DateOnly: true}},
	}))
	t.Cleanup(records.Close)
	fake := slacktest.NewServer(slacktest.WithUsers(pat))
	t.Cleanup(fake.Close)
	cfg := Config{
		SlackBotToken: slacktest.DefaultToken, SlackAPIURL: fake.APIURL(),
		RecordsAPIURL: records.URL, RecordsAPIKey: recordstest.DefaultKey, AuditKey: testAuditKey,
		Port: 3000, LogFormat: "text", LogLevel: "info", RemindDays: 3, AssignDMsDefault: "on",
		DatabaseURL:     "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
		RecordsTimezone: zone,
		RemindAt:        remindAt.Format("15:04"),
		UserMap:         "pat@records.example=U0PAT",
	}
	job := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(t.Context(), cfg, args, nil, &stdout, &stderr), "stderr: %s", &stderr)
		return lastLine(stdout.String())
	}

	sum := job("remind")
	assert.Contains(t, sum, ", 0 unmatched,", "USER_MAP matched Pat")
	if remindedNow {
		assert.Contains(t, sum, ": 1 user reminded, 1 action included")
		require.Len(t, fake.Messages("DU0PAT"), 1, "past REMIND_AT in %s", zone)
		assert.Contains(t, string(fake.Messages("DU0PAT")[0].Blocks), "File the returns")
	} else {
		assert.Contains(t, sum, ": 0 users reminded")
		assert.Contains(t, sum, ", 1 before their reminder time", "before REMIND_AT in %s", zone)
		assert.Empty(t, fake.Messages("DU0PAT"))
	}

	// The watcher: the first poll takes the baseline; an action assigned
	// to Pat since is DMed to the Slack user USER_MAP names.
	before := len(fake.Messages("DU0PAT"))
	job("watch")
	records.AddAction(recordstest.Action{ID: "P-2", Title: "Book the auditors", Status: "open",
		AssigneeName: "Pat Clerk", AssigneeEmail: "pat@records.example"})
	sum = job("watch")
	assert.Contains(t, sum, "; 1 assignment DM")
	assert.NotContains(t, sum, "match no Slack user", "USER_MAP matched Pat")
	dms := fake.Messages("DU0PAT")
	require.Len(t, dms, before+1, "one assignment DM")
	assert.Contains(t, string(dms[before].Blocks), "Book the auditors")
}
