package bot

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are recordsbot's Prometheus metrics. A nil *Metrics records
// nothing, so every method is safe to call without one.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	ackLatency   *prometheus.HistogramVec
	totalLatency *prometheus.HistogramVec
	recordsCalls *prometheus.CounterVec
	slackCalls   *prometheus.CounterVec
	slackLimited *prometheus.CounterVec
	reminders    *prometheus.CounterVec
}

// NewMetrics registers recordsbot's metrics, with the Go runtime and process
// collectors, on a registry of its own.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	buckets := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10, 30}
	m := &Metrics{
		reg: reg,
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
		recordsCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_records_api_calls_total",
			Help: "HTTP calls to the records API by endpoint and status (each retry counts); status is \"error\" when no answer came.",
		}, []string{"method", "endpoint", "status"}),
		slackCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_slack_api_calls_total",
			Help: "Calls to Slack's Web API and response_url by method and outcome (ok, error, ratelimited).",
		}, []string{"method", "outcome"}),
		slackLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_slack_rate_limit_waits_total", Help: "Times a Slack call waited for Retry-After.",
		}, []string{"method"}),
		reminders: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_reminders_total", Help: "Reminder DMs by outcome (sent, skipped, failed, unmatched).",
		}, []string{"outcome"}),
	}
	reg.MustRegister(m.requests, m.ackLatency, m.totalLatency, m.recordsCalls, m.slackCalls, m.slackLimited, m.reminders)
	return m
}

// Registry returns the registry the metrics live on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

func handleMetrics(m *Metrics) http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *Metrics) request(kind, command, outcome string) {
	if m != nil {
		m.requests.WithLabelValues(kind, command, outcome).Inc()
	}
}

func (m *Metrics) acked(kind string, since time.Time) {
	if m != nil {
		m.ackLatency.WithLabelValues(kind).Observe(time.Since(since).Seconds())
	}
}

func (m *Metrics) finished(kind string, since time.Time) {
	if m != nil {
		m.totalLatency.WithLabelValues(kind).Observe(time.Since(since).Seconds())
	}
}

func (m *Metrics) slackCall(method string, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
		if isRateLimited(err) {
			outcome = "ratelimited"
		}
	}
	m.slackCalls.WithLabelValues(method, outcome).Inc()
}

func (m *Metrics) slackWait(method string) {
	if m != nil {
		m.slackLimited.WithLabelValues(method).Inc()
	}
}

// Reminder counts one reminder outcome.
func (m *Metrics) Reminder(outcome string) {
	if m != nil {
		m.reminders.WithLabelValues(outcome).Inc()
	}
}

// RecordsTransport wraps rt so every records API call is counted by
// endpoint and status. Endpoints are reduced to their templates so that
// opaque IDs do not explode the label space.
func (m *Metrics) RecordsTransport(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	if m == nil {
		return rt
	}
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		status := "error"
		if err == nil {
			status = strconv.Itoa(resp.StatusCode)
		}
		m.recordsCalls.WithLabelValues(r.Method, endpointTemplate(r.URL.EscapedPath()), status).Inc()
		return resp, err
	})
}

// SlackTransport wraps rt so every Slack Web API call is counted by method
// and HTTP outcome.
func (m *Metrics) SlackTransport(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	if m == nil {
		return rt
	}
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		method := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		outcome := "ok"
		switch {
		case err != nil:
			outcome = "error"
		case resp.StatusCode == http.StatusTooManyRequests:
			outcome = "ratelimited"
		case resp.StatusCode >= 300:
			outcome = "error"
		}
		m.slackCalls.WithLabelValues(method, outcome).Inc()
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// endpointTemplate maps ".../api/v1/meetings/FIN%2F1/minutes" to
// "/meetings/{id}/minutes".
func endpointTemplate(path string) string {
	i := strings.Index(path, "/api/v1")
	if i >= 0 {
		path = path[i+len("/api/v1"):]
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) == 1:
		return "/" + parts[0]
	case len(parts) == 2:
		return "/" + parts[0] + "/{id}"
	case len(parts) == 3:
		return "/" + parts[0] + "/{id}/" + parts[2]
	}
	return "other"
}
