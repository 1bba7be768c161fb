package bot

import (
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/slack-go/slack/socketmode"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// Metrics are recordsbot's Prometheus metrics, served on GET /metrics. A nil
// *Metrics records nothing, so every method is safe to call without one.
//
// Each replica counts its own traffic; Prometheus sums across pods.
type Metrics struct {
	reg             *prometheus.Registry
	buildInfo       *prometheus.GaugeVec
	requests        *prometheus.CounterVec
	ackLatency      *prometheus.HistogramVec
	totalLatency    *prometheus.HistogramVec
	recordsCalls    *prometheus.CounterVec
	slackCalls      *prometheus.CounterVec
	slackErrors     *prometheus.CounterVec
	slackLimited    *prometheus.CounterVec
	reminders       *prometheus.CounterVec
	dependencyUp    *prometheus.GaugeVec
	socketConnects  prometheus.Counter
	socketUp        prometheus.Gauge
	socketEnvelopes *prometheus.CounterVec
	guard           guardMetrics
}

// NewMetrics registers recordsbot's metrics, with the Go runtime and process
// collectors, on a registry of its own (never the global one, so tests and
// several servers in one process do not collide).
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Slack allows 3 s for an ack and the bot aims at 2 s, so the buckets
	// are fine below 3 s; follow-ups may take up to the work timeout.
	buckets := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 2.5, 3, 5, 10, 30}
	m := &Metrics{
		reg: reg,
		buildInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "recordsbot_build_info", Help: "Always 1; labels say which build this replica runs.",
		}, []string{"version", "goversion"}),
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
			Help: "HTTP calls to the records API by method, endpoint and status; every retry is a call of its own. Status is \"error\" when no answer came.",
		}, []string{"method", "endpoint", "status"}),
		slackCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_slack_api_calls_total",
			Help: "HTTP calls to Slack's Web API and to response_url by method and HTTP status (\"error\" when no answer came). Slack refuses most calls with a 200 and ok:false; see recordsbot_slack_api_errors_total.",
		}, []string{"method", "status"}),
		slackErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_slack_api_errors_total",
			Help: "Slack Web API and response_url calls that failed, by method and Slack error code (such as not_in_channel or ratelimited).",
		}, []string{"method", "error"}),
		slackLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_slack_rate_limit_waits_total", Help: "Times a Slack call waited out a Retry-After before trying again.",
		}, []string{"method"}),
		reminders: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_reminders_total", Help: "Reminder DMs by outcome (sent, skipped, recovered, busy, not_yet, weekend, failed, unmatched).",
		}, []string{"outcome"}),
		dependencyUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "recordsbot_dependency_up", Help: "1 when the background check last found the dependency (records, slack, store) working, else 0; the logs say why not.",
		}, []string{"dependency"}),
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
	m.guard = newGuardMetrics(reg)
	reg.MustRegister(m.buildInfo, m.requests, m.ackLatency, m.totalLatency, m.recordsCalls, m.slackCalls,
		m.slackErrors, m.slackLimited, m.reminders, m.dependencyUp, m.socketConnects, m.socketUp, m.socketEnvelopes)
	return m
}

// Registry returns the registry the metrics live on; nil for a nil
// *Metrics.
func (m *Metrics) Registry() *prometheus.Registry {
	if m == nil {
		return nil
	}
	return m.reg
}

// SetVersion publishes the running build as recordsbot_build_info.
func (m *Metrics) SetVersion(version string) {
	if m != nil {
		m.buildInfo.Reset()
		m.buildInfo.WithLabelValues(version, runtime.Version()).Set(1)
	}
}

// handleMetrics serves the metrics in Prometheus' text format; 404 when the
// server has none.
func handleMetrics(m *Metrics) http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
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

// slackCall records the outcome of a Slack call as its caller saw it. The
// call itself is counted by SlackTransport, so only failures count here,
// under Slack's error code.
func (m *Metrics) slackCall(method string, err error) {
	if m == nil || err == nil {
		return
	}
	m.slackErrors.WithLabelValues(method, slackErrorLabel(err)).Inc()
}

// slackErrorLabel names a Slack failure for a label. Slack's error codes
// are a bounded set of snake_case words; anything else is "other", so that
// no error text can blow up the label space.
func slackErrorLabel(err error) string {
	if isRateLimited(err) {
		return "ratelimited"
	}
	code := slackapi.ErrorCode(err)
	if code == "" || len(code) > 64 || strings.TrimFunc(code, func(r rune) bool { return r >= 'a' && r <= 'z' || r == '_' }) != "" {
		return "other"
	}
	return code
}

