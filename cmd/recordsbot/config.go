package main

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/store"
)

// Config is recordsbot's whole configuration, read from the environment
// once, in main, by envconfig. Which variables are required depends on the
// subcommand (the "needs" tag); check does that, because envconfig's own
// `required` accepts a variable set to an empty string.
type Config struct {
	SlackSigningSecret  string        `envconfig:"SLACK_SIGNING_SECRET" needs:"serve (HTTP mode)" desc:"verifies requests from Slack (Basic Information → Signing Secret)"`
	SlackBotToken       string        `envconfig:"SLACK_BOT_TOKEN" needs:"serve, remind, watch" desc:"bot token, xoxb-…"`
	SlackAppToken       string        `envconfig:"SLACK_APP_TOKEN" desc:"app-level token, xapp-…; when set, Slack traffic arrives over Socket Mode"`
	SlackAPIURL         string        `envconfig:"SLACK_API_URL" default:"https://slack.com/api/" desc:"Slack Web API base URL (tests and the demo point it elsewhere)"`
	RecordsAPIURL       string        `envconfig:"RECORDS_API_URL" needs:"serve, remind, watch" desc:"Records API base URL, ending in /api/v1"`
	RecordsAPIKey       string        `envconfig:"RECORDS_API_KEY" needs:"serve, remind, watch" desc:"Records API key (scopes actions:read, actions:write, meetings:read)"`
	Port                int           `envconfig:"PORT" default:"3000" desc:"HTTP port (sandbox: default 8080)"`
	PublicURL           string        `envconfig:"PUBLIC_URL" desc:"the bot's public https URL; minutes links and unfurls use it"`
	PublicMinutes       bool          `envconfig:"PUBLIC_MINUTES" default:"true" desc:"serve public minutes pages at /minutes/{id}"`
	AdminUserIDs        []string      `envconfig:"ADMIN_USER_IDS" desc:"comma-separated Slack user IDs who may change any action"`
	ActionsVisibility   string        `envconfig:"ACTIONS_VISIBILITY" default:"own" desc:"whose actions members may list: own (their own; ADMIN_USER_IDS see anyone's) or organisation (every full member sees anyone's); Slack guests only ever see their own"`
	UserMap             string        `envconfig:"USER_MAP" desc:"comma-separated assignee=SLACKID pairs for people whose records identity is not their Slack email"`
	RecordsFieldMap     string        `envconfig:"RECORDS_FIELD_MAP" desc:"comma-separated field=name pairs for record fields under names the records client does not know, e.g. action.deadline=target_date"`
	ActionsCacheTTL     time.Duration `envconfig:"ACTIONS_CACHE_TTL" default:"5s" desc:"how long the action list is shared between commands; 0 turns the cache off"`
	RemindDays          int           `envconfig:"REMIND_DAYS" default:"3" desc:"remind: include actions due within this many days"`
	RemindReportChannel string        `envconfig:"REMIND_REPORT_CHANNEL" desc:"remind: channel ID that gets the list of unmatched assignees"`
	RemindSkipWeekends  bool          `envconfig:"REMIND_SKIP_WEEKENDS" default:"false" desc:"remind: send nobody anything on their own Saturday or Sunday"`
	RemindAt            string        `envconfig:"REMIND_AT" default:"09:00" desc:"remind: local time of day (HH:MM) from which each person is reminded, in their own time zone"`
	RecordsTimezone     string        `envconfig:"RECORDS_TIMEZONE" default:"UTC" desc:"the organisation's IANA time zone: a date-only deadline ends at midnight there"`
	WatchInterval       time.Duration `envconfig:"WATCH_INTERVAL" default:"0s" desc:"serve: poll the records service this often in the background (as recordsbot watch does); 0 leaves it to a scheduler"`
	SearchBackfillRate  float64       `envconfig:"SEARCH_BACKFILL_RATE" default:"1" desc:"serve: records calls a second (meetings pages and minutes reads) the background backfill of the minutes search index makes; 0 turns it off"`
	RetentionDays       int           `envconfig:"RETENTION_DAYS" default:"90" desc:"remind, watch: days the store keeps done ledger entries, seen actions and old announcements before the daily prune removes them (at least 62: the watcher reads 60 days back)"`
	FollowDefaults      string        `envconfig:"FOLLOW_DEFAULTS" default:"drafts,approvals,digest,briefs" desc:"what a channel hears of a committee it follows until someone changes it in /minutes following: comma-separated drafts, approvals, digest, briefs"`
	FollowAdminsOnly    bool          `envconfig:"FOLLOW_ADMINS_ONLY" default:"false" desc:"only ADMIN_USER_IDS may /minutes follow or unfollow a committee in a channel"`
	RemindDefault       string        `envconfig:"REMIND_DEFAULT" default:"on" desc:"daily reminder DMs for people who have not chosen on their Home tab: on or off"`
	AssignDMsDefault    string        `envconfig:"ASSIGN_DMS_DEFAULT" default:"on" desc:"new-assignment DMs for people who have not chosen on their Home tab: on or off"`
	DatabaseURL         string        `envconfig:"DATABASE_URL" default:"sqlite://recordsbot.db" desc:"the store: sqlite:///abs/path.db, sqlite://relative.db, sqlite::memory: or postgres://…"`
	LogFormat           string        `envconfig:"LOG_FORMAT" default:"text" desc:"text or json"`
	LogLevel            string        `envconfig:"LOG_LEVEL" default:"info" desc:"debug, info, warn or error"`
	ShutdownGrace       time.Duration `envconfig:"SHUTDOWN_GRACE" default:"20s" desc:"how long a stopping server waits for in-flight work"`
	TrustedProxies      string        `envconfig:"TRUSTED_PROXIES" desc:"comma-separated addresses or CIDRs of the reverse proxies (Ingress) in front of the bot; their X-Forwarded-For names the client the public pages' rate limit counts. Empty: each connection's own address"`
}

