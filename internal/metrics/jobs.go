package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// jobMetrics are the work serve does besides answering Slack: the
// dependency checks. The search backfill's gauges are registered by
// SearchBackfill, when serve runs one. The reminder job has none: it runs
// as a one-shot CronJob nobody scrapes, and serve does not run it; its
// outcome is its summary line and its Job's status (docs/jobs.md).
type jobMetrics struct {
	dependencyUp *prometheus.GaugeVec
}

func newJobMetrics(reg *prometheus.Registry) jobMetrics {
	j := jobMetrics{
		dependencyUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "recordsbot_dependency_up", Help: "1 when the background check last found the dependency (records, slack, store) working, else 0; the logs say why not.",
		}, []string{"dependency"}),
	}
	reg.MustRegister(j.dependencyUp)
	return j
}

// DependencyUp sets recordsbot_dependency_up for the dependency name
// ("records", "slack" or "store"); it is health.Checker's set function.
func (s *Set) DependencyUp(name string, up bool) {
	if s != nil {
		v := 0.0
		if up {
			v = 1
		}
		s.jobs.dependencyUp.WithLabelValues(name).Set(v)
	}
}

// SearchBackfill publishes the minutes search backfill's progress, read
// from progress at each scrape: the meetings pages and minutes read in the
// pass under way, and when the last whole pass ended (0 before the first).
// Call it once per Set: a second call panics, as registering a series
// twice does.
func (s *Set) SearchBackfill(progress func() (pages, read float64, doneAt time.Time)) {
	if s == nil {
		return
	}
	s.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "recordsbot_search_backfill_pages", Help: "Meetings pages the minutes search backfill has read in its pass under way, or in its last whole pass between passes.",
		}, func() float64 { p, _, _ := progress(); return p }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "recordsbot_search_backfill_minutes_read", Help: "Minutes the search backfill has read in its pass under way, or in its last whole pass between passes.",
		}, func() float64 { _, r, _ := progress(); return r }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "recordsbot_search_backfill_done_timestamp_seconds", Help: "When the search backfill last finished a whole pass (Unix seconds); 0 before the first.",
		}, func() float64 {
			if _, _, at := progress(); !at.IsZero() {
				return float64(at.Unix())
			}
			return 0
		}),
	)
}
