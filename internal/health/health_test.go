package health

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lines counts the log lines with msg.
func lines(buf *bytes.Buffer, msg string) int {
	return strings.Count(buf.String(), "msg=\""+msg+"\"")
}

// An outage met by 10,000 requests is three lines over six minutes: down,
// one reminder after five minutes, up.
func TestOutageLogsOncePerChangeOfState(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	o := NewOutage(slog.New(slog.NewTextHandler(&buf, nil)), "store", 5*time.Minute)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	o.now = func() time.Time { return now }
	for i := range 10000 {
		now = now.Add(36 * time.Millisecond) // six minutes in all
		o.Failed(t.Context(), errors.New("follow C"+strings.Repeat("1", i%7)+": store unavailable"))
	}
	o.OK(t.Context())
	o.OK(t.Context())
	assert.Equal(t, 1, lines(&buf, "dependency down"), buf.String())
	assert.Equal(t, 1, lines(&buf, "dependency still down"), "one reminder after 5 minutes")
	assert.Equal(t, 1, lines(&buf, "dependency up"))
	assert.Equal(t, 3, strings.Count(buf.String(), "\n"), "not a line per request")
	assert.Contains(t, buf.String(), "reason=\"follow C")
	assert.Contains(t, buf.String(), "since_last_line=5m0")

	o.Failed(t.Context(), errors.New("again"))
	assert.Equal(t, 2, lines(&buf, "dependency down"), "a new outage is news")
}

func TestCheckerReportsEachDependency(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	gauge := map[string]bool{}
	recordsErr := errors.New("records api: 503")
	var recordsDown bool
	c := NewChecker(slog.New(slog.NewTextHandler(&buf, nil)), func(name string, up bool) {
		mu.Lock()
		defer mu.Unlock()
		gauge[name] = up
	}, 0, map[string]Probe{
		"records": func(context.Context) error {
			if recordsDown {
				return recordsErr
			}
			return nil
		},
		"slack": func(context.Context) error { return nil },
	})
	assert.ErrorIs(t, c.State()["records"], errNotChecked)

	require.NoError(t, c.Check(t.Context()))
	assert.Equal(t, map[string]bool{"records": true, "slack": true}, gauge)
	assert.Equal(t, map[string]error{"records": nil, "slack": nil}, c.State())

	recordsDown = true
	for range 3 {
		assert.ErrorIs(t, c.Check(t.Context()), recordsErr)
	}
	assert.Equal(t, map[string]bool{"records": false, "slack": true}, gauge)
	assert.Equal(t, recordsErr, c.State()["records"])
	assert.Equal(t, 1, lines(&buf, "dependency down"), "logged once, however many checks: %s", buf.String())
	assert.Contains(t, buf.String(), `dependency=records reason="records api: 503"`)

	recordsDown = false
	require.NoError(t, c.Check(t.Context()))
	assert.True(t, gauge["records"])
	assert.Equal(t, 1, lines(&buf, "dependency up"))
}

func TestCheckerRunRechecksSoonWhileDown(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	down := true
	c := NewChecker(nil, nil, 0, map[string]Probe{"records": func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return errors.New("down")
		}
		return nil
	}})
	c.Interval, c.RetryInterval = time.Hour, 10*time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	require.Eventually(t, func() bool { return c.State()["records"] != nil && c.State()["records"] != errNotChecked }, 5*time.Second, 5*time.Millisecond)
	mu.Lock()
	down = false
	mu.Unlock()
	require.Eventually(t, func() bool { return c.State()["records"] == nil }, 5*time.Second, 5*time.Millisecond, "back without waiting an hour")
	cancel()
	<-done
}

// TestOutageDownIsInTheGaugeAtOnce: when a failure met by a request makes
// the shared outage log say "dependency down", the gauge says 0 before
// Failed returns (not at the next check, up to Interval later), a check
// runs at once, and the quicker RetryInterval checks see the recovery.
func TestOutageDownIsInTheGaugeAtOnce(t *testing.T) {
	t.Parallel()
	var buf lockedBuffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var mu sync.Mutex
	gauge := map[string]bool{}
	var probeErr error
	probes := 0
	c := NewChecker(log, func(name string, up bool) {
		mu.Lock()
		defer mu.Unlock()
		gauge[name] = up
	}, 0, map[string]Probe{"store": func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		probes++
		return probeErr
	}})
	out := NewOutage(log, "store", 0)
	c.SetOutage("store", out)
	c.Interval, c.RetryInterval = time.Hour, 10*time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	defer func() { cancel(); <-done }()
	up := func() bool { mu.Lock(); defer mu.Unlock(); return gauge["store"] }
	count := func() int { mu.Lock(); defer mu.Unlock(); return probes }
	require.Eventually(t, up, time.Second, time.Millisecond, "the first check")

	mu.Lock()
	probeErr = errors.New("store unavailable")
	mu.Unlock()
	out.Failed(t.Context(), errors.New("follow: store unavailable"))
	assert.False(t, up(), "the gauge says down as the log does")
	assert.Equal(t, 1, buf.lines("dependency down"))
	require.Eventually(t, func() bool { return count() >= 2 }, time.Second, time.Millisecond, "a check at once, not an hour later")
	assert.False(t, up())
	assert.Error(t, c.State()["store"])

	mu.Lock()
	probeErr = nil
	mu.Unlock()
	require.Eventually(t, up, time.Second, time.Millisecond, "recovery seen within RetryInterval")
	assert.Eventually(t, func() bool { return buf.lines("dependency up") == 1 }, time.Second, time.Millisecond)
}

// lockedBuffer is a log the checker's goroutine writes while the test
// reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) lines(msg string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return lines(&b.buf, msg)
}
