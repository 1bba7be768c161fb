package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/recordsbot/recordsbot/demo"
	"github.com/recordsbot/recordsbot/internal/requestid"
)

// runDemo parses the demo's flags and runs package demo: the real bot in this
// process against stand-ins, and a console that speaks for Slack. It needs
// no configuration and reads nothing from the environment but NO_COLOR and
// TERM (for colour); cfg matters only for LOG_LEVEL=debug, which shows the
// bot's logs on stderr.
func runDemo(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "also print each message's Block Kit JSON and a Block Kit Builder link")
	as := fs.String("as", "alice", "the demo person you speak as (first name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: recordsbot demo [--json] [--as NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("demo takes no arguments, got %q: %w", fs.Arg(0), errUsage)
	}

	return demo.Run(ctx, demo.Options{JSON: *jsonOut, As: *as, Logger: demoLogger(cfg, stderr), Version: version}, stdin, stdout)
}

// demoLogger keeps the bot quiet in the console: only errors reach stderr,
// unless LOG_LEVEL=debug asks for everything (info, the default, is taken
// as not asked).
func demoLogger(cfg Config, stderr io.Writer) *slog.Logger {
	level := slog.LevelError
	if l, err := parseLevel(cfg.LogLevel); err == nil && l == slog.LevelDebug {
		level = slog.LevelDebug
	}
	// The bot logs from its request and follow-up goroutines; the lock
	// keeps their lines whole when stderr is a shared buffer.
	w := &lockedWriter{w: stderr}
	return slog.New(requestid.LogHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
