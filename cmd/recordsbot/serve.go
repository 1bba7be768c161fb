package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot"
)

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

func newLogger(cfg Config, w io.Writer) *slog.Logger {
	level, _ := parseLevel(cfg.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(bot.RequestIDHandler(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(bot.RequestIDHandler(slog.NewTextHandler(w, opts)))
}

// clients builds the records and Slack clients, instrumented.
func clients(cfg Config, m *bot.Metrics) (*apiclient.Client, *slack.Client, error) {
	records, err := apiclient.NewClient(cfg.RecordsAPIURL, cfg.RecordsAPIKey,
		apiclient.WithTransport(m.RecordsTransport(apiclient.DefaultTransport())),
		apiclient.WithUserAgent("recordsbot/"+version))
	if err != nil {
		return nil, nil, &configError{"RECORDS_API_URL: " + err.Error()}
	}
	api := slack.New(cfg.SlackBotToken,
		slack.OptionAPIURL(cfg.SlackAPIURL),
		slack.OptionAppLevelToken(cfg.SlackAppToken),
		slack.OptionHTTPClient(&http.Client{Timeout: 15 * time.Second, Transport: m.SlackTransport(nil)}))
	return records, api, nil
}

func botConfig(cfg Config) bot.Config {
	userMap, _ := parseUserMap(cfg.UserMap) // validated by check
	ttl := cfg.ActionsCacheTTL
	if ttl <= 0 {
		ttl = -1 // off
	}
	var admins []string
	for _, a := range cfg.AdminUserIDs {
		if a = strings.TrimSpace(a); a != "" {
			admins = append(admins, a)
		}
	}
	return bot.Config{
		SigningSecret:   cfg.SlackSigningSecret,
		Admins:          admins,
		UserMap:         userMap,
		PublicURL:       cfg.PublicURL,
		PublicMinutes:   cfg.PublicMinutes,
		ActionsCacheTTL: ttl,
	}
}

// serve runs the HTTP server (and Socket Mode when SLACK_APP_TOKEN is set)
// until ctx ends, then shuts down gracefully: stop accepting, let in-flight
// requests and promised follow-ups finish within SHUTDOWN_GRACE.
func serve(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	log := newLogger(cfg, stderr)
	metrics := bot.NewMetrics()
	records, api, err := clients(cfg, metrics)
	if err != nil {
		return err
	}
	ready := bot.NewReadiness(records, api, log)
	srv := bot.NewServer(botConfig(cfg), bot.Deps{
		Logger: log, Records: records, Slack: api, Metrics: metrics, Ready: ready.Err,
	})

	ln, err := net.Listen("tcp", ":"+strconv.Itoa(cfg.Port))
	if err != nil {
		return fmt.Errorf("listen on port %d: %w", cfg.Port, err)
	}
	httpSrv := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 2)
	go func() { errc <- httpSrv.Serve(ln) }()
	go ready.Run(ctx)
	mode := "http"
	if cfg.SlackAppToken != "" {
		mode = "socket"
		go func() { errc <- srv.RunSocketMode(ctx, api) }()
	}
	log.Info("recordsbot serving", "version", version, "addr", ln.Addr().String(), "slack", mode, "records", cfg.RecordsAPIURL)

	select {
	case <-ctx.Done():
	case err := <-errc:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	log.Info("shutting down", "grace", cfg.ShutdownGrace)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownGrace)
	defer cancel()
	if err := httpSrv.Shutdown(sctx); err != nil {
		log.Warn("http shutdown", "error", err)
	}
	if err := srv.Wait(sctx); err != nil {
		log.Warn("shutdown", "error", err)
	}
	return nil
}
