package main

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// envNames lists the variables Config reads, from its envconfig tags.
func envNames(t *testing.T) []string {
	t.Helper()
	var names []string
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("envconfig")
		require.NotEmpty(t, name, "field %s has no envconfig tag", typ.Field(i).Name)
		names = append(names, name)
	}
	return names
}

func validServeConfig() Config {
	return Config{
		SlackSigningSecret: "secret", SlackBotToken: "xoxb-1", SlackAPIURL: "https://slack.com/api/",
		RecordsAPIURL: "https://records.example.org/api/v1", RecordsAPIKey: "key", AuditKey: testAuditKey, Port: 3000,
		LogFormat: "text", LogLevel: "info", DatabaseURL: "sqlite://recordsbot.db",
	}
}

func TestConfigCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sub  string
		edit func(*Config)
		want string // "" = valid
	}{
		{"valid", "serve", func(*Config) {}, ""},
		{"no signing secret", "serve", func(c *Config) { c.SlackSigningSecret = "" }, "SLACK_SIGNING_SECRET"},
		{"blank signing secret", "serve", func(c *Config) { c.SlackSigningSecret = "  " }, "SLACK_SIGNING_SECRET"},
		{"socket mode needs no signing secret", "serve", func(c *Config) { c.SlackSigningSecret = ""; c.SlackAppToken = "xapp-1" }, ""},
		{"app token of the wrong kind", "serve", func(c *Config) { c.SlackAppToken = "xoxb-1" }, "SLACK_APP_TOKEN"},
		{"no bot token", "serve", func(c *Config) { c.SlackBotToken = "" }, "SLACK_BOT_TOKEN"},
		{"no records url", "serve", func(c *Config) { c.RecordsAPIURL = "" }, "RECORDS_API_URL"},
		{"records url without /api/v1", "serve", func(c *Config) { c.RecordsAPIURL = "https://records.example.org/" }, "RECORDS_API_URL"},
		{"records url not http", "serve", func(c *Config) { c.RecordsAPIURL = "ftp://x/api/v1" }, "RECORDS_API_URL"},
		{"no records key", "serve", func(c *Config) { c.RecordsAPIKey = "" }, "RECORDS_API_KEY"},
		{"bad port", "serve", func(c *Config) { c.Port = 70000 }, "PORT"},
		{"bad public url", "serve", func(c *Config) { c.PublicURL = "records-bot.example.org" }, "PUBLIC_URL"},
		{"bad user map", "serve", func(c *Config) { c.UserMap = "alice" }, "USER_MAP"},
		{"user map with a bad id", "serve", func(c *Config) { c.UserMap = "alice@example.org=alice" }, "USER_MAP"},
		{"field map", "serve", func(c *Config) { c.RecordsFieldMap = "action.title=subject,action.assignee=responsible.email" }, ""},
		{"field map with an unknown field", "serve", func(c *Config) { c.RecordsFieldMap = "action.colour=hue" }, "RECORDS_FIELD_MAP"},
		{"field map without a name", "serve", func(c *Config) { c.RecordsFieldMap = "action.title=" }, "RECORDS_FIELD_MAP"},
		{"bad log format", "serve", func(c *Config) { c.LogFormat = "xml" }, "LOG_FORMAT"},
		{"bad log level", "serve", func(c *Config) { c.LogLevel = "loud" }, "LOG_LEVEL"},
		{"slack api url without slash", "serve", func(c *Config) { c.SlackAPIURL = "https://slack.com/api" }, "SLACK_API_URL"},
		{"remind needs no signing secret", "remind", func(c *Config) { c.SlackSigningSecret = "" }, ""},
		{"remind needs a bot token", "remind", func(c *Config) { c.SlackBotToken = "" }, "SLACK_BOT_TOKEN"},
		{"negative remind days", "remind", func(c *Config) { c.RemindDays = -1 }, "REMIND_DAYS"},
		{"bad database url", "serve", func(c *Config) { c.DatabaseURL = "mysql://db/recordsbot" }, "DATABASE_URL"},
		{"bad database url for remind", "remind", func(c *Config) { c.DatabaseURL = "sqlite://" }, "DATABASE_URL"},
		{"empty database url is the default", "remind", func(c *Config) { c.DatabaseURL = "" }, ""},
		{"postgres database url", "serve", func(c *Config) { c.DatabaseURL = "postgres://bot:pw@db:5432/recordsbot" }, ""},
		{"reminders off by default", "serve", func(c *Config) { c.RemindDefault = "off" }, ""},
		{"bad REMIND_DEFAULT", "remind", func(c *Config) { c.RemindDefault = "sometimes" }, "REMIND_DEFAULT must be on or off"},
		{"bad ASSIGN_DMS_DEFAULT", "serve", func(c *Config) { c.AssignDMsDefault = "yes" }, "ASSIGN_DMS_DEFAULT must be on or off"},
		{"bad REMIND_AT for serve's Home tab", "serve", func(c *Config) { c.RemindAt = "9am" }, "REMIND_AT"},
		{"REMIND_AT 9:00, as a stored choice may be", "remind", func(c *Config) { c.RemindAt = "9:00" }, ""},
		{"REMIND_AT past midnight", "remind", func(c *Config) { c.RemindAt = "24:00" }, "REMIND_AT"},
		{"DIGEST_DEFAULT at 9:00", "watch", func(c *Config) { c.DigestDefault = "mon 9:00" }, ""},
		{"DIGEST_DEFAULT off", "watch", func(c *Config) { c.DigestDefault = "off" }, ""},
		{"DIGEST_DEFAULT friday afternoon", "serve", func(c *Config) { c.DigestDefault = "fri 16:30" }, ""},
		{"bad DIGEST_DEFAULT", "watch", func(c *Config) { c.DigestDefault = "monday 9am" }, `DIGEST_DEFAULT "monday 9am": "9am" is not a time`},
		{"retention shorter than the watcher reads back", "watch", func(c *Config) { c.RetentionDays = 30 }, "RETENTION_DAYS must be at least 62"},
		{"FOLLOW_DEFAULTS without drafts", "serve", func(c *Config) { c.FollowDefaults = "approvals,digest" }, ""},
		{"bad FOLLOW_DEFAULTS", "watch", func(c *Config) { c.FollowDefaults = "drafts,gossip" }, `FOLLOW_DEFAULTS has "gossip", which is not one of drafts`},
		{"retention of a year", "remind", func(c *Config) { c.RetentionDays = 365 }, ""},
		{"audit retention under a quarter", "serve", func(c *Config) { c.AuditRetentionDays = 60 }, "AUDIT_RETENTION_DAYS must be at least 90"},
		{"audit retention of two years", "watch", func(c *Config) { c.AuditRetentionDays = 730 }, ""},
		{"ACTIONS_VISIBILITY organisation", "serve", func(c *Config) { c.ActionsVisibility = "organisation" }, ""},
		{"bad ACTIONS_VISIBILITY", "serve", func(c *Config) { c.ActionsVisibility = "everyone" }, "ACTIONS_VISIBILITY must be own or organisation"},
		{"demo needs nothing", "demo", func(c *Config) { *c = Config{Port: 3000, LogFormat: "text", LogLevel: "info"} }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := validServeConfig()
			tt.edit(&c)
			err := c.check(tt.sub)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			var ce *configError
			assert.True(t, errors.As(err, &ce), "a config error, so main exits 2")
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "the message starts with the variable: %q", err.Error())
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

func TestDatabaseURLDefault(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "sqlite://recordsbot.db", (&Config{DatabaseURL: " "}).databaseURL(), "blank means ./recordsbot.db")
	assert.Equal(t, "sqlite::memory:", (&Config{DatabaseURL: "sqlite::memory:"}).databaseURL())
	field, _ := reflect.TypeFor[Config]().FieldByName("DatabaseURL")
	assert.Equal(t, defaultDatabaseURL, field.Tag.Get("default"), "envconfig's default and the blank default agree")
}

