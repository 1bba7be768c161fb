package apiclient

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkListActions20000Memory lists 20,000 actions as the benchmark's
// records stub sends them (one bare array, 4 MB) and reports what the
// result keeps alive: live heap after a collection with the list still
// held, per action. It is the figure behind "Memory at 20,000 actions" in
// the README.
func BenchmarkListActions20000Memory(b *testing.B) {
	const n = 20_000
	body := stubActions(b, n)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	c, err := NewClient(srv.URL+"/api/v1", "bench-key")
	require.NoError(b, err)
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
