package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runMainEnv makes the test binary run main (see TestMain).
const runMainEnv = "RECORDSBOT_TEST_MAIN"

// runMain runs the test binary as `recordsbot args...` with exactly the
// environment env (and a working directory of its own), as a shell would,
// and returns its output and exit status.
func runMain(t *testing.T, env []string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append([]string{runMainEnv + "=1"}, env...)
	cmd.Dir = t.TempDir()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errOut.String(), ee.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errOut.String(), 0
}

// malformed are three variables envconfig cannot read.
var malformed = []string{"PORT=http", "WATCH_INTERVAL=5", "PUBLIC_MINUTES=maybe"}

// help works whatever the environment holds.
func TestHelpWithAMalformedEnvironment(t *testing.T) {
	t.Parallel()
	stdout, stderr, status := runMain(t, malformed, "help")
	assert.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Contains(t, stdout, "Usage: recordsbot")
	assert.Contains(t, stdout, "SANDBOX_KEYS", "every variable, SANDBOX_KEYS included, comes from Config")
}

// doctor runs with a broken environment and names every problem, one line
// each, and exits 1; it leaves no database file behind.
func TestDoctorWithAMalformedEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "recordsbot.db")
	stdout, stderr, status := runMain(t, append(malformed, "DATABASE_URL=sqlite://"+db), "doctor")
	assert.Equal(t, 1, status, "stdout: %s\nstderr: %s", stdout, stderr)
	for _, want := range []string{
		`✗ PORT: cannot read "http" as a whole number`,
		`✗ WATCH_INTERVAL: cannot read "5" as a duration with a unit, such as 30s, 5m or 1h`,
		`✗ PUBLIC_MINUTES: cannot read "maybe" as true or false`,
		"✗ SLACK_SIGNING_SECRET is required",
		"✗ SLACK_BOT_TOKEN is required",
		"✗ RECORDS_API_URL is required",
		"✗ RECORDS_API_KEY is required",
	} {
		assert.Contains(t, stdout, "\n  "+want, "a line of its own")
	}
	assert.NotContains(t, stdout, "PORT must be between", "an unreadable variable is reported once")
	_, err := os.Stat(db)
	assert.ErrorIs(t, err, os.ErrNotExist, "doctor creates no database file")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nor anything else beside it")
}

// serve refuses a broken environment with every problem, one line each,
// and exits 2.
func TestServeWithAMalformedEnvironment(t *testing.T) {
	t.Parallel()
	_, stderr, status := runMain(t, append(malformed, "LOG_FORMAT=xml"), "serve")
	assert.Equal(t, 2, status, "stderr: %s", stderr)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	assert.Equal(t, []string{
		`recordsbot: PORT: cannot read "http" as a whole number`,
		`recordsbot: PUBLIC_MINUTES: cannot read "maybe" as true or false`,
		`recordsbot: WATCH_INTERVAL: cannot read "5" as a duration with a unit, such as 30s, 5m or 1h`,
		"recordsbot: SLACK_SIGNING_SECRET is required (or set SLACK_APP_TOKEN for Socket Mode)",
		"recordsbot: SLACK_BOT_TOKEN is required (the bot token, xoxb-…)",
		"recordsbot: RECORDS_API_URL is required (the Records API base URL, ending in /api/v1)",
		"recordsbot: RECORDS_API_KEY is required (the Records API key)",
		"recordsbot: AUDIT_KEY is required: a secret of at least 32 characters kept outside the database (openssl rand -hex 32) that seals the audit trail (docs/audit.md)",
		`recordsbot: LOG_FORMAT must be text or json, got "xml"`,
	}, lines)
}

// parseSettings reports every problem, in the order of Config's fields,
// one line each.
func TestParseSettingsReportsEveryProblem(t *testing.T) {
	t.Parallel()
	c := validServeConfig()
	c.RecordsAPIKey = ""
	c.UserMap = "alice"
	c.RecordsTimezone = "Mars/Olympus"
	c.RemindAt = "9am"
	c.LogLevel = "loud"
	_, errs := parseSettings(c, "serve")
	var names []string
	for _, e := range errs {
		names = append(names, e.name)
		assert.True(t, strings.HasPrefix(e.msg, e.name), "%q starts with its variable", e.msg)
		assert.NotContains(t, e.msg, "\n")
	}
	assert.Equal(t, []string{"RECORDS_API_KEY", "USER_MAP", "REMIND_AT", "RECORDS_TIMEZONE", "LOG_LEVEL"}, names)
	assert.Equal(t, 5, strings.Count(errs.Error(), "\n")+1, "one line each")
}

