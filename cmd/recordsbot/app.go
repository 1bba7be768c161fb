package main

import (
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
)

// app is every piece serve, remind and watch share, each built once, by
// run, from the settings: one logger, one records client, one Slack
// client, one action domain (so a background watch and a burst of
// /actions share one action list) and one minutes domain.
type app struct {
	set     *settings
	log     *slog.Logger
	metrics *metrics.Set // nil for a one-shot job: nobody scrapes it
	records *apiclient.Client
	slack   *slack.Client
	actions *actions.Service
	minutes *minutes.Service
	// calendar is the calendar domain: serve's feeds, and the briefs' and
	// /meetings' "Add to calendar" links (newCalendar).
	calendar *calendar.Service
	// store is the store once it is open (serve opens it, perhaps in the
	// background): the action domain writes its audit trail there, and
	// refuses status changes while it is not open.
	store *storeSlot
	// checkInterval, when set, is how often serve checks its
	// dependencies (tests); 0 means health.Checker's defaults.
	checkInterval time.Duration
}

// newApp builds the shared pieces. withMetrics instruments the clients
// (serve); logs go to logOut.
func newApp(set *settings, withMetrics bool, logOut io.Writer) (*app, error) {
	a := &app{set: set, log: newLogger(set, logOut), store: &storeSlot{}}
	if withMetrics {
		a.metrics = metrics.New()
		a.metrics.SetVersion(version)
	}
	records, err := apiclient.NewClient(set.recordsURL, set.recordsKey,
		apiclient.WithTransport(a.metrics.RecordsTransport(apiclient.DefaultTransport())),
		apiclient.WithUserAgent("recordsbot/"+version),
		apiclient.WithFieldMap(set.fieldMap))
	if err != nil {
		return nil, &configError{name: "RECORDS_API_URL", msg: "RECORDS_API_URL: " + err.Error()}
	}
	a.records = records
	a.slack = slack.New(set.botToken,
		slack.OptionAPIURL(set.slackAPIURL),
		slack.OptionAppLevelToken(set.appToken),
		slack.OptionHTTPClient(&http.Client{Timeout: 15 * time.Second, Transport: slackapi.WarningTransport(a.metrics.SlackTransport(nil), a.log)}))
	a.actions = actions.New(records, a.slack, actions.Config{
		Admins: set.admins, UserMap: actions.NewUserMap(set.userMap), CacheTTL: set.cacheTTL, Zone: set.zone,
		Visibility: set.visibility, Trail: a.store,
	})
	// The public pages as PUBLIC_URL and PUBLIC_MINUTES say; the archive's
	// cursors are signed with a key every replica derives alike.
	a.minutes = minutes.New(records, minutes.Config{
		PublicURL: set.publicURL, Public: set.publicMinutes,
		CursorKey: minutes.CursorKey(set.recordsKey),
	})
	a.calendar = newCalendar(a, a.store)
	return a, nil
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
