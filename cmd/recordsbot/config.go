package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/redact"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// Config is recordsbot's whole configuration, read from the environment
// once, in main, by envconfig (readEnvironment), and parsed once into
// settings (parseSettings). Which variables are required depends on the
// subcommand (the "needs" tag); parseSettings does that, because
// envconfig's own `required` accepts a variable set to an empty string.
// It is the one list of the variables' names: help, the docs' tests and
// the manifests' tests read its tags.
type Config struct {
	SlackSigningSecret  string        `envconfig:"SLACK_SIGNING_SECRET" needs:"serve (HTTP mode)" desc:"verifies requests from Slack (Basic Information → Signing Secret)"`
	SlackBotToken       string        `envconfig:"SLACK_BOT_TOKEN" needs:"serve, remind, watch" desc:"bot token, xoxb-…"`
	SlackAppToken       string        `envconfig:"SLACK_APP_TOKEN" desc:"app-level token, xapp-…; when set, Slack traffic arrives over Socket Mode"`
	SlackAPIURL         string        `envconfig:"SLACK_API_URL" default:"https://slack.com/api/" desc:"Slack Web API base URL (tests and the demo point it elsewhere)"`
	RecordsAPIURL       string        `envconfig:"RECORDS_API_URL" needs:"serve, remind, watch" desc:"Records API base URL, ending in /api/v1"`
	RecordsAPIKey       string        `envconfig:"RECORDS_API_KEY" needs:"serve, remind, watch" desc:"Records API key (scopes actions:read, actions:write, meetings:read)"`
	Port                int           `envconfig:"PORT" default:"3000" desc:"HTTP port (sandbox: default 8080): Slack's requests, /healthz, /readyz and the public minutes pages; never /metrics"`
	MetricsAddr         string        `envconfig:"METRICS_ADDR" default:":9090" desc:"serve: host:port of the metrics listener (GET /metrics, for Prometheus), apart from PORT so that it is never published with the public routes; off turns it off"`
	PublicURL           string        `envconfig:"PUBLIC_URL" desc:"the bot's public https URL; minutes links and unfurls use it"`
	PublicMinutes       bool          `envconfig:"PUBLIC_MINUTES" default:"true" desc:"serve the public minutes pages: /minutes/{id}, the archive /minutes and its feed /minutes/feed.atom"`
	PublicCalendar      string        `envconfig:"PUBLIC_CALENDAR" default:"false" desc:"serve the public meeting calendars: /calendar.ics and /calendar/{committee}.ics; true for every committee, or a comma-separated list of the committees whose schedules are published (Finance,Audit); meetings the records mark cancelled, private or confidential are never in them; people's private deadline calendars work without it"`
	OrgName             string        `envconfig:"ORG_NAME" desc:"the organisation's name, shown on the public minutes pages, in print and in their feed"`
	OrgLanguage         string        `envconfig:"ORG_LANGUAGE" default:"en" desc:"the language of channel posts, of public pages whose reader accepts none of the shipped languages, and of people whose Slack locale is not shipped: en, fr, de or es"`
	AdminUserIDs        []string      `envconfig:"ADMIN_USER_IDS" desc:"comma-separated Slack user IDs who may change any action"`
	ActionsVisibility   string        `envconfig:"ACTIONS_VISIBILITY" default:"own" desc:"whose actions members may list: own (their own; ADMIN_USER_IDS see anyone's) or organisation (every full member sees anyone's); Slack guests only ever see their own; channel digests and briefs list actions under organisation and count them under own"`
	UserMap             string        `envconfig:"USER_MAP" desc:"comma-separated assignee=SLACKID pairs for people whose records identity is not their Slack email"`
	RecordsFieldMap     string        `envconfig:"RECORDS_FIELD_MAP" desc:"comma-separated field=name pairs for record fields under names the records client does not know, e.g. action.deadline=target_date"`
	ActionsCacheTTL     time.Duration `envconfig:"ACTIONS_CACHE_TTL" default:"5s" desc:"how long the action list is shared between commands; 0 turns the cache off"`
	RemindDays          int           `envconfig:"REMIND_DAYS" default:"3" desc:"remind: include actions due within this many days"`
	RemindReportChannel string        `envconfig:"REMIND_REPORT_CHANNEL" desc:"remind: channel ID that gets the list of unmatched assignees"`
	RemindSkipWeekends  bool          `envconfig:"REMIND_SKIP_WEEKENDS" default:"false" desc:"remind: send nobody anything on their own Saturday or Sunday"`
	RemindAt            string        `envconfig:"REMIND_AT" default:"09:00" desc:"remind: local time of day (HH:MM) from which each person is reminded, in their own time zone"`
	RemindCadence       string        `envconfig:"REMIND_CADENCE" default:"daily" desc:"remind: how often people who have not chosen on their Home tab are reminded: daily, or weekly on a day and time (weekly fri 16:00), a summary of what is overdue or due within the week"`
	RemindHolidays      string        `envconfig:"REMIND_HOLIDAYS" desc:"remind: the organisation's closure days, no reminders on them and skipped by a snooze to the next working day: comma-separated dates (2026-12-25) and/or paths or http(s) URLs of iCalendar files, read when the process starts"`
	RecordsTimezone     string        `envconfig:"RECORDS_TIMEZONE" default:"UTC" desc:"the organisation's IANA time zone: a date-only deadline ends at midnight there"`
	WatchInterval       time.Duration `envconfig:"WATCH_INTERVAL" default:"0s" desc:"serve: poll the records service this often in the background (as recordsbot watch does); 0 leaves it to a scheduler"`
	SearchBackfillRate  float64       `envconfig:"SEARCH_BACKFILL_RATE" default:"1" desc:"serve: records calls a second (meetings pages and minutes reads) the background backfill of the minutes search index makes; 0 turns it off"`
	RetentionDays       int           `envconfig:"RETENTION_DAYS" default:"90" desc:"remind, watch: days the store keeps done ledger entries, seen actions and old announcements before the daily prune removes them (at least 62: the watcher reads 60 days back)"`
	AuditKey            string        `envconfig:"AUDIT_KEY" needs:"serve, remind, watch, audit verify" desc:"the audit trail's key, at least 32 characters (openssl rand -hex 32), kept outside the database: every entry is sealed with it, and the daily verify signs the trail's head with it; never change it (docs/audit.md)"`
	AuditAnchorFile     string        `envconfig:"AUDIT_ANCHOR_FILE" desc:"remind, watch, serve: a file the daily verify appends the audit trail's signed head to, one line a day, for audit verify --anchor @FILE; keep it where the database's writers cannot (another volume, a write-once bucket); the head is logged either way"`
	AuditChannel        string        `envconfig:"AUDIT_CHANNEL" desc:"remind, watch, serve: a channel ID (C…, G…) the daily verify posts the audit trail's signed head to, where the database's writers cannot rewrite it; invite the bot to it"`
	AuditRetentionDays  int           `envconfig:"AUDIT_RETENTION_DAYS" default:"400" desc:"remind, watch: days the audit trail of changes made through Slack is kept before the daily prune replaces the older entries with a checkpoint (at least 90)"`
	FollowDefaults      string        `envconfig:"FOLLOW_DEFAULTS" default:"drafts,approvals,digest,briefs" desc:"what a channel hears of a committee it follows until someone changes it in /minutes following: comma-separated drafts, approvals, digest, briefs"`
	DigestDefault       string        `envconfig:"DIGEST_DEFAULT" default:"mon 09:00" desc:"watch: when each channel following a committee gets its weekly digest, unless it chose (a day and HH:MM in RECORDS_TIMEZONE, or off)"`
	BriefLead           time.Duration `envconfig:"BRIEF_LEAD" default:"24h" desc:"watch: how long before a followed committee's upcoming meeting its brief (agenda, open actions, latest minutes) is posted, between 1h and 14 days"`
	FollowAdminsOnly    bool          `envconfig:"FOLLOW_ADMINS_ONLY" default:"false" desc:"only ADMIN_USER_IDS may /minutes follow or unfollow a committee in a channel"`
	WorkObjects         bool          `envconfig:"WORK_OBJECTS" default:"false" desc:"unfurl minutes and action links as Work Object cards with a side panel; turn the app's Work Object Previews on first (Task and Content item)"`
	RemindDefault       string        `envconfig:"REMIND_DEFAULT" default:"on" desc:"daily reminder DMs for people who have not chosen on their Home tab: on or off"`
	AssignDMsDefault    string        `envconfig:"ASSIGN_DMS_DEFAULT" default:"on" desc:"new-assignment DMs for people who have not chosen on their Home tab: on or off"`
	DatabaseURL         string        `envconfig:"DATABASE_URL" default:"sqlite://recordsbot.db" desc:"the store: sqlite:///abs/path.db, sqlite://relative.db, sqlite::memory: or postgres://…"`
	LogFormat           string        `envconfig:"LOG_FORMAT" default:"text" desc:"text or json"`
	LogLevel            string        `envconfig:"LOG_LEVEL" default:"info" desc:"debug, info, warn or error"`
	ShutdownGrace       time.Duration `envconfig:"SHUTDOWN_GRACE" default:"20s" desc:"how long a stopping server waits for in-flight work"`
	PublicImageHosts    string        `envconfig:"PUBLIC_IMAGE_HOSTS" desc:"comma-separated https origins (https://images.example.org) whose images the public minutes pages may show; empty: images from other hosts are not loaded"`
	A11yContact         string        `envconfig:"ACCESSIBILITY_CONTACT" desc:"where the public pages' accessibility statement (/accessibility) asks readers to report a problem: an e-mail address or an https URL; empty: it asks them to tell the organisation"`
	TrustedProxies      string        `envconfig:"TRUSTED_PROXIES" desc:"comma-separated addresses or CIDRs of the reverse proxies (Ingress) in front of the bot; their X-Forwarded-For names the client the public pages' rate limit counts. Empty: each connection's own address"`
	SandboxKeys         string        `envconfig:"SANDBOX_KEYS" desc:"sandbox: KEY=SCOPE+SCOPE,… (default: one full-scope key, printed)"`
}

