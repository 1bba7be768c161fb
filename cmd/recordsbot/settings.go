package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/store"
)

// settings is the configuration parsed: every variable read once, into the
// type the code that uses it wants. Build it with parseSettings; nothing
// downstream parses a variable again.
type settings struct {
	signingSecret string // "" in Socket Mode
	botToken      string
	appToken      string // "" for HTTP mode
	slackAPIURL   string

	recordsURL string
	recordsKey string
	fieldMap   apiclient.FieldMap

	port          int
	metricsAddr   string // METRICS_ADDR; "" when off
	publicURL     string
	publicMinutes bool
	publicCal     publication.Schedule // PUBLIC_CALENDAR
	orgName       string               // ORG_NAME, trimmed
	orgLanguage   lang.Lang            // ORG_LANGUAGE; English when unset

	admins      []string // trimmed, no blanks
	visibility  actions.Visibility
	userMap     map[string]string // lowercased assignee → Slack ID
	cacheTTL    time.Duration     // negative: off
	workObjects bool
	// follows are FOLLOW_ADMINS_ONLY, FOLLOW_DEFAULTS and DIGEST_DEFAULT
	// ("" in a Config built in code: follows.DefaultDigest), the bot's
	// and the watcher's alike.
	follows follows.Settings
	zone    *time.Location

	remindDays    int
	reportChannel string
	notify        store.Defaults // REMIND_DEFAULT, REMIND_AT, REMIND_SKIP_WEEKENDS, ASSIGN_DMS_DEFAULT
	briefLead     time.Duration  // BRIEF_LEAD; 0 (a Config built in code) is the watcher's default
	holidays      string         // REMIND_HOLIDAYS, read by loadHolidays where a subcommand needs it

	watchInterval      time.Duration
	searchBackfillRate float64       // records calls a second; 0 off
	retention          time.Duration // RETENTION_DAYS
	auditRetention     time.Duration // AUDIT_RETENTION_DAYS
	auditKey           audit.Key     // AUDIT_KEY; zero where the subcommand needs none
	auditAnchorFile    string        // AUDIT_ANCHOR_FILE; "" none
	auditChannel       string        // AUDIT_CHANNEL; "" none
	databaseURL        string
	trustedProxies     []netip.Prefix
	publicImageHosts   []string // PUBLIC_IMAGE_HOSTS
	a11yContact        string   // ACCESSIBILITY_CONTACT

	logJSON       bool
	logLevel      slog.Level
	shutdownGrace time.Duration
}

// defaultSlackAPIURL is SLACK_API_URL's default, also taken when a test's
// Config literal leaves it out.
const defaultSlackAPIURL = "https://slack.com/api/"

