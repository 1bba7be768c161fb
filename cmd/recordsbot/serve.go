package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/health"
	"github.com/recordsbot/recordsbot/internal/onewrite"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// botConfig is the bot's part of the settings. The action domain's part
// (admins, USER_MAP, zone, cache) is in the app's one actions.Service.
func botConfig(set *settings) bot.Config {
	return bot.Config{
		// Empty in Socket Mode, which makes POST /slack/events refuse
		// everything: with no secret there is nothing to verify against.
		SigningSecret:    set.signingSecret,
		Language:         set.orgLanguage,
		WorkObjects:      set.workObjects,
		Follows:          set.follows,
		Notify:           set.notify,
		Public:           bot.PublicLimits{TrustedProxies: set.trustedProxies},
		OrgName:          set.orgName,
		PublicImageHosts: set.publicImageHosts,
		A11yContact:      set.a11yContact,
	}
}

// storeOpenTimeout bounds opening the store at start-up: an unreachable
// PostgreSQL stops start-up with one line rather than hanging it.
const storeOpenTimeout = 30 * time.Second

// openStore opens DATABASE_URL and applies its migrations, within
// storeOpenTimeout. Its errors name the variable.
func openStore(ctx context.Context, a *app) (*store.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
	defer cancel()
	st, err := store.Open(ctx, a.set.databaseURL, store.WithLogger(a.log),
		store.WithAuditRetention(a.set.auditRetention), store.WithAuditKey(a.set.auditKey),
		store.WithAuditVerified(auditVerified(a)))
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return st, nil
}

// serve runs the bot on PORT, and its metrics on METRICS_ADDR unless that
// is off, until ctx ends; see serveOn.
func serve(ctx context.Context, a *app) error {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(a.set.port))
	if err != nil {
		return fmt.Errorf("listen on port %d: %w", a.set.port, err)
	}
	var metricsLn net.Listener
	if a.set.metricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", a.set.metricsAddr); err != nil {
			ln.Close()
			return fmt.Errorf("METRICS_ADDR: listen on %s: %w", a.set.metricsAddr, err)
		}
	}
	return serveOn(ctx, a, ln, metricsLn)
}

// metricsServer serves GET /metrics alone, for Prometheus, on the
// METRICS_ADDR listener: never on PORT, whose routes are public (Slack,
// the minutes pages), because the metrics tell anyone who reads them the
// bot's traffic, failures and versions. Anything else there is a 404.
func metricsServer(a *app) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics.Handler())
	return httpServer(a, mux)
}

// httpServer serves h with the timeouts every listener of the bot has,
// its errors logged as warnings.
func httpServer(a *app, h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ConnContext:       onewrite.ConnContext,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
}

// serveOn runs the HTTP server on ln — and, when SLACK_APP_TOKEN is set,
// Socket Mode beside it — until ctx ends or a transport fails, then shuts
// down gracefully within SHUTDOWN_GRACE: both transports stop taking new
// requests and finish the ones in flight (HTTP answers, Socket Mode acks),
// then the follow-ups already promised through response_url are sent.
//
// In Socket Mode the HTTP server still serves /healthz, /readyz and the
// minutes pages; only Slack's traffic moves to the socket. metricsLn, when
// not nil, serves /metrics (metricsServer) until the end. serveOn returns
// the transport's error when one failed (a refused app token wraps
// bot.ErrSocketAuth), and nil after a shutdown asked for by ctx. It closes
// ln and metricsLn.
func serveOn(ctx context.Context, a *app, ln, metricsLn net.Listener) error {
	// The store may not be up yet (PostgreSQL after a node restart): serve
	// anyway, answering what needs no store, and open it in the
	// background; the watcher and the search backfill start once it is.
	slot := a.store
	defer slot.close()
	storeOutage := health.NewOutage(a.log, "store", 0)
	jobs := newStoreJobs(ctx, a)
	defer jobs.stop()
	// Until the servers own them, the listeners are closed on the way out
	// of a failed start, so a caller (a test, the demo) gets its ports back.
	closeListeners := func() {
		ln.Close()
		if metricsLn != nil {
			metricsLn.Close()
		}
	}
	storeOpen, err := jobs.open(ctx, slot, storeOutage)
	if err != nil {
		closeListeners()
		return err
	}
	checker := dependencyChecker(a, slot, storeOutage)
	var stopping atomic.Bool
	srv, err := newBotServer(ctx, a, slot, storeOutage, &stopping)
	if err != nil {
		closeListeners()
		return err
	}
	httpSrv := httpServer(a, srv)

	// runCtx ends both the readiness checks and Socket Mode, whether ctx
	// ended or a transport failed.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	run := running{store: storeOpen, http: make(chan error, 1)}
	go func() { run.http <- httpSrv.Serve(onewrite.Listen(ln)) }()
	metricsAddr := "off"
	if metricsLn != nil {
		metricsAddr = metricsLn.Addr().String()
		msrv := serveMetrics(a, metricsLn)
		// The metrics listener outlives the shutdown of the public one,
		// so a last scrape still sees it drain; it is closed last.
		defer msrv.Close()
	}
	readyDone := make(chan struct{})
	go func() { defer close(readyDone); checker.Run(runCtx) }()
	defer func() { <-readyDone }()
	mode := "http"
	if a.set.appToken != "" {
		mode = "socket"
		run.socket = make(chan error, 1)
		go func() { run.socket <- srv.RunSocketMode(runCtx, a.Slack) }()
	}
	logServing(a, ln.Addr().String(), metricsAddr, mode)

	failed := run.wait(ctx)
	if failed != nil {
		a.log.Error("stopping", "error", failed)
	}
	stopping.Store(true)
	shutdown(ctx, a, httpSrv, srv, stop, run.socket)
	return failed
}