// SlackWait counts a wait a 429 from Slack asked for.
func (m *Metrics) SlackWait(method string) {
	if m != nil {
		m.slackLimited.WithLabelValues(method).Inc()
	}
}

// Reminder counts one reminder outcome: "sent", "skipped", "recovered",
// "busy", "not_yet", "weekend", "failed" or
// "unmatched".
func (m *Metrics) Reminder(outcome string) {
	if m != nil {
		m.reminders.WithLabelValues(outcome).Inc()
	}
}

// DependencyUp sets recordsbot_dependency_up for the dependency name
// ("records", "slack" or "store").
func (m *Metrics) DependencyUp(name string, up bool) {
	if m != nil {
		v := 0.0
		if up {
			v = 1
		}
		m.dependencyUp.WithLabelValues(name).Set(v)
	}
}

func (m *Metrics) socketConnected(up bool) {
	if m == nil {
		return
	}
	if up {
		m.socketConnects.Inc()
		m.socketUp.Set(1)
		return
	}
	m.socketUp.Set(0)
}

// socketEnvelope counts one envelope's fate. The type comes off the wire,
// so only Slack's own types are labels; anything else is "other".
func (m *Metrics) socketEnvelope(typ, outcome string) {
	if m == nil {
		return
	}
	switch typ {
	case socketmode.RequestTypeSlashCommands, socketmode.RequestTypeInteractive, socketmode.RequestTypeEventsAPI:
	case string(socketmode.EventTypeErrorBadMessage), "":
		typ = "unknown"
	default:
		typ = "other"
	}
	m.socketEnvelopes.WithLabelValues(typ, outcome).Inc()
}

// RecordsTransport wraps rt (http.DefaultTransport when nil) so every
// records API call is counted by method, endpoint and status. The client
// retries above the transport, so each attempt counts. Endpoints are
// reduced to their templates so that opaque IDs do not explode the label
// space. A nil *Metrics returns rt unwrapped.
func (m *Metrics) RecordsTransport(rt http.RoundTripper) http.RoundTripper {
	return m.counting(rt, func(r *http.Request, status string) {
		m.recordsCalls.WithLabelValues(r.Method, endpointTemplate(r.URL.EscapedPath()), status).Inc()
	})
}

// SlackTransport wraps rt (http.DefaultTransport when nil) so every call to
// Slack's Web API is counted by method and HTTP status; anything posted
// elsewhere (a response_url) counts as method "response_url". Give it to
// the Slack client and to the client that posts to response_urls. A nil
// *Metrics returns rt unwrapped.
func (m *Metrics) SlackTransport(rt http.RoundTripper) http.RoundTripper {
	return m.counting(rt, func(r *http.Request, status string) {
		m.slackCalls.WithLabelValues(slackapi.Method(r.URL.Path), status).Inc()
	})
}

// counting wraps rt (http.DefaultTransport when nil) so count sees every
// request with its HTTP status, or "error" when no answer came.
func (m *Metrics) counting(rt http.RoundTripper, count func(r *http.Request, status string)) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	if m == nil {
		return rt
	}
	return slackapi.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		status := "error"
		if err == nil {
			status = strconv.Itoa(resp.StatusCode)
		}
		count(r, status)
		return resp, err
	})
}

// endpointTemplate maps ".../api/v1/meetings/FIN%2F1/minutes" to
// "/meetings/{id}/minutes".
func endpointTemplate(path string) string {
	i := strings.Index(path, "/api/v1")
	if i >= 0 {
		path = path[i+len("/api/v1"):]
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) == 1 && parts[0] != "":
		return "/" + parts[0]
	case len(parts) == 2:
		return "/" + parts[0] + "/{id}"
	case len(parts) == 3:
		return "/" + parts[0] + "/{id}/" + parts[2]
	}
	return "other"
}

// SearchBackfill publishes the minutes search backfill's progress, read
// from progress at each scrape: the meetings pages and minutes read in the
// pass under way, and when the last whole pass ended (0 before the first).
func (m *Metrics) SearchBackfill(progress func() (pages, read float64, doneAt time.Time)) {
	if m == nil {
		return
	}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "recordsbot_search_backfill_pages", Help: "Meetings pages the minutes search backfill has read in its pass under way.",
		}, func() float64 { p, _, _ := progress(); return p }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "recordsbot_search_backfill_minutes_read", Help: "Minutes the search backfill has read in its pass under way.",
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