// With every variable wrong, parseSettings reports each once, one line
// each, in the order an admin has always read them.
func TestParseSettingsReportsEveryVariableInTurn(t *testing.T) {
	t.Parallel()
	c := Config{
		SlackAppToken: "xoxb-1", SlackAPIURL: "ftp://slack", RecordsAPIURL: "records", Port: 70000,
		MetricsAddr: "nowhere", PublicURL: "records-bot.example.org", OrgLanguage: "xx",
		ActionsVisibility: "everyone", UserMap: "alice", RecordsFieldMap: "nonsense",
		RemindDays: -1, RemindAt: "9am", RemindCadence: "hourly", RecordsTimezone: "Mars/Olympus",
		WatchInterval: time.Second, SearchBackfillRate: -1, RetentionDays: 1, AuditKey: "short", AuditRetentionDays: -1,
		FollowDefaults: "sometimes", DigestDefault: "someday", BriefLead: time.Minute,
		RemindDefault: "maybe", AssignDMsDefault: "maybe", DatabaseURL: "mysql://db",
		LogFormat: "xml", LogLevel: "loud", ShutdownGrace: -time.Second,
		PublicImageHosts: "http://", A11yContact: "nobody", TrustedProxies: "proxy",
	}
	_, errs := parseSettings(c, "serve")
	var names []string
	for _, e := range errs {
		names = append(names, e.name)
	}
	assert.Equal(t, []string{
		"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_API_URL",
		"RECORDS_API_URL", "RECORDS_API_KEY", "PORT", "METRICS_ADDR", "PUBLIC_URL",
		"ACTIONS_VISIBILITY", "FOLLOW_DEFAULTS", "USER_MAP", "RECORDS_FIELD_MAP",
		"REMIND_DAYS", "REMIND_AT", "ORG_LANGUAGE", "RECORDS_TIMEZONE",
		"WATCH_INTERVAL", "SEARCH_BACKFILL_RATE", "RETENTION_DAYS", "AUDIT_KEY", "AUDIT_RETENTION_DAYS",
		"REMIND_DEFAULT", "ASSIGN_DMS_DEFAULT", "DIGEST_DEFAULT", "BRIEF_LEAD", "REMIND_CADENCE",
		"DATABASE_URL", "LOG_FORMAT", "LOG_LEVEL",
		"TRUSTED_PROXIES", "PUBLIC_IMAGE_HOSTS", "ACCESSIBILITY_CONTACT", "SHUTDOWN_GRACE",
	}, names)
	assert.Equal(t, len(names), strings.Count(errs.Error(), "\n")+1, "one line each")
}

// The settings are typed once; what serve, remind and watch read is
// already parsed.
func TestParseSettingsTypes(t *testing.T) {
	t.Parallel()
	c := validServeConfig()
	c.AdminUserIDs = []string{" U0ADMIN ", ""}
	c.UserMap = "Alice@Example.org=U0ALICE"
	c.RecordsTimezone = "Europe/London"
	c.RemindDefault, c.AssignDMsDefault, c.RemindAt, c.RemindSkipWeekends = "off", "on", "8:30", true
	c.ActionsCacheTTL = 0
	c.SlackAPIURL = ""
	set, errs := parseSettings(c, "serve")
	require.Empty(t, errs)
	assert.Equal(t, []string{"U0ADMIN"}, set.admins)
	assert.Equal(t, map[string]string{"alice@example.org": "U0ALICE"}, set.userMap)
	assert.Equal(t, "Europe/London", set.zone.String())
	assert.True(t, set.notify.RemindOff)
	assert.False(t, set.notify.AssignDMsOff)
	assert.Equal(t, "08:30", set.notify.RemindAt.String(), "9:00 is 09:00 everywhere")
	assert.True(t, set.notify.WeekdaysOnly)
	assert.Negative(t, set.cacheTTL, "ACTIONS_CACHE_TTL=0 turns the cache off")
	assert.Equal(t, defaultSlackAPIURL, set.slackAPIURL)
}

// Durations in the logs read as durations, in JSON too.
func TestLogsShowReadableDurations(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := newLogger(&settings{logJSON: true}, &buf)
	log.Info("shutting down", "grace", 20*time.Second, "took", 1500*time.Millisecond)
	assert.Contains(t, buf.String(), `"grace":"20s"`)
	assert.Contains(t, buf.String(), `"took":"1.5s"`)
}

// METRICS_ADDR: a listener address apart from PORT, or off.
func TestParseSettingsMetricsAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{":9090": ":9090", " 127.0.0.1:9100 ": "127.0.0.1:9100", "off": "", "OFF": ""} {
		c := validServeConfig()
		c.MetricsAddr = in
		set, errs := parseSettings(c, "serve")
		require.Empty(t, errs, "%q", in)
		assert.Equal(t, want, set.metricsAddr, "%q", in)
	}
	for _, bad := range []string{"9090", ":http", ":0", ":70000", "localhost"} {
		c := validServeConfig()
		c.MetricsAddr = bad
		_, errs := parseSettings(c, "serve")
		require.Len(t, errs, 1, "%q", bad)
		assert.Equal(t, "METRICS_ADDR", errs[0].name)
	}
	c := validServeConfig()
	c.Port, c.MetricsAddr = 9090, ":9090"
	_, errs := parseSettings(c, "serve")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].msg, "must not be PORT")
}
