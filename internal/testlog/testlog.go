// Package testlog sends what a component logs to the test's log, so a
// failing test shows what the bot or a job saw. Tests only: nothing in the
// binary imports it.
package testlog

import (
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// New returns a logger writing every level, debug included, to t's log.
func New(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(Writer(t), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Writer writes each line it is given to t's log.
func Writer(t testing.TB) io.Writer { return writer{t} }

type writer struct{ t testing.TB }

var mu sync.Mutex

func (w writer) Write(p []byte) (int, error) {
	mu.Lock()
	defer mu.Unlock()
	// Work started by the test may log after it ended, when t.Log panics.
	defer func() { _ = recover() }()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
