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
		FollowAdminsOnly: set.followAdminsOnly,
		FollowDefaults:   set.followDefaults,
		DigestDefault:    &set.digest,
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
		store.WithAuditRetention(a.set.auditRetention), store.WithAuditVerified(a.metrics.AuditVerified))
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
	return &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
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
	log, metrics, records, api, set := a.log, a.metrics, a.Records, a.Slack, a.set
	// The store may not be up yet (PostgreSQL after a node restart): serve
	// anyway, answering what needs no store, and open it in the
	// background; the watcher and the search backfill start once it is.
	slot := a.store
	defer slot.close()
	storeOutage := health.NewOutage(log, "store", 0)
	bgCtx, stopBackground := context.WithCancel(ctx)
	var background sync.WaitGroup
	var stopJobs []func()
	var jobsMu sync.Mutex
	defer func() {
		stopBackground()
		background.Wait()
		jobsMu.Lock()
		defer jobsMu.Unlock()
		for _, stop := range stopJobs {
			stop()
		}
	}()
	opened := func(st *store.Store) {
		jobsMu.Lock()
		defer jobsMu.Unlock()
		// The background watcher (WATCH_INTERVAL) shares the commands'
		// action list, so a poll and a burst of /actions cost one fetch.
		stopJobs = append(stopJobs, startWatching(bgCtx, a, st), startBackfill(bgCtx, a, st))
	}
	openErr := make(chan error, 1)
	switch err := openStoreFirst(ctx, a, slot, storeOutage, opened); {
	case err == nil:
		openErr <- nil
	case store.IsUnavailable(err):
		background.Go(func() { openErr <- openStoreInBackground(bgCtx, a, slot, storeOutage, opened) })
	default:
		ln.Close()
		if metricsLn != nil {
			metricsLn.Close()
		}
		return err
	}
	// Dependencies are checked in the background for the gauge
	// recordsbot_dependency_up and the logs; they are not readiness.
	deps := health.NewChecker(log, metrics.DependencyUp, 0, map[string]health.Probe{
		"records": health.Records(records), "slack": health.Slack(api), "store": slot.Ping,
	})
	deps.SetOutage("store", storeOutage)
	if a.checkInterval > 0 {
		deps.Interval, deps.RetryInterval = a.checkInterval, a.checkInterval
	}
	var stopping atomic.Bool
	cfg := botConfig(set)
	// REMIND_HOLIDAYS, read (a URL fetched) now, at start: a snooze to
	// the next working day skips them.
	workdays, err := loadHolidays(ctx, set)
	if err != nil {
		return err
	}
	cfg.Workdays = workdays
	srv := a.Bot(cfg, bot.Deps{
		Logger: log, Metrics: metrics,
		Store: slot, StoreOutage: storeOutage,
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
			return watch.Baseline(ctx, watchConfig(set), watch.Deps{Store: st, Records: records, Logger: log}, f)
		},
		// response_url posts are Slack calls too, and counted as such.
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: metrics.SlackTransport(nil)},
	})
	httpSrv := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}

	// runCtx ends both the readiness checks and Socket Mode, whether ctx
	// ended or a transport failed.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	httpErr := make(chan error, 1)
	go func() { httpErr <- httpSrv.Serve(ln) }()
	metricsAddr := "off"
	if metricsLn != nil {
		metricsAddr = metricsLn.Addr().String()
		msrv := metricsServer(a)
		// The metrics listener outlives the shutdown of the public one,
		// so a last scrape still sees it drain; it is closed last.
		defer msrv.Close()
		go func() {
			if err := msrv.Serve(metricsLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Warn("metrics listener stopped", "addr", metricsAddr, "error", err)
			}
		}()
	}
	readyDone := make(chan struct{})
	go func() { defer close(readyDone); deps.Run(runCtx) }()
	defer func() { <-readyDone }()
	mode := "http"
	var socketErr chan error
	if set.appToken != "" {
		mode = "socket"
		socketErr = make(chan error, 1)
		go func() { socketErr <- srv.RunSocketMode(runCtx, api) }()
	}
	if note := toolchainFixesPending(runtime.Version()); note != "" {
		log.Warn("recordsbot "+note, "go", runtime.Version(), "patched", patchedGo)
	}
	log.Info("recordsbot serving", "version", version, "addr", ln.Addr().String(), "metrics_addr", metricsAddr, "slack", mode, "records", redactedURL(set.recordsURL))

	var failed error
	for failed == nil && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case err := <-openErr:
			// nil once the store is open; else one no retry can mend
			// (a schema newer than this binary).
			openErr, failed = nil, err
		case err := <-httpErr:
			httpErr = nil
			failed = fmt.Errorf("http server: %w", err)
		case err := <-socketErr:
			socketErr = nil
			if err == nil {
				err = errors.New("socket mode: stopped")
			}
			failed = err
		}
	}
	if failed != nil {
		log.Error("stopping", "error", failed)
	}
	stopping.Store(true)
	log.Info("shutting down", "grace", set.shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), set.shutdownGrace)
	defer cancel()
	stop() // Socket Mode starts its drain beside the HTTP shutdown
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
	return failed
}

// redactedURL is u without any credentials in it, for logs.
func redactedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable)"
	}
	return p.Redacted()
}
