package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// watchOnce is `recordsbot watch`: one poll, for a CronJob every few
// minutes. It prints the summary line to stdout; logs go to stderr. It
// returns an error (exit 1) when the store or the records service could
// not be read or some posts failed (the next run retries them), and nil
// when another poll was running.
func watchOnce(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: recordsbot watch

Polls the records service once: announces newly visible minutes in the
channels that follow their committee (/minutes follow), and DMs people about
actions newly assigned to them (unless they turned that off). Each
announcement and DM goes out exactly once, however many polls run. Run it
every few minutes from a scheduler, or set WATCH_INTERVAL on serve instead.
`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("watch: %w", errUsage)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("watch: unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	log, records, api, st, err := openJob(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := watch.Poll(ctx, watchConfig(cfg), watch.Deps{
		Store: st, Records: records, Actions: watchActions(cfg, records, api), Minutes: minutesService(cfg, records),
		Slack: api, Logger: log,
	})
	fmt.Fprintln(stdout, sum)
	return err
}

// watchConfig is the watcher's part of the configuration (validated by
// check).
func watchConfig(cfg Config) watch.Config {
	userMap, _ := parseUserMap(cfg.UserMap)
	zone, _ := cfg.zone()
	return watch.Config{
		Notify:    cfg.notifyDefaults(),
		UserMap:   actions.NewUserMap(userMap),
		Zone:      zone,
		Retention: cfg.retention(),
		// What a follow hears until its channel chooses.
		FollowDefaults: cfg.followDefaults(),
	}
}

// watchActions is the action domain a one-shot poll reads the active
// actions through.
func watchActions(cfg Config, records *apiclient.Client, api *slack.Client) *actions.Service {
	bc := botConfig(cfg)
	zone, _ := cfg.zone()
	return actions.New(records, api, actions.Config{
		Admins: bc.Admins, UserMap: actions.NewUserMap(bc.UserMap), CacheTTL: bc.ActionsCacheTTL, Zone: zone,
		Visibility: bc.ActionsVisibility,
	})
}

// minWatchInterval keeps a mistyped WATCH_INTERVAL ("5" read as 5ns is
// refused by envconfig, but "5s" is not) from hammering the records
// service.
const minWatchInterval = 30 * time.Second

// checkWatchInterval is check's rule for WATCH_INTERVAL.
func checkWatchInterval(d time.Duration) error {
	if d != 0 && d < minWatchInterval {
		return &configError{fmt.Sprintf("WATCH_INTERVAL must be 0 (off) or at least %s, got %s", minWatchInterval, d)}
	}
	return nil
}

// maxBackfillRate bounds SEARCH_BACKFILL_RATE: the backfill is meant to
// take a small share of the records service, never to load it.
const maxBackfillRate = 20.0

// startBackfill runs the search index's backfill (minutes.Backfill) in the
// background of serve at SEARCH_BACKFILL_RATE, until stop is called.
// Replicas share the work through the store: one backfills at a time.
func startBackfill(ctx context.Context, cfg Config, st *store.Store, records *apiclient.Client, metrics *bot.Metrics, log *slog.Logger) (stop func()) {
	if cfg.SearchBackfillRate <= 0 {
		return func() {}
	}
	b := &minutes.Backfill{Rate: cfg.SearchBackfillRate, Records: records, Index: st, State: st, Owner: watch.DefaultOwner(), Logger: log}
	metrics.SearchBackfill(func() (pages, read float64, doneAt time.Time) {
		c := b.Cursor()
		return float64(c.Pages), float64(c.Read), c.DoneAt
	})
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { _ = b.Run(ctx) })
	return func() {
		cancel()
		wg.Wait() // the store is serve's, closed after this
	}
}

// startWatching runs a poll every WATCH_INTERVAL in the background of
// serve, until stop is called (it waits for a poll under way to end). Each
// poll takes the store's lock, so with several replicas one polls at a
// time. With WATCH_INTERVAL 0 it does nothing. It opens a Store of its own.
func startWatching(ctx context.Context, cfg Config, st *store.Store, records *apiclient.Client, api *slack.Client, dom *actions.Service, mins *minutes.Service, log *slog.Logger) (stop func(), err error) {
	if cfg.WatchInterval <= 0 {
		return func() {}, nil
	}
	wcfg := watchConfig(cfg)
	wcfg.Owner = watch.DefaultOwner()
	deps := watch.Deps{Store: st, Records: records, Actions: dom, Minutes: mins, Slack: api, Logger: log}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(cfg.WatchInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A poll that outlives its interval is cut off; its unfinished
			// work is retried by the next.
			pctx, pcancel := context.WithTimeout(ctx, max(cfg.WatchInterval, time.Minute))
			sum, err := watch.Poll(pctx, wcfg, deps)
			pcancel()
			if err != nil && ctx.Err() == nil {
				log.Warn("watch: poll", "error", err, "summary", sum.String())
			}
		}
	})
	log.Info("watching the records service", "interval", cfg.WatchInterval, "store", st.String())
	return func() {
		cancel()
		wg.Wait() // the store is serve's, closed after this
	}, nil
}
