package metrics

import "github.com/prometheus/client_golang/prometheus"

// guardMetrics count the work the bot refused or survived so that it keeps
// serving: public requests over their limits, Slack requests past the
// bound on work in flight, and panics recovered in background work.
type guardMetrics struct {
	publicRefused *prometheus.CounterVec
	workRejected  *prometheus.CounterVec
	inFlight      prometheus.Gauge
	panics        prometheus.Counter
}

func newGuardMetrics(reg *prometheus.Registry) guardMetrics {
	g := guardMetrics{
		publicRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_public_refused_total",
			Help: "Public page requests refused: client_limit (one address over its rate, answered 429) or records_cap (the public pages' share of records calls used up, answered 503).",
		}, []string{"reason"}),
		workRejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_work_rejected_total",
			Help: "Slack requests (command, interaction, event) answered \"I'm busy\" at once because MaxInFlight requests were already at work.",
		}, []string{"kind"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "recordsbot_work_in_flight", Help: "Slack requests at work now (bounded by MaxInFlight).",
		}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "recordsbot_background_panics_total",
			Help: "Panics recovered in work the bot runs after a request (handlers' follow-ups, Home publishes, unfurls); each is logged with its stack.",
		}),
	}
	reg.MustRegister(g.publicRefused, g.workRejected, g.inFlight, g.panics)
	return g
}

// PublicRefused counts a public page request refused for reason:
// "client_limit" (one address over its rate), "records_cap" (the public
// pages' share of records calls used up), "unheld_cap" (the smaller
// share of lookups that can only fail used up), "in_flight" (too many
// public requests at once) or "unknown" (a name the public gate answered
// 404 without a records call).
func (s *Set) PublicRefused(reason string) {
	if s != nil {
		s.guard.publicRefused.WithLabelValues(reason).Inc()
	}
}

// WorkRejected counts a request of kind refused past the bound on work in
// flight.
func (s *Set) WorkRejected(kind Kind) {
	if s != nil {
		s.guard.workRejected.WithLabelValues(string(kind)).Inc()
	}
}

// InFlight reports the number of Slack requests at work now.
func (s *Set) InFlight(n int) {
	if s != nil {
		s.guard.inFlight.Set(float64(n))
	}
}

// BackgroundPanic counts a panic recovered in work the bot ran on its own.
func (s *Set) BackgroundPanic() {
	if s != nil {
		s.guard.panics.Inc()
	}
}