// configError is one bad or missing variable: one line that starts with
// its name. main exits 2 with it.
type configError struct {
	name string // the variable
	msg  string
}

func (e *configError) Error() string { return e.msg }

// configErrors are every problem found in the configuration, in the order
// of Config's fields: one line each.
type configErrors []*configError

func (e configErrors) Error() string {
	lines := make([]string, len(e))
	for i, ce := range e {
		lines[i] = ce.msg
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find each *configError.
func (e configErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, ce := range e {
		out[i] = ce
	}
	return out
}

// err is e as an error: nil when there is no problem.
func (e configErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// without is e less the problems with the named variables (already
// reported another way).
func (e configErrors) without(names map[string]bool) configErrors {
	var out configErrors
	for _, ce := range e {
		if !names[ce.name] {
			out = append(out, ce)
		}
	}
	return out
}

// check validates the settings the subcommand needs; see parseSettings.
func (c *Config) check(sub string) error {
	_, errs := parseSettings(*c, sub)
	return errs.err()
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

// quoteURL shows a configured URL without any credentials in it (its
// user and password, its query's values: redact.URL).
func quoteURL(s string) string {
	return fmt.Sprintf("%q", redact.URL(s))
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
		if who == "" || !slackapi.IsUserID(id) {
			return nil, fmt.Errorf("%q: want assignee=SLACKID with a Slack member ID like U012ABCDEF", pair)
		}
		out[who] = id
	}
	return out, nil
}

// errUsage is a command line the binary does not take; its text ends the
// one line main prints, after the usage or the flag error above it.
var errUsage = errors.New("see recordsbot help")
