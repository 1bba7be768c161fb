package apiclient

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkListActions20000Memory lists 20,000 actions as the benchmark's
// records stub sends them (one bare array, 6.5 MB) and reports what the
// result keeps alive: live heap after a collection with the list still
// held, per action. It is the figure behind "Memory at 20,000 actions" in
// the README.
func BenchmarkListActions20000Memory(b *testing.B) {
	const n = 20_000
	body := stubActions(b, n)
	c := stubClient(b, body)
	var before, after runtime.MemStats
	b.ReportAllocs()
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		list, err := c.ListActions(b.Context(), nil)
		if err != nil || len(list.Actions) != n {
			b.Fatalf("list: %v", err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(list)
	}
	held := float64(after.HeapInuse) - float64(before.HeapInuse)
	b.ReportMetric(held/n, "heap-B/action")
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "HeapInuse-MB")
}

// stubClient serves body as the benchmark's records stub does, with its
// Content-Length, and returns a client of it.
func stubClient(b *testing.B, body []byte) *Client {
	b.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	c, err := NewClient(srv.URL+"/api/v1", "bench-key")
	require.NoError(b, err)
	return c
}

// BenchmarkListActions20000 is the time of one refresh of a 20,000-action
// list, the work a command waits for when it finds the shared list stale.
func BenchmarkListActions20000(b *testing.B) {
	body := stubActions(b, 20_000)
	c := stubClient(b, body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		list, err := c.ListActions(b.Context(), nil)
		if err != nil || len(list.Actions) != 20_000 {
			b.Fatalf("list: %v", err)
		}
	}
}