// configError is a bad or missing setting; main exits 2 with its one line.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

func missing(name, why string) error {
	return &configError{fmt.Sprintf("%s is required %s", name, why)}
}

// check validates the settings the subcommand needs.
func (c *Config) check(sub string) error {
	needRecords := func() error {
		if strings.TrimSpace(c.RecordsAPIURL) == "" {
			return missing("RECORDS_API_URL", "(the Records API base URL, ending in /api/v1)")
		}
		u, err := url.Parse(c.RecordsAPIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api/v1") {
			return &configError{"RECORDS_API_URL must be an http(s) URL ending in /api/v1, got " + quoteURL(c.RecordsAPIURL)}
		}
		if strings.TrimSpace(c.RecordsAPIKey) == "" {
			return missing("RECORDS_API_KEY", "(the Records API key)")
		}
		return nil
	}
	needStore := func() error {
		if err := store.CheckURL(c.databaseURL()); err != nil {
			return &configError{err.Error()}
		}
		return nil
	}
	needBot := func() error {
		if strings.TrimSpace(c.SlackBotToken) == "" {
			return missing("SLACK_BOT_TOKEN", "(the bot token, xoxb-…)")
		}
		if u, err := url.Parse(c.SlackAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.HasSuffix(u.Path, "/") {
			return &configError{"SLACK_API_URL must be an http(s) URL ending in /, got " + quoteURL(c.SlackAPIURL)}
		}
		return nil
	}
	switch sub {
	case "serve":
		if c.SlackAppToken == "" && strings.TrimSpace(c.SlackSigningSecret) == "" {
			return missing("SLACK_SIGNING_SECRET", "(or set SLACK_APP_TOKEN for Socket Mode)")
		}
		if c.SlackAppToken != "" && !strings.HasPrefix(c.SlackAppToken, "xapp-") {
			return &configError{"SLACK_APP_TOKEN must be an app-level token starting with xapp-"}
		}
		if err := needBot(); err != nil {
			return err
		}
		if err := needRecords(); err != nil {
			return err
		}
		if err := needStore(); err != nil {
			return err
		}
		// The Home tab shows REMIND_AT as the default reminder time.
		if err := c.checkRemindAt(); err != nil {
			return err
		}
	case "remind":
		if err := needBot(); err != nil {
			return err
		}
		if err := needRecords(); err != nil {
			return err
		}
		if c.RemindDays < 0 {
			return &configError{"REMIND_DAYS must be 0 or more"}
		}
		if err := needStore(); err != nil {
			return err
		}
		if err := c.checkRemindAt(); err != nil {
			return err
		}
	case "watch":
		if err := needBot(); err != nil {
			return err
		}
		if err := needRecords(); err != nil {
			return err
		}
		if err := needStore(); err != nil {
			return err
		}
	}
	if c.SearchBackfillRate < 0 || c.SearchBackfillRate > maxBackfillRate {
		return &configError{fmt.Sprintf("SEARCH_BACKFILL_RATE must be between 0 (off) and %g records calls a second, got %g", maxBackfillRate, c.SearchBackfillRate)}
	}
	if err := checkWatchInterval(c.WatchInterval); err != nil {
		return err
	}
	if min := int(store.MinRetention / (24 * time.Hour)); c.RetentionDays != 0 && c.RetentionDays < min {
		return &configError{fmt.Sprintf("RETENTION_DAYS must be at least %d (the watcher reads meetings 60 days back), got %d", min, c.RetentionDays)}
	}
	if c.Port <= 0 || c.Port > 65535 {
		return &configError{fmt.Sprintf("PORT must be between 1 and 65535, got %d", c.Port)}
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &configError{"PUBLIC_URL must be an absolute http(s) URL, got " + quoteURL(c.PublicURL)}
		}
	}
	for _, v := range []struct{ name, value string }{{"REMIND_DEFAULT", c.RemindDefault}, {"ASSIGN_DMS_DEFAULT", c.AssignDMsDefault}} {
		if _, err := onOff(v.value); err != nil {
			return &configError{fmt.Sprintf("%s must be on or off, got %q", v.name, v.value)}
		}
	}
	if _, err := c.zone(); err != nil {
		return &configError{fmt.Sprintf("RECORDS_TIMEZONE must be an IANA time zone such as Europe/London, got %q", c.RecordsTimezone)}
	}
	if _, err := bot.ParseTrustedProxies(c.TrustedProxies); err != nil {
		return &configError{"TRUSTED_PROXIES: " + err.Error()}
	}
	if _, err := actions.ParseVisibility(c.ActionsVisibility); err != nil {
		return &configError{fmt.Sprintf("ACTIONS_VISIBILITY must be own or organisation, got %q", c.ActionsVisibility)}
	}
	if _, err := store.ParseFollowDefaults(c.FollowDefaults); err != nil {
		return &configError{"FOLLOW_DEFAULTS: " + err.Error()}
	}
	if _, err := parseUserMap(c.UserMap); err != nil {
		return &configError{"USER_MAP: " + err.Error()}
	}
	if _, err := apiclient.ParseFieldMap(c.RecordsFieldMap); err != nil {
		return &configError{"RECORDS_FIELD_MAP: " + err.Error()}
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return &configError{"LOG_FORMAT must be text or json, got " + c.LogFormat}
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return &configError{"LOG_LEVEL: " + err.Error()}
	}
	return nil
}

