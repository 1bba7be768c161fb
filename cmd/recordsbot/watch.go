package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// watchOnce is `recordsbot watch`: one poll, for a CronJob every few
// minutes. It prints the summary line to stdout; logs go to stderr. It
// returns an error (exit 1) when the store or the records service could
// not be read or some posts failed (the next run retries them), and nil
// when another poll was running.
func watchOnce(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
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
	st, err := openStore(ctx, a)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := watch.Poll(ctx, watchConfig(a.set), watch.Deps{
		Store: st, Actions: a.Actions, Minutes: a.Minutes, Calendar: a.Calendar, Slack: a.Slack, Logger: a.log,
		Pacer: newPacer(a),
	})
	fmt.Fprintln(stdout, sum)
	return err
}

// watchConfig is the watcher's part of the settings.
func watchConfig(set *settings) watch.Config {
	return watch.Config{
		Notify:    set.notify,
		Retention: set.retention,
		// The bot's follow settings: what a follow hears until its
		// channel chooses, its digest's usual slot.
		Follows:   set.follows,
		BriefLead: set.briefLead,
		Language:  set.orgLanguage,
		// Admins hear of minutes changed after their approval.
		Admins: set.admins,
	}
}

// newPacer is a Slack pacer for the watcher (slackapi.Pacer, as the
// reminders have), counting Slack's 429s in serve's metrics.
func newPacer(a *app) *slackapi.Pacer {
	o := slackapi.PacerOptions{Log: a.log}
	if a.metrics != nil {
		o.Waited = a.metrics.SlackWait
	}
	return slackapi.NewPacer(o)
}

// minWatchInterval keeps a mistyped WATCH_INTERVAL ("5" read as 5ns is
// refused by envconfig, but "5s" is not) from hammering the records
// service.
const minWatchInterval = 30 * time.Second

// maxBackfillRate bounds SEARCH_BACKFILL_RATE: the backfill is meant to
// take a small share of the records service, never to load it.
const maxBackfillRate = 20.0

// startBackfill runs the search index's backfill (minutes.Backfill) in the
// background of serve at SEARCH_BACKFILL_RATE, until stop is called.
// Replicas share the work through the store: one backfills at a time.
func startBackfill(ctx context.Context, a *app, st *store.Store) (stop func()) {
	if a.set.searchBackfillRate <= 0 {
		return func() {}
	}
	b := &minutes.Backfill{Rate: a.set.searchBackfillRate, Records: a.Records, Index: st, History: st, State: st, Owner: watch.DefaultOwner(), Logger: a.log}
	a.metrics.SearchBackfill(func() (pages, read float64, doneAt time.Time) {
		p, r, at := b.Progress()
		return float64(p), float64(r), at
	})
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		// Run ends only with ctx; anything but its cancellation by stop
		// (or serve's end) is worth a line.
		if err := b.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			a.log.ErrorContext(ctx, "search backfill ended", "error", err)
		}
	})
	return func() {
		cancel()
		wg.Wait() // the store is serve's, closed after this
	}
}

// startWatching runs a poll every WATCH_INTERVAL in the background of
// serve, until stop is called (it waits for a poll under way to end). Each
// poll takes the store's lock, so with several replicas one polls at a
// time. With WATCH_INTERVAL 0 it does nothing.
func startWatching(ctx context.Context, a *app, st *store.Store) (stop func()) {
	interval, log := a.set.watchInterval, a.log
	if interval <= 0 {
		return func() {}
	}
	wcfg := watchConfig(a.set)
	wcfg.Owner = watch.DefaultOwner()
	// One pacer for every poll, so that a channel's posts stay a second
	// apart from one poll to the next too.
	deps := watch.Deps{Store: st, Actions: a.Actions, Minutes: a.Minutes, Calendar: a.Calendar, Slack: a.Slack, Logger: log,
		Pacer: newPacer(a)}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A poll that outlives its interval is cut off; its unfinished
			// work is retried by the next.
			pctx, pcancel := context.WithTimeout(ctx, max(interval, time.Minute))
			sum, err := watch.Poll(pctx, wcfg, deps)
			pcancel()
			if err != nil && ctx.Err() == nil {
				log.Warn("watch: poll", "error", err, "summary", sum.String())
			}
		}
	})
	log.Info("watching the records service", "interval", interval.String())
	return func() {
		cancel()
		wg.Wait() // the store is serve's, closed after this
	}
}
