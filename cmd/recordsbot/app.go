package main

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/wire"
)

// app is every piece serve, remind and watch share, each built once, by
// run, from the settings: one logger, and the services wire
// builds (one records client, one Slack client, one action domain, so a
// background watch and a burst of /actions share one action list, one
// minutes domain and one calendar domain: serve's feeds, and the briefs'
// and /meetings' "Add to calendar" links).
type app struct {
	set     *settings
	log     *slog.Logger
	metrics *metrics.Set // nil for a one-shot job: nobody scrapes it
	*wire.Services
	// store is the store once it is open (serve opens it, perhaps in the
	// background): the action domain writes its audit trail there, and
	// refuses status changes while it is not open.
	store *storeSlot
	// checkInterval, when set, is how often serve checks its
	// dependencies (tests); 0 means health.Checker's defaults.
	checkInterval time.Duration
}

// newApp builds the shared pieces for the subcommand sub; logs go to
// logOut. Only serve's clients are instrumented: a one-shot job (remind,
// watch) has no metrics listener for anyone to scrape.
func newApp(set *settings, sub string, logOut io.Writer) (*app, error) {
	a := &app{set: set, log: newLogger(set, logOut), store: &storeSlot{}}
	if sub == "serve" {
		a.metrics = metrics.New()
		a.metrics.SetVersion(version)
	}
	// Only the records client can refuse (its URL), which settings have
	// checked already.
	svc, err := wire.New(wireConfig(set, a.metrics, a.log, a.store))
	if err != nil {
		return nil, &configError{name: "RECORDS_API_URL", msg: "RECORDS_API_URL: " + err.Error()}
	}
	a.Services = svc
	return a, nil
}

// wireConfig is what the services are built from: the settings, the
// clients counted in m (nil: not counted), Slack's warnings logged to log,
// the audit trail and the calendar's versions and tokens in the store
// once it is open (slot).
func wireConfig(set *settings, m *metrics.Set, log *slog.Logger, slot *storeSlot) wire.Config {
	return wire.Config{
		Records: wire.Records{URL: set.recordsURL, Key: set.recordsKey, Options: []apiclient.Option{
			apiclient.WithTransport(m.RecordsTransport(apiclient.DefaultTransport())),
			apiclient.WithUserAgent("recordsbot/" + version),
			apiclient.WithFieldMap(set.fieldMap),
		}},
		Slack: wire.Slack{Token: set.botToken, AppToken: set.appToken, APIURL: set.slackAPIURL,
			HTTPClient: &http.Client{Timeout: 15 * time.Second, Transport: slackapi.WarningTransport(m.SlackTransport(nil), log)}},
		Actions: actions.Config{
			Admins: set.admins, UserMap: actions.NewUserMap(set.userMap), CacheTTL: set.cacheTTL, Zone: set.zone,
			Visibility: set.visibility, Trail: slot, PublicURL: set.publicURL, Language: set.orgLanguage,
		},
		// The public pages as PUBLIC_URL and PUBLIC_MINUTES say; the
		// archive's cursors are signed with a key every replica derives
		// alike.
		Minutes: minutes.Config{
			PublicURL: set.publicURL, Public: set.publicMinutes,
			CursorKey: minutes.CursorKey(set.recordsKey),
			// No answer from before the watcher's last poll is served
			// again (minutes.RecheckState).
			Polls: slot,
			// The versions of minutes, kept where they are read.
			History: slot,
			Log:     log,
		},
		Calendar:       calendar.Config{Schedule: set.publicCal, PublicURL: set.publicURL, OrgName: set.orgName, Language: set.orgLanguage, Versions: slot},
		CalendarKey:    calendarKey(set),
		CalendarTokens: slot,
	}
}

// calendarKey makes and checks the private calendar tokens: derived from
// the Slack signing secret (the bot token in Socket Mode, which has none),
// so every replica derives the same; nil (no private feeds) with neither.
func calendarKey(set *settings) []byte {
	secret := cmp.Or(set.signingSecret, set.botToken)
	if secret == "" {
		return nil
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("recordsbot calendar tokens v1"))
	return m.Sum(nil)
}

// newLogger builds the process's logger from LOG_FORMAT and LOG_LEVEL;
// every line of a request carries its request_id, and durations read as
// durations ("1.5s"), not as JSON's nanoseconds.
func newLogger(set *settings, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: set.logLevel, ReplaceAttr: readableDurations}
	if set.logJSON {
		return slog.New(requestid.LogHandler(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(requestid.LogHandler(slog.NewTextHandler(w, opts)))
}

// readableDurations is a slog ReplaceAttr writing a time.Duration as its
// String ("250ms"): slog's JSON handler writes it as an integer of
// nanoseconds, which no one reading a log can take in at a glance.
func readableDurations(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}