// logServing says the bot is serving on addr (metrics on metricsAddr,
// Slack's traffic by mode, http or socket), and warns when the Go it was
// built with lacks security fixes.
func logServing(a *app, addr, metricsAddr, mode string) {
	if note := toolchainFixesPending(runtime.Version()); note != "" {
		a.log.Warn("recordsbot "+note, "go", runtime.Version(), "patched", patchedGo)
	}
	a.log.Info("recordsbot serving", "version", version, "addr", addr, "metrics_addr", metricsAddr, "slack", mode, "records", redactedURL(a.set.recordsURL))
}

// storeJobs are the jobs that need the store (the watcher, the search
// backfill), started once it is open, and the opening of the store in
// the background.
type storeJobs struct {
	a *app
	// ctx ends the jobs and the opening in the background.
	ctx        context.Context
	cancel     context.CancelFunc
	background sync.WaitGroup
	mu         sync.Mutex // guards stops
	stops      []func()
}

// newStoreJobs returns the store's jobs of a, none started; ctx ends
// them.
func newStoreJobs(ctx context.Context, a *app) *storeJobs {
	jobsCtx, cancel := context.WithCancel(ctx)
	return &storeJobs{a: a, ctx: jobsCtx, cancel: cancel}
}

// open opens the store into slot, at once when it can, else (while it is
// unavailable) in the background, and starts the jobs once it is open.
// The channel reports the opening's end: nil once the store is open, or
// an error no retry can mend. The error is the first opening's when the
// store is not merely unavailable.
func (j *storeJobs) open(ctx context.Context, slot *storeSlot, outage *health.Outage) (<-chan error, error) {
	openErr := make(chan error, 1)
	switch err := openStoreFirst(ctx, j.a, slot, outage, j.opened); {
	case err == nil:
		openErr <- nil
	case store.IsUnavailable(err):
		j.background.Go(func() { openErr <- openStoreInBackground(j.ctx, j.a, slot, outage, j.opened) })
	default:
		return nil, err
	}
	return openErr, nil
}

// opened starts the jobs on st, just opened.
func (j *storeJobs) opened(st *store.Store) {
	j.mu.Lock()
	defer j.mu.Unlock()
	// The background watcher (WATCH_INTERVAL) shares the commands'
	// action list, so a poll and a burst of /actions cost one fetch.
	j.stops = append(j.stops, startWatching(j.ctx, j.a, st), startBackfill(j.ctx, j.a, st))
}

// stop ends the opening in the background, waits for it, and stops the
// jobs started.
func (j *storeJobs) stop() {
	j.cancel()
	j.background.Wait()
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, stop := range j.stops {
		stop()
	}
}

