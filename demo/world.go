package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
	"github.com/recordsbot/recordsbot/wire"
)

// demoChannel is the channel slash commands are typed in and minutes are
// shared to; slackfake.Sender uses the same default.
const (
	demoChannel     = "C0GENERAL"
	demoChannelName = "general"
)

// demoRemindDays is the reminder job's due-soon window in the demo: the
// default of REMIND_DAYS.
const demoRemindDays = 3

// demoNotify are the demo organisation's notification defaults: those of
// an installation with no REMIND_* or ASSIGN_DMS_DEFAULT set, except that
// reminders are due from midnight, so that `remind` reminds everyone at
// whatever hour the demo is tried. A person who picks a later time on the
// Home tab is skipped until then, as in a real workspace.
var demoNotify = store.Defaults{RemindAt: clocktime.Of(0, 0)}

// demoFollows are the demo's follow settings, the bot's and the
// watcher's as in serve: the defaults, so /minutes following says the
// usual digest time (the console's digest command posts one whatever the
// day).
var demoFollows = follows.Settings{}

// demoRules are demoFollows as the bot and the watcher apply them, for
// the console to say why a digest or a brief did not come.
var demoRules = follows.NewRules(demoFollows, lang.English)

// demoEnv is everything the demo runs, in one process: the records
// service, the stand-in for Slack, the bot's real HTTP server on a loopback
// port, and the sender that speaks for Slack to it.
type demoEnv struct {
	people  []recordsfake.Person
	records *recordsfake.Server
	slack   *slackfake.Server
	bot     *bot.Server
	// botURL is the bot's base URL, http://127.0.0.1:PORT; it is also its
	// PUBLIC_URL, so minutes links open its real pages.
	botURL string
	send   *slackfake.Sender
	// calendar is the calendar domain: the public meeting feeds are on
	// (PUBLIC_CALENDAR=true) and each person's private deadline feed.
	calendar *calendar.Service
	// remind runs the reminder job once, as `recordsbot remind` does, as
	// at now (zero: the wall clock): `remind tomorrow` walks the days of
	// a week with snoozes and time away.
	remind func(ctx context.Context, now time.Time) (remind.Summary, error)
	// holidays are the demo organisation's closed days
	// (REMIND_HOLIDAYS), shared by the bot (the next working day of a
	// snooze) and the reminders; `holiday DATE` adds one.
	holidays workdays.Calendar
	// actions is the bot's action domain: `lang` drops the speaker's
	// cached profile from it, so their new locale shows at once.
	actions *actions.Service
	// store is a fresh in-memory database: follows, settings and the
	// ledgers of the reminder job and the watcher, gone when the demo ends.
	store *store.Store
	// watch runs one poll of the watcher, as `recordsbot watch` does.
	watch func(ctx context.Context) (watch.Summary, error)
	// digest runs one poll whose digest slot is now, so every follow
	// without a schedule of its own gets this week's digest.
	digest func(ctx context.Context) (watch.Summary, error)
	// brief runs one poll whose BRIEF_LEAD is lead, so a meeting that
	// far ahead is due its pre-meeting brief now.
	brief func(ctx context.Context, lead time.Duration) (watch.Summary, error)

	// events counts the Events API callbacks sent, for their IDs.
	events atomic.Int64

	httpSrv   *http.Server
	serveErr  chan error
	transport *http.Transport
}

// startDemo starts the demo's services; version names the bot in its
// User-Agent, records are further options of the records stand-in (a
// test's journal of its requests). The caller must call close.
func startDemo(ctx context.Context, log *slog.Logger, version string, records ...recordsfake.Option) (*demoEnv, error) {
	env, ln, err := startStandIns(ctx, log, records)
	if err != nil {
		return nil, err
	}
	// A fresh secret per run: nothing outside this process signs for it.
	secret := rand.Text()
	svc, err := env.wireServices(version, secret)
	if err != nil {
		return nil, errors.Join(err, ln.Close(), env.closeStandIns())
	}
	env.calendar, env.actions = svc.Calendar, svc.Actions
	// No REMIND_HOLIDAYS: a calendar with none yet, which `holiday`
	// adds to (its copies, the bot's and the job's, share its days).
	if env.holidays, err = workdays.Load(ctx, "", nil); err != nil {
		return nil, errors.Join(fmt.Errorf("the demo's holidays: %w", err), ln.Close(), env.closeStandIns())
	}
	env.addJobs(svc, log)
	env.startBot(svc, log, secret, ln)
	if err := env.catchUp(ctx, svc, log); err != nil {
		return nil, errors.Join(err, env.close())
	}
	return env, nil
}

