package store

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/internal/clocktest"
	"github.com/recordsbot/recordsbot/store/storetest"
	"github.com/stretchr/testify/require"
)

// engine is one way of getting a fresh, empty database for a test.
type engine struct {
	name string
	// newURL returns the DATABASE_URL of a fresh database that only this
	// test uses, removed when the test ends.
	newURL func(t testing.TB) string
	// shared: two Opens of one URL see the same data (not so for
	// :memory:), which the race and concurrent-start tests need.
	shared bool
}

var (
	sqliteFile = engine{name: "sqlite", shared: true, newURL: func(t testing.TB) string {
		return "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db")
	}}
	sqliteMemory = engine{name: "sqlite-memory", newURL: func(testing.TB) string { return "sqlite::memory:" }}
	postgres     = engine{name: "postgres", shared: true, newURL: newPostgresSchema}
)

// newPostgresSchema is a schema of the test's own; see storetest.
func newPostgresSchema(t testing.TB) string { return storetest.PostgresURL(t) }

// newClock is a clock the test moves by hand, shared by every Store of a
// test so leases and locks expire without sleeping.
func newClock() *clocktest.Clock {
	return clocktest.New(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
}

// open opens url for the test and closes it at the end.
func open(t *testing.T, url string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(t.Context(), url, opts...)
	require.NoError(t, err, "open %s", Redact(url))
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// countingHandler counts log records by message, across goroutines.
type countingHandler struct {
	mu     sync.Mutex
	counts map[string]int
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.counts == nil {
		h.counts = map[string]int{}
	}
	h.counts[r.Message]++
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

func (h *countingHandler) count(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.counts[msg]
}

func ptr[T any](v T) *T { return &v }

func slogNew(h slog.Handler) *slog.Logger { return slog.New(h) }

func itoa(n int) string { return strconv.Itoa(n) }

// pad is a migration number as in file names.
func pad(n int) string { return fmt.Sprintf("%04d", n) }

func mustMigrations(t *testing.T, engine string) []migration {
	t.Helper()
	all, err := migrations(migrationFS, engine)
	require.NoError(t, err)
	return all
}

func boolString(b bool) string { return strconv.FormatBool(b) }