// dependencyChecker checks the records service, Slack and the store
// (slot, whose failures outage also hears of) in the background, for the
// gauge recordsbot_dependency_up and the logs; they are not readiness.
func dependencyChecker(a *app, slot *storeSlot, outage *health.Outage) *health.Checker {
	deps := health.NewChecker(a.log, a.metrics.DependencyUp, 0, map[string]health.Probe{
		"records": health.Records(a.Records), "slack": health.Slack(a.Slack), "store": slot.Ping,
	})
	deps.SetOutage("store", outage)
	if a.checkInterval > 0 {
		deps.Interval, deps.RetryInterval = a.checkInterval, a.checkInterval
	}
	return deps
}

// newBotServer builds the bot of a on the store in slot, whose failures
// outage hears of; it is not ready once stopping is set. Its error is
// REMIND_HOLIDAYS's.
func newBotServer(ctx context.Context, a *app, slot *storeSlot, outage *health.Outage, stopping *atomic.Bool) (*bot.Server, error) {
	cfg := botConfig(a.set)
	// REMIND_HOLIDAYS, read (a URL fetched) now, at start: a snooze to
	// the next working day skips them.
	var cache workdays.Cache
	if st, err := slot.get(); err == nil {
		cache = st // the last good copy of a calendar URL; none while the store is not open yet
	}
	holidays, err := loadHolidays(ctx, a.set, workdays.Loader{Cache: cache, Background: true}, a.log)
	if err != nil {
		return nil, err
	}
	cfg.Workdays = holidays
	return a.Bot(cfg, bot.Deps{
		Logger: a.log, Metrics: a.metrics,
		Store: slot, StoreOutage: outage,
		Ready: func() error {
			if stopping.Load() {
				return errShuttingDown
			}
			return nil
		},
		Baseline: func(ctx context.Context, f store.Follow) error {
			st, err := slot.get()
			if err != nil {
				return err
			}
			return watch.Baseline(ctx, watchConfig(a.set), watch.Deps{Store: st, Minutes: a.Minutes, Logger: a.log}, f)
		},
		// response_url posts are Slack calls too, and counted as such.
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: a.metrics.SlackTransport(nil)},
	}), nil
}

// serveMetrics serves /metrics on ln (metricsServer) until the server it
// returns is closed.
func serveMetrics(a *app, ln net.Listener) *http.Server {
	msrv := metricsServer(a)
	go func() {
		if err := msrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Warn("metrics listener stopped", "addr", ln.Addr().String(), "error", err)
		}
	}()
	return msrv
}

// running is what serveOn runs, each reporting its end on a channel: the
// opening of the store, the HTTP server and, in Socket Mode, the socket
// (nil when not). A channel is set to nil once its end is read.
type running struct {
	store        <-chan error
	http, socket chan error
}

// wait returns once ctx ends (nil) or one of r fails (its error).
func (r *running) wait(ctx context.Context) error {
	var failed error
	for failed == nil && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case err := <-r.store:
			// nil once the store is open; else one no retry can mend
			// (a schema newer than this binary).
			r.store, failed = nil, err
		case err := <-r.http:
			r.http = nil
			failed = fmt.Errorf("http server: %w", err)
		case err := <-r.socket:
			r.socket = nil
			if err == nil {
				err = errors.New("socket mode: stopped")
			}
			failed = err
		}
	}
	return failed
}

// shutdown stops serving within SHUTDOWN_GRACE: httpSrv and Socket Mode
// (which stopSocket ends; socketErr, nil when it is not running, reports
// its end) finish the requests in flight, then srv sends the follow-ups
// already promised.
func shutdown(ctx context.Context, a *app, httpSrv *http.Server, srv *bot.Server, stopSocket func(), socketErr <-chan error) {
	log := a.log
	log.Info("shutting down", "grace", a.set.shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.set.shutdownGrace)
	defer cancel()
	stopSocket() // Socket Mode starts its drain beside the HTTP shutdown
	if err := httpSrv.Shutdown(sctx); err != nil {
		log.Warn("http shutdown: requests still in flight", "error", err)
	}
	if socketErr != nil {
		select {
		case err := <-socketErr:
			if err != nil {
				log.Warn("socket mode shutdown", "error", err)
			}
		case <-sctx.Done():
			log.Warn("socket mode shutdown: envelopes still in flight")
		}
	}
	if err := srv.Wait(sctx); err != nil {
		log.Warn("shutdown: follow-ups not sent", "error", err)
	}
	log.Info("stopped")
}

// redactedURL is u without any credentials in it, for logs.
func redactedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable)"
	}
	return p.Redacted()
}