// startStandIns opens the demo's store and starts the stand-ins for the
// records service (with today's dataset) and Slack, and the listener the
// bot will serve on.
func startStandIns(ctx context.Context, log *slog.Logger, records []recordsfake.Option) (*demoEnv, net.Listener, error) {
	data := Dataset(time.Now())
	env := &demoEnv{people: data.People}
	st, err := store.Open(ctx, "sqlite::memory:", store.WithLogger(log))
	if err != nil {
		return nil, nil, fmt.Errorf("open the demo's in-memory store: %w", err)
	}
	env.store = st
	// Both stand-ins panic, like httptest, if they cannot listen on
	// loopback; nothing else could work then either.
	env.records = recordsfake.NewServer(append([]recordsfake.Option{recordsfake.WithDataset(data)}, records...)...)
	env.slack = slackfake.NewServer(slackfake.WithUsers(sampleorg.SlackUsers(data.People)...))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("listen on loopback: %w", err), env.closeStandIns())
	}
	env.botURL = "http://" + ln.Addr().String()
	// One transport for every client, all of them on loopback, so that
	// close can drop its idle connections and leave no goroutine behind.
	env.transport = http.DefaultTransport.(*http.Transport).Clone()
	return env, ln, nil
}

// closeStandIns stops the stand-ins and closes the store.
func (e *demoEnv) closeStandIns() error {
	e.slack.Close()
	e.records.Close()
	if err := e.store.Close(); err != nil {
		return fmt.Errorf("close the demo's store: %w", err)
	}
	return nil
}

// wireServices builds the services as serve wires them (wire), from the
// demo's settings: the defaults (UTC, no admins, no USER_MAP), the public
// pages, calendar feeds and each action's own link on at the bot's own
// address (its PUBLIC_URL, so the rows show the links serve shows), status changes
// recorded in the audit trail before they are made (`history <id>` shows
// it), the private calendar tokens in the store, keyed by this run's
// secret.
func (e *demoEnv) wireServices(version, secret string) (*wire.Services, error) {
	svc, err := wire.New(wire.Config{
		Records: wire.Records{URL: e.records.URL, Key: recordsfake.DefaultKey, Options: []apiclient.Option{
			apiclient.WithTransport(e.transport), apiclient.WithUserAgent("recordsbot/" + version + " (demo)"),
		}},
		Slack: wire.Slack{Token: slackfake.DefaultToken, APIURL: e.slack.APIURL(),
			HTTPClient: &http.Client{Timeout: 15 * time.Second, Transport: e.transport}},
		Actions:        actions.Config{Trail: e.store, PublicURL: e.botURL},
		Minutes:        minutes.Config{PublicURL: e.botURL, Public: true, History: e.store},
		Calendar:       calendar.Config{Schedule: publication.Every(), PublicURL: e.botURL, Versions: e.store},
		CalendarKey:    []byte(secret),
		CalendarTokens: e.store,
	})
	if err != nil {
		return nil, fmt.Errorf("wire the demo's services: %w", err)
	}
	return svc, nil
}

// demoWatch is the demo's watcher: the demo's notification defaults,
// its ledger entries owned by "demo".
func demoWatch() watch.Config {
	return watch.Config{
		Notify:  demoNotify,
		Follows: demoFollows,
		Owner:   "demo",
	}
}

