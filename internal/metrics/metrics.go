// Package metrics holds recordsbot's Prometheus series, the registry they
// live on and the GET /metrics handler that serves them. It is process
// infrastructure, not the Slack edge: serve builds one [Set] in cmd and
// hands it to the bot (requests, acks, Socket Mode, the guards), to the
// records and Slack clients (their transports count every call), to the
// dependency checker, to the search backfill and to the reminder job.
//
// A nil *Set records nothing, so every method is safe to call without
// one: the one-shot jobs (remind, watch run from a CronJob) have nobody
// to scrape them and pass nil.
//
// Each replica counts its own traffic; Prometheus sums across pods. The
// names and labels are an interface admins alert on
// (docs/running-at-scale.md lists them): change them only with the docs.
package metrics

import (
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Set is recordsbot's metrics on a registry of their own. Build it with
// [New]; a nil *Set records nothing.
type Set struct {
	reg       *prometheus.Registry
	buildInfo *prometheus.GaugeVec
	edge      edgeMetrics
	calls     callMetrics
	jobs      jobMetrics
	guard     guardMetrics
	audit     auditMetrics
}

// New registers recordsbot's metrics, with the Go runtime and process
// collectors, on a registry of its own (never the global one, so tests and
// several servers in one process do not collide).
func New() *Set {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s := &Set{
		reg: reg,
		buildInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "recordsbot_build_info", Help: "Always 1; labels say which build this replica runs.",
		}, []string{"version", "goversion"}),
	}
	reg.MustRegister(s.buildInfo)
	s.edge = newEdgeMetrics(reg)
	s.calls = newCallMetrics(reg)
	s.jobs = newJobMetrics(reg)
	s.guard = newGuardMetrics(reg)
	s.audit = newAuditMetrics(reg)
	return s
}

// Registry returns the registry the metrics live on, for a test that
// gathers them or a collector of a caller's own; nil for a nil *Set.
func (s *Set) Registry() *prometheus.Registry {
	if s == nil {
		return nil
	}
	return s.reg
}

// Handler serves the metrics in Prometheus' text format on GET /metrics;
// for a nil *Set it answers 404, so a server without metrics has no
// endpoint.
func (s *Set) Handler() http.Handler {
	if s == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg})
}

// SetVersion publishes the running build as recordsbot_build_info.
func (s *Set) SetVersion(version string) {
	if s != nil {
		s.buildInfo.Reset()
		s.buildInfo.WithLabelValues(version, runtime.Version()).Set(1)
	}
}

// buckets are the latency buckets in seconds. Slack allows 3 s for an ack
// and the bot aims at 2 s, so they are fine below 3 s; follow-ups may
// take up to the work timeout.
var buckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 2.5, 3, 5, 10, 30}

// seconds is the time since start in seconds, as a histogram observes it.
func seconds(start time.Time) float64 { return time.Since(start).Seconds() }
