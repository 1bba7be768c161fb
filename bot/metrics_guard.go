package bot

import "github.com/prometheus/client_golang/prometheus"

// guardMetrics count the work the bot refused or survived so that it keeps
// serving: public requests over their limits, Slack requests past the
// bound on work in flight, and panics recovered in background work.
type guardMetrics struct {
	publicRefused *prometheus.CounterVec
}

func newGuardMetrics(reg *prometheus.Registry) guardMetrics {
	g := guardMetrics{
		publicRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_public_refused_total",
			Help: "Public page requests refused: client_limit (one address over its rate, answered 429) or records_cap (the public pages' share of records calls used up, answered 503).",
		}, []string{"reason"}),
	}
	reg.MustRegister(g.publicRefused)
	return g
}

// publicRefused counts a public request refused for reason.
func (m *Metrics) publicRefused(reason string) {
	if m != nil {
		m.guard.publicRefused.WithLabelValues(reason).Inc()
	}
}