// addJobs gives e the jobs the console runs by hand, each as its
// recordsbot subcommand runs it: the reminder job, and the watcher's
// polls (a plain one, one due its digest, one due its briefs).
func (e *demoEnv) addJobs(svc *wire.Services, log *slog.Logger) {
	e.remind = func(ctx context.Context, now time.Time) (remind.Summary, error) {
		// The demo reminds at once, whatever the hour in each person's zone.
		return remind.Run(ctx, remind.Config{Days: demoRemindDays, RemindAt: demoNotify.RemindAt, Now: now, Holidays: e.holidays},
			// A domain of its own per run, as each `recordsbot remind`
			// has (see poll below): an action assigned while someone
			// was away is in their catch-up even if the bot's cached
			// list is seconds old.
			remind.Deps{
				Actions: svc.FreshActions(), Slack: svc.Slack, Logger: log, Clock: noWaitClock{},
				Store: e.store, Settings: remind.StoreSettings(e.store, demoNotify),
			})
	}
	// The watcher's posts are paced as in production, on the clock that
	// never waits.
	pacer := slackapi.NewPacer(slackapi.PacerOptions{Clock: noWaitClock{}, Log: log})
	poll := func(ctx context.Context, cfg watch.Config) (watch.Summary, error) {
		// A domain of its own per poll, as each `recordsbot watch` run
		// has: the bot's list of actions may be seconds old (its cache),
		// and an action assigned since must not wait for it. Its settings
		// are the same.
		fresh := svc.FreshActions()
		return watch.Poll(ctx, cfg, watch.Deps{Store: e.store, Actions: fresh, Minutes: svc.Minutes, Calendar: e.calendar, Slack: svc.Slack, Pacer: pacer, Logger: log})
	}
	wcfg := demoWatch()
	e.watch = func(ctx context.Context) (watch.Summary, error) { return poll(ctx, wcfg) }
	e.digest = func(ctx context.Context) (watch.Summary, error) {
		// The poll runs a minute ahead with its slot on that minute (UTC),
		// so even a follow made just now is due, as on its first Monday.
		at := time.Now().UTC().Add(time.Minute)
		dcfg := wcfg
		dcfg.Now = func() time.Time { return at }
		dcfg.Follows.Digest = &clocktime.Weekly{On: true, Day: at.Weekday(), At: clocktime.Of(at.Hour(), at.Minute())}
		return poll(ctx, dcfg)
	}
	e.brief = func(ctx context.Context, lead time.Duration) (watch.Summary, error) {
		bcfg := wcfg
		bcfg.BriefLead = lead
		return poll(ctx, bcfg)
	}
}

// startBot builds the bot as serve does, secret its signing secret, and
// serves it on ln; e.send speaks for Slack to it.
func (e *demoEnv) startBot(svc *wire.Services, log *slog.Logger, secret string, ln net.Listener) {
	e.bot = svc.Bot(bot.Config{
		SigningSecret: secret,
		Notify:        demoNotify,
		Workdays:      e.holidays,
		Follows:       demoFollows,
	}, bot.Deps{
		Logger:     log,
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: e.transport},
		Store:      e.store,
		Baseline: func(ctx context.Context, f store.Follow) error {
			return watch.Baseline(ctx, demoWatch(), watch.Deps{Store: e.store, Minutes: svc.Minutes, Logger: log}, f)
		},
	})
	e.send = &slackfake.Sender{
		URL:    e.botURL + "/slack/events",
		Secret: secret,
		Slack:  e.slack,
		// Longer than the bot's ack budget, so a slow answer is still an
		// answer.
		HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: e.transport},
	}
	e.httpSrv = &http.Server{
		Handler:           e.bot,
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelError),
	}
	e.serveErr = make(chan error, 1)
	go func() { e.serveErr <- e.httpSrv.Serve(ln) }()
}

// catchUp brings the demo to where an installation is by the time
// anyone tries the bot: the watcher's baseline taken, the search index
// full.
func (e *demoEnv) catchUp(ctx context.Context, svc *wire.Services, log *slog.Logger) error {
	// A real watcher has been polling long before anyone tries the bot:
	// its first poll took the actions baseline, so the actions of the
	// story are not news, and only those assigned from now on are DMed.
	// With no follows yet it posts nothing.
	if _, err := e.watch(ctx); err != nil {
		return fmt.Errorf("the watcher's first poll: %w", err)
	}
	// And serve's search backfill has long since read the history, so
	// /minutes search finds every published minutes (at full speed here:
	// the records service is the demo's own).
	backfill := &minutes.Backfill{Rate: 1000, Records: svc.Records, Index: e.store, History: e.store, State: e.store, Owner: "demo", Logger: log,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	if _, err := backfill.Pass(ctx); err != nil {
		return fmt.Errorf("the search backfill: %w", err)
	}
	return nil
}

// close stops the bot's server, lets its follow-ups finish, and stops the
// stand-ins.
func (e *demoEnv) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	if err := e.httpSrv.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("stop the bot's server: %w", err))
	}
	if err := <-e.serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("bot server: %w", err))
	}
	if err := e.bot.Wait(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := e.closeStandIns(); err != nil {
		errs = append(errs, err)
	}
	e.transport.CloseIdleConnections()
	return errors.Join(errs...)
}

// handle is a demo person's Slack handle: their first name in lower case.
func handle(p recordsfake.Person) string { return sampleorg.Handle(p) }

// noWaitClock is a clock that never waits: the demo's Slack is in the same
// process and has no rate limits to pace against.
type noWaitClock struct{}

func (noWaitClock) Now() time.Time { return time.Now() }

func (noWaitClock) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
