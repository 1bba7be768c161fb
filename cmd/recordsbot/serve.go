package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// newLogger builds the process's logger from LOG_FORMAT and LOG_LEVEL
// (validated by check); every line of a request carries its request_id.
func newLogger(cfg Config, w io.Writer) *slog.Logger {
	level, _ := parseLevel(cfg.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(bot.RequestIDHandler(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(bot.RequestIDHandler(slog.NewTextHandler(w, opts)))
}

// clients builds the records and Slack clients, instrumented.
func clients(cfg Config, m *bot.Metrics, log *slog.Logger) (*apiclient.Client, *slack.Client, error) {
	fieldMap, _ := apiclient.ParseFieldMap(cfg.RecordsFieldMap) // validated by check
	records, err := apiclient.NewClient(cfg.RecordsAPIURL, cfg.RecordsAPIKey,
		apiclient.WithTransport(m.RecordsTransport(apiclient.DefaultTransport())),
		apiclient.WithUserAgent("recordsbot/"+version),
		apiclient.WithFieldMap(fieldMap))
	if err != nil {
		return nil, nil, &configError{"RECORDS_API_URL: " + err.Error()}
	}
	api := slack.New(cfg.SlackBotToken,
		slack.OptionAPIURL(cfg.SlackAPIURL),
		slack.OptionAppLevelToken(cfg.SlackAppToken),
		slack.OptionHTTPClient(&http.Client{Timeout: 15 * time.Second, Transport: slackapi.WarningTransport(m.SlackTransport(nil), log)}))
	return records, api, nil
}

func botConfig(cfg Config) bot.Config {
	userMap, _ := parseUserMap(cfg.UserMap) // validated by check
	ttl := cfg.ActionsCacheTTL
	if ttl <= 0 {
		ttl = -1 // off
	}
	zone, _ := cfg.zone()                                     // validated by check
	proxies, _ := bot.ParseTrustedProxies(cfg.TrustedProxies) // validated by check
	var admins []string
	for _, a := range cfg.AdminUserIDs {
		if a = strings.TrimSpace(a); a != "" {
			admins = append(admins, a)
		}
	}
	return bot.Config{
		// Empty in Socket Mode, which makes POST /slack/events refuse
		// everything: with no secret there is nothing to verify against.
		SigningSecret:   cfg.SlackSigningSecret,
		Admins:          admins,
		UserMap:         userMap,
		ActionsCacheTTL: ttl,
		Zone:            zone,

		FollowAdminsOnly:  cfg.FollowAdminsOnly,
		FollowDefaults:    cfg.followDefaults(),
		Notify:            cfg.notifyDefaults(),
		ActionsVisibility: cfg.visibility(),
		Public:            bot.PublicLimits{TrustedProxies: proxies},
	}
}

// minutesService is the minutes domain over records, with the public
// pages as PUBLIC_URL and PUBLIC_MINUTES say; serve shares one between
// the bot and its watcher.
func minutesService(cfg Config, records minutes.Records) *minutes.Service {
	return minutes.New(records, minutes.Config{PublicURL: cfg.PublicURL, Public: cfg.PublicMinutes})
}

// storeOpenTimeout bounds opening the store at start-up: an unreachable
// PostgreSQL stops start-up with one line rather than hanging it.
const storeOpenTimeout = 30 * time.Second

// openStore opens DATABASE_URL and applies its migrations, within
// storeOpenTimeout. Its errors name the variable.
func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
	defer cancel()
	st, err := store.Open(ctx, cfg.databaseURL(), store.WithLogger(log))
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return st, nil
}

// serve runs the bot on PORT until ctx ends; see serveOn.
func serve(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(cfg.Port))
	if err != nil {
		return fmt.Errorf("listen on port %d: %w", cfg.Port, err)
	}
	return serveOn(ctx, cfg, ln, stderr)
}

// serveOn runs the HTTP server on ln — and, when SLACK_APP_TOKEN is set,
// Socket Mode beside it — until ctx ends or a transport fails, then shuts
// down gracefully within SHUTDOWN_GRACE: both transports stop taking new
// requests and finish the ones in flight (HTTP answers, Socket Mode acks),
// then the follow-ups already promised through response_url are sent.
//
// In Socket Mode the HTTP server still serves /healthz, /readyz, /metrics
// and the minutes pages; only Slack's traffic moves to the socket. serveOn
// returns the transport's error when one failed (a refused app token wraps
// bot.ErrSocketAuth), and nil after a shutdown asked for by ctx. It closes
// ln.
func serveOn(ctx context.Context, cfg Config, ln net.Listener, logOut io.Writer) error {
	log := newLogger(cfg, logOut)
	metrics := bot.NewMetrics()
	metrics.SetVersion(version)
	records, api, err := clients(cfg, metrics, log)
	if err != nil {
		ln.Close()
		return err
	}
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer st.Close()
	ready := bot.NewReadiness(records, api, log, metrics)
	// The background watcher (WATCH_INTERVAL) shares the commands' action
	// list, so a poll and a burst of /actions cost one fetch.
	var dom *actions.Service
	if cfg.WatchInterval > 0 {
		dom = watchActions(cfg, records, api)
	}
	ready.SetStore(st)
	mins := minutesService(cfg, records)
	stopWatching, err := startWatching(ctx, cfg, st, records, api, dom, mins, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopWatching()
	defer startBackfill(ctx, cfg, st, records, metrics, log)()
	srv := bot.NewServer(botConfig(cfg), bot.Deps{
		Logger: log, Records: records, Slack: api, Metrics: metrics, Ready: ready.Err, Actions: dom, Minutes: mins, Store: st,
		Baseline: func(ctx context.Context, f store.Follow) error {
			return watch.Baseline(ctx, watchConfig(cfg), watch.Deps{Store: st, Records: records, Logger: log}, f)
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
	readyDone := make(chan struct{})
	go func() { defer close(readyDone); ready.Run(runCtx) }()
	defer func() { <-readyDone }()
	mode := "http"
	var socketErr chan error
	if cfg.SlackAppToken != "" {
		mode = "socket"
		socketErr = make(chan error, 1)
		go func() { socketErr <- srv.RunSocketMode(runCtx, api) }()
	}
	log.Info("recordsbot serving", "version", version, "addr", ln.Addr().String(), "slack", mode, "records", redactedURL(cfg.RecordsAPIURL))

	var failed error
	select {
	case <-ctx.Done():
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
	if failed != nil {
		log.Error("stopping", "error", failed)
	}
	log.Info("shutting down", "grace", cfg.ShutdownGrace)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownGrace)
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