func TestSecretsStayOutOfConfigErrors(t *testing.T) {
	t.Parallel()
	c := validServeConfig()
	c.RecordsAPIURL = "https://user:hunter2@records.example.org/"
	err := c.check("serve")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2")

	c = validServeConfig()
	c.DatabaseURL = "postgres://bot:hunter2@db:notaport/recordsbot"
	err = c.check("serve")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2")
}

func TestParseUserMap(t *testing.T) {
	t.Parallel()
	m, err := parseUserMap(" Alice@Example.org=U0ALICE , a. adams = W0ADAMS ,,")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"alice@example.org": "U0ALICE", "a. adams": "W0ADAMS"}, m)
	for _, bad := range []string{"=U1", "alice", "alice=", "alice=u123", "alice=C0CHANNEL"} {
		_, err := parseUserMap(bad)
		assert.Error(t, err, bad)
	}
}

func FuzzParseUserMap(f *testing.F) {
	f.Add("alice@example.org=U0ALICE,bob=W0BOB")
	f.Add("a=b=U1")
	f.Add(",,,=")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseUserMap(s)
		if err != nil {
			return
		}
		for k, v := range m {
			if k == "" || !slackapi.IsUserID(v) || k != strings.ToLower(k) {
				t.Fatalf("bad entry %q=%q from %q", k, v, s)
			}
		}
	})
}

