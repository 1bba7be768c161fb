package metrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/recordsbot/recordsbot/audit"
)

// auditMetrics are the daily verify of the audit trail, as the prune in
// serve's background watcher last found it (docs/audit.md).
type auditMetrics struct {
	intact   prometheus.Gauge
	entries  prometheus.Gauge
	verified prometheus.Gauge
}

func newAuditMetrics(reg *prometheus.Registry) auditMetrics {
	a := auditMetrics{
		intact: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "recordsbot_audit_chain_intact", Help: "1 when the daily verify found the audit trail's hash chain intact, 0 when it found an entry altered, removed or reordered (the log names it); absent before the first verify.",
		}),
		entries: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "recordsbot_audit_entries", Help: "Entries in the audit trail at the last daily verify.",
		}),
		verified: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "recordsbot_audit_verified_timestamp_seconds", Help: "When the audit trail was last verified (Unix seconds).",
		}),
	}
	reg.MustRegister(a.intact, a.entries, a.verified)
	return a
}

// AuditVerified publishes a verify of the audit trail: its head, and nil
// or the *audit.BrokenError; it is store.WithAuditVerified's func. Other
// errors (the store down) say nothing of the chain and are ignored.
func (s *Set) AuditVerified(head audit.Head, err error) {
	if s == nil {
		return
	}
	var broken *audit.BrokenError
	switch {
	case err == nil:
		s.audit.intact.Set(1)
		s.audit.entries.Set(float64(head.Entries))
	case errors.As(err, &broken):
		s.audit.intact.Set(0)
	default:
		return
	}
	s.audit.verified.SetToCurrentTime()
}
