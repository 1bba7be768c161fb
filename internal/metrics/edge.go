package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/slack-go/slack/socketmode"
)

// Kind is the kind of a request from Slack, the label "kind" of the
// request series.
type Kind string

// The kinds of request Slack sends.
const (
	Command     Kind = "command"
	Interaction Kind = "interaction"
	Event       Kind = "event"
)

// edgeMetrics count the requests Slack sends, over HTTP or Socket Mode,
// and the Socket Mode connection itself.
type edgeMetrics struct {
	requests        *prometheus.CounterVec
	ackLatency      *prometheus.HistogramVec
	totalLatency    *prometheus.HistogramVec
	socketConnects  prometheus.Counter
	socketUp        prometheus.Gauge
	socketEnvelopes *prometheus.CounterVec
}

func newEdgeMetrics(reg *prometheus.Registry) edgeMetrics {
	e := edgeMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_requests_total",
			Help: "Requests from Slack by kind (command, interaction, event), command or action, and outcome.",
		}, []string{"kind", "command", "outcome"}),
		ackLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "recordsbot_ack_seconds", Help: "Time from receiving a Slack request to acknowledging it.", Buckets: buckets,
		}, []string{"kind"}),
		totalLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "recordsbot_request_seconds", Help: "Time from receiving a Slack request to its final answer (inline or follow-up).", Buckets: buckets,
		}, []string{"kind"}),
		socketConnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "recordsbot_socket_connections_total", Help: "Socket Mode connections opened, the first one and every reconnection.",
		}),
		socketUp: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "recordsbot_socket_connected", Help: "1 while this replica's Socket Mode connection is open, else 0.",
		}),
		socketEnvelopes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_socket_envelopes_total",
			Help: "Socket Mode envelopes by type and outcome (acked, ack_failed, unreadable, shutdown).",
		}, []string{"type", "outcome"}),
	}
	reg.MustRegister(e.requests, e.ackLatency, e.totalLatency, e.socketConnects, e.socketUp, e.socketEnvelopes)
	return e
}

// Request counts one request from Slack of kind, for the command or
// action (already reduced by the caller to a bounded set of names) and
// its outcome ("inline", "deferred", "busy", "ok", "error"…).
func (s *Set) Request(kind Kind, command, outcome string) {
	if s != nil {
		s.edge.requests.WithLabelValues(string(kind), command, outcome).Inc()
	}
}

// Acked observes the time from start, when the request arrived, to its
// acknowledgement (recordsbot_ack_seconds).
func (s *Set) Acked(kind Kind, start time.Time) {
	if s != nil {
		s.edge.ackLatency.WithLabelValues(string(kind)).Observe(seconds(start))
	}
}

// Finished observes the time from start to the request's final answer,
// inline or follow-up (recordsbot_request_seconds).
func (s *Set) Finished(kind Kind, start time.Time) {
	if s != nil {
		s.edge.totalLatency.WithLabelValues(string(kind)).Observe(seconds(start))
	}
}

// SocketConnected reports the Socket Mode connection opened (up, counted
// as a connection) or lost.
func (s *Set) SocketConnected(up bool) {
	if s == nil {
		return
	}
	if up {
		s.edge.socketConnects.Inc()
		s.edge.socketUp.Set(1)
		return
	}
	s.edge.socketUp.Set(0)
}

// SocketEnvelope counts one Socket Mode envelope's fate. The type comes
// off the wire, so only Slack's own types are labels; an empty or
// unreadable one is "unknown", anything else "other".
func (s *Set) SocketEnvelope(typ, outcome string) {
	if s == nil {
		return
	}
	switch typ {
	case socketmode.RequestTypeSlashCommands, socketmode.RequestTypeInteractive, socketmode.RequestTypeEventsAPI:
	case string(socketmode.EventTypeErrorBadMessage), "":
		typ = "unknown"
	default:
		typ = "other"
	}
	s.edge.socketEnvelopes.WithLabelValues(typ, outcome).Inc()
}