func TestHelpListsEveryVariable(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), Config{}, []string{"help"}, nil, &out, &out))
	for _, name := range envNames(t) {
		assert.Contains(t, out.String(), name)
	}
	for _, sub := range []string{"serve", "remind", "doctor", "demo", "sandbox", "help"} {
		assert.Regexp(t, regexp.MustCompile(`(?m)^  `+sub+` `), out.String())
	}
	assert.Contains(t, out.String(), `default "3000"`)
}

func TestUnknownSubcommand(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	err := run(t.Context(), Config{}, []string{"frobnicate"}, nil, &out, &errOut)
	assert.ErrorIs(t, err, errUsage)
	assert.Equal(t, `unknown subcommand "frobnicate": see recordsbot help`, err.Error(), "the line main prints says where to look")
	assert.Contains(t, errOut.String(), "Subcommands:")
}

// The README's configuration table lists exactly the variables the binary
// reads.
func TestREADMEConfigurationTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, "## Configuration")
	require.GreaterOrEqual(t, start, 0, "README has a Configuration section")
	section := readme[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	rows := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\|").FindAllStringSubmatch(section, -1)
	var inTable []string
	for _, r := range rows {
		inTable = append(inTable, r[1])
	}
	assert.ElementsMatch(t, envNames(t), inTable)
}

// TestBotConfigSaysTheDigestDefault: /minutes following says when the
// usual weekly digest comes, so the bot is told DIGEST_DEFAULT as read,
// and the watcher, which posts it, is told the same follow settings.
func TestBotConfigSaysTheDigestDefault(t *testing.T) {
	t.Parallel()
	for typed, want := range map[string]string{"Friday 16:30": "fri 16:30", "off": "off"} {
		c := validServeConfig()
		c.DigestDefault = typed
		c.FollowAdminsOnly = true
		set, errs := parseSettings(c, "serve")
		require.Empty(t, errs)
		got := botConfig(set).Follows
		require.NotNil(t, got.Digest, "DIGEST_DEFAULT=%s", typed)
		assert.Equal(t, want, got.Digest.String(), "DIGEST_DEFAULT=%s", typed)
		assert.True(t, got.AdminsOnly)
		assert.Equal(t, got, watchConfig(set).Follows, "the bot and the watcher apply one set of follow settings")
	}
}