// required names the variables each subcommand cannot do without, beyond
// the ones whose defaults always work.
var required = map[string][]string{
	"serve":  {"SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "RECORDS_API_URL", "RECORDS_API_KEY", "AUDIT_KEY"},
	"remind": {"SLACK_BOT_TOKEN", "RECORDS_API_URL", "RECORDS_API_KEY", "AUDIT_KEY"},
	"watch":  {"SLACK_BOT_TOKEN", "RECORDS_API_URL", "RECORDS_API_KEY", "AUDIT_KEY"},
	// doctor checks for everything serve, remind and watch need.
	"doctor": {"SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "RECORDS_API_URL", "RECORDS_API_KEY", "AUDIT_KEY"},
	// audit export reads the trail only; verify needs the key too, which
	// runAudit asks for.
}

// parseSettings reads c into settings, checking every variable and the ones
// sub requires ("" requires none). It returns every problem, one
// *configError a variable, in the order of Config's fields, not only the
// first: an admin fixes them all in one go. The settings are usable only
// when there are no errors.
func parseSettings(c Config, sub string) (*settings, configErrors) {
	p := &settingsParser{c: c, s: &settings{}, need: map[string]bool{}}
	for _, name := range required[sub] {
		p.need[name] = true
	}
	// Each group reports its problems in turn: their order is the
	// order of the lines the admin reads.
	p.slack()
	p.records()
	p.listeners()
	p.actions()
	remindAt := p.reminders()
	p.locale()
	p.background()
	p.notifyDefaults(remindAt)
	p.storeAndLogs()
	p.publicPages()
	if p.s.shutdownGrace = c.ShutdownGrace; p.s.shutdownGrace < 0 {
		p.bad("SHUTDOWN_GRACE", "must not be negative, got %s", p.s.shutdownGrace)
	}
	return p.s, p.errs
}

// settingsParser reads a Config into settings, one group of variables at
// a time, collecting every problem.
type settingsParser struct {
	c    Config
	s    *settings
	need map[string]bool // the variables the subcommand requires
	errs configErrors
}

// bad records the problem of variable name: name, then the message.
func (p *settingsParser) bad(name, format string, args ...any) {
	p.errs = append(p.errs, &configError{name: name, msg: name + " " + fmt.Sprintf(format, args...)})
}

// slack reads Slack's tokens and Web API URL.
func (p *settingsParser) slack() {
	c, s := p.c, p.s
	s.signingSecret = strings.TrimSpace(c.SlackSigningSecret)
	s.botToken = strings.TrimSpace(c.SlackBotToken)
	s.appToken = strings.TrimSpace(c.SlackAppToken)
	s.slackAPIURL = strings.TrimSpace(c.SlackAPIURL)
	if p.need["SLACK_SIGNING_SECRET"] && s.appToken == "" && s.signingSecret == "" {
		p.bad("SLACK_SIGNING_SECRET", "is required (or set SLACK_APP_TOKEN for Socket Mode)")
	}
	if p.need["SLACK_BOT_TOKEN"] && s.botToken == "" {
		p.bad("SLACK_BOT_TOKEN", "is required (the bot token, xoxb-…)")
	}
	if s.appToken != "" && !strings.HasPrefix(s.appToken, "xapp-") {
		p.bad("SLACK_APP_TOKEN", "must be an app-level token starting with xapp-")
	}
	if s.slackAPIURL == "" {
		s.slackAPIURL = defaultSlackAPIURL
	}
	if u, err := url.Parse(s.slackAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.HasSuffix(u.Path, "/") {
		p.bad("SLACK_API_URL", "must be an http(s) URL ending in /, got %s", quoteURL(s.slackAPIURL))
	}
}

// records reads the Records API's URL and key.
func (p *settingsParser) records() {
	c, s := p.c, p.s
	s.recordsURL = strings.TrimSpace(c.RecordsAPIURL)
	s.recordsKey = strings.TrimSpace(c.RecordsAPIKey)
	switch {
	case s.recordsURL == "":
		if p.need["RECORDS_API_URL"] {
			p.bad("RECORDS_API_URL", "is required (the Records API base URL, ending in /api/v1)")
		}
	default:
		u, err := url.Parse(s.recordsURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api/v1") {
			p.bad("RECORDS_API_URL", "must be an http(s) URL ending in /api/v1, got %s", quoteURL(s.recordsURL))
		}
	}
	if p.need["RECORDS_API_KEY"] && s.recordsKey == "" {
		p.bad("RECORDS_API_KEY", "is required (the Records API key)")
	}
}

// listeners reads where the bot listens (PORT, METRICS_ADDR) and the
// public pages' address and switches.
func (p *settingsParser) listeners() {
	c, s := p.c, p.s
	s.port = c.Port
	s.metricsAddr = strings.TrimSpace(c.MetricsAddr)
	s.publicURL = strings.TrimSpace(c.PublicURL)
	s.publicMinutes, s.publicCal = c.PublicMinutes, publication.ParseSchedule(c.PublicCalendar)
	s.orgName = strings.TrimSpace(c.OrgName)
	if s.port <= 0 || s.port > 65535 {
		p.bad("PORT", "must be between 1 and 65535, got %d", s.port)
	}
	switch {
	case strings.EqualFold(s.metricsAddr, "off"):
		s.metricsAddr = ""
	case s.metricsAddr == "":
		// A Config built in code: no metrics listener.
	default:
		if _, port, err := net.SplitHostPort(s.metricsAddr); err != nil || port == "" {
			p.bad("METRICS_ADDR", "must be host:port or :port (such as :9090), or off, got %q", s.metricsAddr)
		} else if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			p.bad("METRICS_ADDR", "must name a port between 1 and 65535, got %q", s.metricsAddr)
		} else if n == s.port {
			p.bad("METRICS_ADDR", "must not be PORT (%d): the metrics are for the cluster, PORT is public", s.port)
		}
	}
	if s.publicURL != "" {
		if u, err := url.Parse(s.publicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.bad("PUBLIC_URL", "must be an absolute http(s) URL, got %s", quoteURL(s.publicURL))
		}
	}
}

// actions reads who sees and changes which actions (admins, visibility,
// USER_MAP), how the records' fields are read, the shared list's cache,
// and who follows committees how.
func (p *settingsParser) actions() {
	c, s := p.c, p.s
	s.follows.AdminsOnly = c.FollowAdminsOnly
	s.workObjects = c.WorkObjects
	for _, a := range c.AdminUserIDs {
		if a = strings.TrimSpace(a); a != "" {
			s.admins = append(s.admins, a)
		}
	}
	var err error
	if s.visibility, err = actions.ParseVisibility(c.ActionsVisibility); err != nil {
		p.bad("ACTIONS_VISIBILITY", "must be own or organisation, got %q", c.ActionsVisibility)
	}
	if s.follows.Defaults, err = store.ParseFollowDefaults(c.FollowDefaults); err != nil {
		p.bad("FOLLOW_DEFAULTS", "%v", err)
	}
	if s.userMap, err = parseUserMap(c.UserMap); err != nil {
		p.bad("USER_MAP", "%v", err)
	}
	if s.fieldMap, err = apiclient.ParseFieldMap(c.RecordsFieldMap); err != nil {
		p.bad("RECORDS_FIELD_MAP", "%v", err)
	}
	if s.cacheTTL = c.ActionsCacheTTL; s.cacheTTL <= 0 {
		s.cacheTTL = -1 // off, where actions.Config's zero is its default
	}
}

// reminders reads when the reminder job reminds and reports, and returns
// REMIND_AT, the default reminder time, for notifyDefaults.
func (p *settingsParser) reminders() clocktime.Time {
	c, s := p.c, p.s
	s.remindDays = c.RemindDays
	s.reportChannel = strings.TrimSpace(c.RemindReportChannel)
	if s.remindDays < 0 {
		p.bad("REMIND_DAYS", "must be 0 or more, got %d", s.remindDays)
	}
	// REMIND_AT is the same kind of value as a person's own reminder
	// time; "" (a Config built in code) is store.DefaultRemindAt.
	var remindAt clocktime.Time
	if strings.TrimSpace(c.RemindAt) != "" {
		var err error
		if remindAt, err = clocktime.Parse(c.RemindAt); err != nil {
			p.bad("REMIND_AT", "must be a time of day such as 09:00 (HH:MM), got %q", c.RemindAt)
		}
	}
	return remindAt
}

// locale reads the organisation's language and the records' time zone.
func (p *settingsParser) locale() {
	c, s := p.c, p.s
	var err error
	if code := strings.TrimSpace(c.OrgLanguage); code != "" {
		if s.orgLanguage, err = lang.Parse(code); err != nil {
			p.bad("ORG_LANGUAGE", "must be one of the shipped languages (%s), got %q", lang.Codes(), c.OrgLanguage)
		}
	}
	s.zone = time.UTC
	if tz := strings.TrimSpace(c.RecordsTimezone); tz != "" {
		// The binary embeds the zone database (time/tzdata in remind.go).
		if s.zone, err = time.LoadLocation(tz); err != nil {
			p.bad("RECORDS_TIMEZONE", "must be an IANA time zone such as Europe/London, got %q", c.RecordsTimezone)
		}
	}
}

// background reads the pace of the background jobs (the watcher, the
// search backfill) and how long the store keeps what it holds.
func (p *settingsParser) background() {
	c, s := p.c, p.s
	s.watchInterval = c.WatchInterval
	s.searchBackfillRate = c.SearchBackfillRate
	s.retention = time.Duration(c.RetentionDays) * 24 * time.Hour
	if s.watchInterval != 0 && s.watchInterval < minWatchInterval {
		p.bad("WATCH_INTERVAL", "must be 0 (off) or at least %s, got %s", minWatchInterval, s.watchInterval)
	}
	if s.searchBackfillRate < 0 || s.searchBackfillRate > maxBackfillRate {
		p.bad("SEARCH_BACKFILL_RATE", "must be between 0 (off) and %g records calls a second, got %g", maxBackfillRate, s.searchBackfillRate)
	}
	switch min := int(store.MinRetention / (24 * time.Hour)); {
	case c.RetentionDays == 0:
		s.retention = store.DefaultRetention // a Config built in code
	case c.RetentionDays < min:
		p.bad("RETENTION_DAYS", "must be at least %d (the watcher reads meetings 60 days back), got %d", min, c.RetentionDays)
	}
	switch key := strings.TrimSpace(c.AuditKey); {
	case key == "" && p.need["AUDIT_KEY"]:
		p.bad("AUDIT_KEY", "is required: a secret of at least %d characters kept outside the database (openssl rand -hex 32) that seals the audit trail (docs/audit.md)", audit.MinKeyLength)
	case key != "":
		var err error
		if s.auditKey, err = audit.ParseKey(key); err != nil {
			p.bad("AUDIT_KEY", "%v", err)
		}
	}
	s.auditAnchorFile = strings.TrimSpace(c.AuditAnchorFile)
	if s.auditChannel = strings.TrimSpace(c.AuditChannel); s.auditChannel != "" && !slackapi.IsChannelID(s.auditChannel) {
		p.bad("AUDIT_CHANNEL", "must be a channel ID such as C012ABCDEF (the channel's details, at the bottom), got %q", c.AuditChannel)
	}
	if d, err := audit.Retention(c.AuditRetentionDays); err != nil {
		p.bad("AUDIT_RETENTION_DAYS", "%s", err)
	} else {
		s.auditRetention = d
	}
}

// notifyDefaults reads what people are sent until they choose otherwise:
// reminders (at remindAt, REMIND_AT), DMs of new assignments, the weekly
// digest, the meeting brief's lead, the reminders' cadence and holidays.
func (p *settingsParser) notifyDefaults(remindAt clocktime.Time) {
	c, s := p.c, p.s
	remindOn, err := onOff(c.RemindDefault)
	if err != nil {
		p.bad("REMIND_DEFAULT", "must be on or off, got %q", c.RemindDefault)
	}
	dmsOn, err := onOff(c.AssignDMsDefault)
	if err != nil {
		p.bad("ASSIGN_DMS_DEFAULT", "must be on or off, got %q", c.AssignDMsDefault)
	}
	if strings.TrimSpace(c.DigestDefault) != "" {
		digest, err := clocktime.ParseWeekly(c.DigestDefault)
		if err != nil {
			p.bad("DIGEST_DEFAULT", "%v", err)
		}
		s.follows.Digest = &digest
	}
	switch s.briefLead = c.BriefLead; {
	case s.briefLead == 0: // a Config built in code: the watcher's default
	case s.briefLead < time.Hour || s.briefLead > 14*24*time.Hour:
		// Under an hour a poll every few minutes may miss it; over two
		// weeks the meetings page may not list the meeting yet.
		p.bad("BRIEF_LEAD", "must be between 1h and 336h (14 days), got %s", s.briefLead)
	}
	s.notify = store.Defaults{RemindOff: !remindOn, RemindAt: remindAt, WeekdaysOnly: c.RemindSkipWeekends, AssignDMsOff: !dmsOn}
	if s.notify.Cadence, err = parseCadence(c.RemindCadence); err != nil {
		p.bad("REMIND_CADENCE", "must be daily, or weekly and a day and time such as \"weekly fri 16:00\", got %q", c.RemindCadence)
	}
	s.holidays = strings.TrimSpace(c.RemindHolidays)
}

// storeAndLogs reads where the store is and how the logs are written.
func (p *settingsParser) storeAndLogs() {
	c, s := p.c, p.s
	s.databaseURL = c.databaseURL()
	if err := store.CheckURL(s.databaseURL); err != nil {
		// The message already names DATABASE_URL and hides any password.
		p.errs = append(p.errs, &configError{name: "DATABASE_URL", msg: err.Error()})
	}
	s.logJSON = c.LogFormat == "json"
	switch c.LogFormat {
	case "text", "json", "":
	default:
		p.bad("LOG_FORMAT", "must be text or json, got %q", c.LogFormat)
	}
	var err error
	if s.logLevel, err = parseLevel(c.LogLevel); err != nil {
		p.bad("LOG_LEVEL", "must be debug, info, warn or error, got %q", c.LogLevel)
	}
}

// publicPages reads what the public pages trust, load and offer: the
// proxies in front of them, the image hosts, the accessibility contact.
func (p *settingsParser) publicPages() {
	c, s := p.c, p.s
	var err error
	if s.trustedProxies, err = bot.ParseTrustedProxies(c.TrustedProxies); err != nil {
		p.bad("TRUSTED_PROXIES", "%v", err)
	}
	if s.publicImageHosts, err = minutespage.ParseImageHosts(c.PublicImageHosts); err != nil {
		p.bad("PUBLIC_IMAGE_HOSTS", "%v", err)
	}
	if s.a11yContact = strings.TrimSpace(c.A11yContact); !minutespage.ValidAccessibilityContact(s.a11yContact) {
		p.bad("ACCESSIBILITY_CONTACT", "must be an e-mail address or an http(s) URL, got %q", c.A11yContact)
	}
}

// parseLevel reads LOG_LEVEL; "" is info.
func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if strings.TrimSpace(s) == "" {
		return slog.LevelInfo, nil
	}
	err := l.UnmarshalText([]byte(strings.TrimSpace(s)))
	return l, err
}

// parseCadence reads REMIND_CADENCE: "daily" (or "", a Config built in
// code) is the zero Weekly; "weekly fri 16:00" (or "fri 16:00") a weekly
// summary.
func parseCadence(s string) (clocktime.Weekly, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || s == "daily" {
		return clocktime.Weekly{}, nil
	}
	w, err := clocktime.ParseWeekly(strings.TrimPrefix(s, "weekly "))
	if err == nil && !w.On {
		err = fmt.Errorf("off is not a cadence")
	}
	return w, err
}

// loadHolidays reads REMIND_HOLIDAYS now (a URL is fetched by the
// process, at start) with l, with REMIND_SKIP_WEEKENDS. A URL that cannot
// be read now does not stop start-up: its last good copy in l.Cache (the
// store; nil: none) is used, or none, with a warning in log that shows
// the URL without its credentials. With l.Background (serve) a URL's
// last good copy is used at once and the URL fetched behind it, so a
// slow host does not hold up start-up; without (remind) it is waited for,
// 10 s at most. Errors: a *configError naming a date or a file that could
// not be read.
func loadHolidays(ctx context.Context, set *settings, l workdays.Loader, log *slog.Logger) (workdays.Calendar, error) {
	l.Warn = func(url string, err error, copyFrom time.Time) {
		if copyFrom.IsZero() {
			log.WarnContext(ctx, "REMIND_HOLIDAYS: a calendar could not be read and there is no earlier copy: its closure days are not known until the next start",
				"url", url, "error", err)
			return
		}
		log.WarnContext(ctx, "REMIND_HOLIDAYS: a calendar could not be read: its last good copy is used", "url", url, "error", err,
			"copy_from", copyFrom.UTC().Format(time.RFC3339))
	}
	c, err := l.Load(ctx, set.holidays)
	if err != nil {
		return workdays.Calendar{}, &configError{name: "REMIND_HOLIDAYS", msg: "REMIND_HOLIDAYS " + err.Error()}
	}
	c.SkipWeekends = set.notify.WeekdaysOnly
	return c, nil
}
