package loadtest

import (
	"context"
	"net/http"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
)

// TestHungRecordsKeepWorkBounded drives the bot at 270 commands a second
// with the records service hung (every call waits longer than the work
// timeout), as the audit did, and checks that the work in flight, and so
// the goroutines, stay bounded while every command is still answered
// within Slack's 3 s. RECORDSBOT_OVERLOAD (a duration, default 1s) sets
// how long; with it set, the same run without a practical bound is logged
// for comparison:
//
//	RECORDSBOT_OVERLOAD=20s go test ./bot/loadtest -run TestHungRecordsKeepWorkBounded -v
func TestHungRecordsKeepWorkBounded(t *testing.T) {
	duration := time.Second
	compare := false
	if v := os.Getenv("RECORDSBOT_OVERLOAD"); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err, "RECORDSBOT_OVERLOAD")
		duration, compare = d, true
	}
	const workTimeout = 3 * time.Second
	bounded := overload(t, bot.Config{WorkTimeout: workTimeout}, duration)
	t.Logf("bounded (MaxInFlight %d): %s; goroutines peak %d, heap peak %.1f MiB",
		16*int(workTimeout/time.Second), bounded.result, bounded.goroutines, bounded.heapMiB)
	assert.Zero(t, bounded.result.Errors, "every command answered; last error: %v", bounded.result.Error)
	assert.Zero(t, bounded.result.OverDeadline, "every answer within Slack's 3 s")
	assert.Equal(t, bounded.result.Answered(), bounded.result.Status[http.StatusOK])
	assert.Less(t, bounded.goroutines, 1000, "goroutines stay bounded")
	if compare {
		unbounded := overload(t, bot.Config{WorkTimeout: workTimeout, MaxInFlight: 1 << 20}, duration)
		t.Logf("unbounded: %s; goroutines peak %d, heap peak %.1f MiB", unbounded.result, unbounded.goroutines, unbounded.heapMiB)
	}
}

type overloadRun struct {
	result     Result
	goroutines int
	heapMiB    float64
}

// overload runs the bot with cfg against a hung records service for d at
// 270 commands a second, sampling goroutines and heap.
func overload(t *testing.T, cfg bot.Config, d time.Duration) overloadRun {
	url, users, records := startBot(t, cfg, actions.Config{})
	records.InjectFault(recordstest.Fault{Latency: time.Minute})
	var peakG, peakHeap atomic.Int64
	ctx, stop := context.WithCancel(t.Context())
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if g := int64(runtime.NumGoroutine()); g > peakG.Load() {
				peakG.Store(g)
			}
			runtime.ReadMemStats(&ms)
			if h := int64(ms.HeapAlloc); h > peakHeap.Load() {
				peakHeap.Store(h)
			}
		}
	}()
	r, err := Run(t.Context(), Options{
		URL: url, Secret: secret, Rate: 270, Duration: d, Concurrency: 4000, FollowUpGrace: -1,
		Users: users, Commands: []string{"/actions", "/actions overdue"},
	})
	stop()
	<-sampled
	require.NoError(t, err)
	records.ClearFaults()
	return overloadRun{result: r, goroutines: int(peakG.Load()), heapMiB: float64(peakHeap.Load()) / (1 << 20)}
}
