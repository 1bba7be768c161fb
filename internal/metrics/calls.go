package metrics

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// callMetrics count the calls recordsbot makes: to the records API and to
// Slack (its Web API and response_urls).
type callMetrics struct {
	records      *prometheus.CounterVec
	slack        *prometheus.CounterVec
	slackErrors  *prometheus.CounterVec
	slackLimited *prometheus.CounterVec
}

func newCallMetrics(reg *prometheus.Registry) callMetrics {
	c := callMetrics{
		records: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "recordsbot_records_api_calls_total",
			Help: "HTTP calls to the records API by method, endpoint and status; every retry is a call of its own. Status is \"error\" when no answer came.",
		}, []string{"method", "endpoint", "status"}),
		slack: prometheus.NewCounterVec(prometheus.CounterOpts{
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
	}
	reg.MustRegister(c.records, c.slack, c.slackErrors, c.slackLimited)
	return c
}

// slackFailure names the failure of a Slack call for a label, "" when it
// worked: Slack's error code from an ok:false answer (Slack answers most
// refusals with HTTP 200, https://docs.slack.dev/apis/web-api/#responses),
// "ratelimited" for a 429, "other" for any other HTTP failure or no
// answer. Slack's codes are a bounded set of snake_case words; anything
// else is "other", so that no error text can blow up the label space. A
// Web API answer's body is read (up to maxErrorScan) and put back for the
// caller to read.
func slackFailure(method string, resp *http.Response, err error) string {
	switch {
	case err != nil:
		return "other"
	case resp.StatusCode == http.StatusTooManyRequests:
		return "ratelimited"
	case resp.StatusCode >= 300 || method == "response_url" && resp.StatusCode < 200:
		return "other"
	case method == "response_url" || !strings.Contains(resp.Header.Get("Content-Type"), "json"):
		return ""
	}
	head, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorScan))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if rerr != nil {
		return "" // the caller reads the same failure
	}
	var answer struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	if json.Unmarshal(head, &answer) != nil || answer.OK == nil || *answer.OK {
		return ""
	}
	code := answer.Error
	if code == "" || len(code) > 64 || strings.TrimFunc(code, func(r rune) bool { return r >= 'a' && r <= 'z' || r == '_' }) != "" {
		return "other"
	}
	return code
}

// maxErrorScan is how much of a Slack answer is read for its error code;
// Slack's refusals are small, and an answer larger than this is a
// success.
const maxErrorScan = 1 << 20

// SlackWait counts a wait a 429 from Slack asked for before method was
// tried again.
func (s *Set) SlackWait(method string) {
	if s != nil {
		s.calls.slackLimited.WithLabelValues(method).Inc()
	}
}

// RecordsTransport wraps rt (http.DefaultTransport when nil) so every
// records API call is counted by method, endpoint and status. The client
// retries above the transport, so each attempt counts. Endpoints are
// reduced to their templates so that opaque IDs do not explode the label
// space. A nil *Set returns rt unwrapped.
func (s *Set) RecordsTransport(rt http.RoundTripper) http.RoundTripper {
	return s.counting(rt, func(r *http.Request, _ *http.Response, _ error, status string) {
		s.calls.records.WithLabelValues(r.Method, endpointTemplate(r.URL.EscapedPath()), status).Inc()
	})
}

// SlackTransport wraps rt (http.DefaultTransport when nil) so every call to
// Slack's Web API is counted by method and HTTP status, and every failed
// one by method and Slack's error code (see slackFailure); anything posted
// elsewhere (a response_url) counts as method "response_url". It is the
// one place Slack calls are counted: give it to the Slack client and to
// the client that posts to response_urls, and every surface and job
// calling through them is counted without a line of its own. A nil *Set
// returns rt unwrapped.
func (s *Set) SlackTransport(rt http.RoundTripper) http.RoundTripper {
	return s.counting(rt, func(r *http.Request, resp *http.Response, err error, status string) {
		method := slackapi.Method(r.URL.Path)
		s.calls.slack.WithLabelValues(method, status).Inc()
		if code := slackFailure(method, resp, err); code != "" {
			s.calls.slackErrors.WithLabelValues(method, code).Inc()
		}
	})
}

// counting wraps rt (http.DefaultTransport when nil) so count sees every
// request with its answer and HTTP status, or "error" when no answer came.
func (s *Set) counting(rt http.RoundTripper, count func(r *http.Request, resp *http.Response, err error, status string)) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	if s == nil {
		return rt
	}
	return slackapi.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		status := "error"
		if err == nil {
			status = strconv.Itoa(resp.StatusCode)
		}
		count(r, resp, err, status)
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