// followDefaults is FOLLOW_DEFAULTS (validated by check); "" means all.
func (c *Config) followDefaults() store.FollowDefaults {
	d, _ := store.ParseFollowDefaults(c.FollowDefaults)
	return d
}

// retention is RETENTION_DAYS as a duration; 0 (a Config built in code)
// means the store's default.
func (c *Config) retention() time.Duration {
	if c.RetentionDays == 0 {
		return store.DefaultRetention
	}
	return time.Duration(c.RetentionDays) * 24 * time.Hour
}

// zone is RECORDS_TIMEZONE as a location ("" means UTC). The binary embeds
// the zone database (time/tzdata in remind.go), so it does not depend on
// the image having one.
func (c *Config) zone() (*time.Location, error) {
	if strings.TrimSpace(c.RecordsTimezone) == "" {
		return time.UTC, nil
	}
	return time.LoadLocation(strings.TrimSpace(c.RecordsTimezone))
}

// visibility is ACTIONS_VISIBILITY (validated by check; "" is own).
func (c *Config) visibility() actions.Visibility {
	v, _ := actions.ParseVisibility(c.ActionsVisibility)
	return v
}

// defaultDatabaseURL is DATABASE_URL's default: ./recordsbot.db.
const defaultDatabaseURL = "sqlite://recordsbot.db"

// databaseURL is DATABASE_URL, or its default when set but empty (as a
// deployment template's blank value leaves it: envconfig fills in defaults
// only for unset variables), or when a test's Config literal leaves it out.
func (c *Config) databaseURL() string {
	if strings.TrimSpace(c.DatabaseURL) == "" {
		return defaultDatabaseURL
	}
	return c.DatabaseURL
}

// onOff reads an on|off setting; "" is on, the default.
func onOff(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off", s)
}

// notifyDefaults are the organisation's notification defaults. A person's
// own choice on the Home tab wins over each. REMIND_SKIP_WEEKENDS is the
// default of "weekdays only".
func (c *Config) notifyDefaults() bot.NotifyDefaults {
	remind, _ := onOff(c.RemindDefault) // validated by check
	dms, _ := onOff(c.AssignDMsDefault) // validated by check
	return bot.NotifyDefaults{
		RemindOff: !remind, RemindAt: strings.TrimSpace(c.RemindAt),
		WeekdaysOnly: c.RemindSkipWeekends, AssignDMsOff: !dms,
	}
}

// quoteURL shows a configured URL without any credentials in it.
func quoteURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		u.User = url.User("…")
		s = u.String()
	}
	return fmt.Sprintf("%q", s)
}

// parseUserMap parses "assignee=SLACKID,assignee2=SLACKID2". Assignees are
// compared case-insensitively, so they are kept lowercased.
func parseUserMap(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		i := strings.LastIndexByte(pair, '=')
		if i <= 0 {
			return nil, fmt.Errorf("%q is not assignee=SLACKID", pair)
		}
		who, id := strings.ToLower(strings.TrimSpace(pair[:i])), strings.TrimSpace(pair[i+1:])
		if who == "" || !isSlackUserID(id) {
			return nil, fmt.Errorf("%q: want assignee=SLACKID with a Slack member ID like U012ABCDEF", pair)
		}
		out[who] = id
	}
	return out, nil
}

func isSlackUserID(s string) bool {
	if len(s) < 2 || (s[0] != 'U' && s[0] != 'W') {
		return false
	}
	for _, r := range s[1:] {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

var errUsage = errors.New("usage")

// checkRemindAt checks REMIND_AT by the rule a person's own reminder time
// is stored under (store.CheckRemindAt: HH:MM, 00:00 to 23:59), so the
// default and a chosen time are the same kind of value.
func (c *Config) checkRemindAt() error {
	if c.RemindAt == "" {
		return nil
	}
	if err := store.CheckRemindAt(c.RemindAt); err != nil {
		return &configError{fmt.Sprintf("REMIND_AT must be a time of day such as 09:00 (HH:MM), got %q", c.RemindAt)}
	}
	return nil
}
