package metrics_test

import (
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/golden"
	"github.com/recordsbot/recordsbot/internal/metrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// scrape reads GET /metrics from s's own handler as Prometheus would.
func scrape(t *testing.T, s *metrics.Set) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/plain")
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// value returns the value of family name's sample whose labels include
// want (a counter's, a gauge's or a histogram's count), 0 when there is
// none.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
next:
	for _, m := range fams[name].GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.GetCounter() != nil:
			return m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			return m.GetGauge().GetValue()
		case m.GetHistogram() != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	return 0
}

// everything touches every series once, so that each vector shows in a
// scrape.
func everything(s *metrics.Set) {
	start := time.Now()
	s.SetVersion("v1")
	s.Request(metrics.Command, "/actions", "inline")
	s.Acked(metrics.Command, start)
	s.Finished(metrics.Command, start)
	s.SlackWait("response_url")
	s.SocketConnected(true)
	s.SocketEnvelope("slash_commands", "acked")
	s.PublicRefused("client_limit")
	s.WorkRejected(metrics.Event)
	s.InFlight(3)
	s.BackgroundPanic()
	s.DependencyUp("records", true)
	s.AuditVerified(audit.Head{Entries: 3}, nil)
	s.SearchBackfill(func() (float64, float64, time.Time) { return 0, 0, time.Time{} })
	rt := s.RecordsTransport(okTransport{})
	st := s.SlackTransport(okTransport{})
	req := httptest.NewRequest(http.MethodGet, "http://records.test/api/v1/actions", nil)
	resp, _ := rt.RoundTrip(req)
	resp.Body.Close()
	resp, _ = st.RoundTrip(httptest.NewRequest(http.MethodPost, "http://slack.test/api/chat.postMessage", nil))
	resp.Body.Close()
	refused := s.SlackTransport(slackAnswer(http.StatusOK, `{"ok":false,"error":"not_in_channel"}`))
	resp, _ = refused.RoundTrip(httptest.NewRequest(http.MethodPost, "http://slack.test/api/chat.postMessage", nil))
	resp.Body.Close()
}

// slackAnswer answers every request with status and body, as JSON when
// the body is an object, else as text, without a network.
func slackAnswer(status int, body string) http.RoundTripper {
	return roundTrip(func(r *http.Request) (*http.Response, error) {
		h := http.Header{"Content-Type": {"text/plain"}}
		if strings.HasPrefix(body, "{") {
			h.Set("Content-Type", "application/json; charset=utf-8")
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// okTransport answers every request 200 with no body, without a network.
type okTransport struct{}

func (okTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
}

// series is one family as dashboards and alerts see it: its name, type,
// help and label names.
type series struct {
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	Help   string   `json:"help"`
	Labels []string `json:"labels,omitempty"`
}

// The names, types and labels of recordsbot's series are what admins'
// dashboards and alerts are written against: the golden file makes any
// change to them a reviewed diff, and every one of them must be
// documented.
func TestSeriesAreStableAndDocumented(t *testing.T) {
	t.Parallel()
	s := metrics.New()
	everything(s)
	fams := scrape(t, s)

	var got []series
	for name, f := range fams {
		if !strings.HasPrefix(name, "recordsbot_") {
			continue
		}
		var labels []string
		for _, l := range f.GetMetric()[0].GetLabel() {
			labels = append(labels, l.GetName())
		}
		got = append(got, series{Name: name, Type: strings.ToLower(f.GetType().String()), Help: f.GetHelp(), Labels: labels})
	}
	slices.SortFunc(got, func(a, b series) int { return strings.Compare(a.Name, b.Name) })
	golden.AssertJSON(t, "series", got, *update)

	var docs strings.Builder
	for _, path := range []string{"../../docs/running-at-scale.md", "../../docs/search.md"} {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		docs.Write(b)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`(recordsbot_[a-z_]+)`").FindAllStringSubmatch(docs.String(), -1) {
		documented[m[1]] = true
	}
	for _, sr := range got {
		assert.True(t, documented[sr.Name], "%s is served on /metrics but not in docs/running-at-scale.md or docs/search.md", sr.Name)
	}
	for name := range documented {
		assert.Contains(t, fams, name, "docs name %s, which /metrics does not serve", name)
	}
}

// Slack calls are counted where they are made, in SlackTransport, failures
// under Slack's own error code: no caller counts its own.
func TestSlackErrorsAreCountedUnderSlacksCode(t *testing.T) {
	t.Parallel()
	s := metrics.New()
	call := func(rt http.RoundTripper, url string) {
		t.Helper()
		resp, err := s.SlackTransport(rt).RoundTrip(httptest.NewRequest(http.MethodPost, url, nil))
		if err != nil {
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		want, _ := io.ReadAll(must(rt.RoundTrip(httptest.NewRequest(http.MethodPost, url, nil))).Body)
		assert.Equal(t, string(want), string(body), "the caller reads the whole answer, as Slack sent it")
	}
	const post = "http://slack.test/api/chat.postMessage"
	call(slackAnswer(http.StatusOK, `{"ok":true,"channel":"C1"}`), post)
	call(slackAnswer(http.StatusOK, `{"ok":false,"error":"not_in_channel"}`), post)
	call(slackAnswer(http.StatusTooManyRequests, ""), post)
	call(slackAnswer(http.StatusOK, `{"ok":false,"error":"Something <odd> from a proxy"}`), post)
	call(failing{}, post)
	call(slackAnswer(http.StatusInternalServerError, "oops"), "http://hooks.slack.test/actions/T0/1/x")
	call(slackAnswer(http.StatusOK, "ok"), "http://hooks.slack.test/actions/T0/1/x")

	fams := scrape(t, s)

	errs := "recordsbot_slack_api_errors_total"
	assert.Equal(t, 1.0, value(fams, errs, map[string]string{"method": "chat.postMessage", "error": "not_in_channel"}))
	assert.Equal(t, 1.0, value(fams, errs, map[string]string{"method": "chat.postMessage", "error": "ratelimited"}), "a 429")
	assert.Equal(t, 2.0, value(fams, errs, map[string]string{"method": "chat.postMessage", "error": "other"}),
		"text that is not a Slack code never becomes a label; no answer at all")
	assert.Equal(t, 1.0, value(fams, errs, map[string]string{"method": "response_url", "error": "other"}))
	assert.Len(t, fams[errs].GetMetric(), 4, "a call that worked counts nothing here (recordsbot_slack_api_calls_total counts it)")
	calls := "recordsbot_slack_api_calls_total"
	assert.Equal(t, 3.0, value(fams, calls, map[string]string{"method": "chat.postMessage", "status": "200"}), "every call counted once, refused or not")
	assert.Equal(t, 1.0, value(fams, calls, map[string]string{"method": "chat.postMessage", "status": "429"}))
	assert.Equal(t, 1.0, value(fams, calls, map[string]string{"method": "chat.postMessage", "status": "error"}))
}

func must(resp *http.Response, err error) *http.Response {
	if err != nil {
		panic(err)
	}
	return resp
}

func TestLabelsStayBounded(t *testing.T) {
	t.Parallel()
	// A records server and a Slack stand-in that answer anything, so the
	// transports see the paths the clients really send.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ratelimited") {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	t.Cleanup(echo.Close)
	s := metrics.New()
	records := &http.Client{Transport: s.RecordsTransport(nil)}
	slackHC := &http.Client{Transport: s.SlackTransport(nil)}
	get := func(c *http.Client, path string) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, echo.URL+path, nil)
		require.NoError(t, err)
		resp, err := c.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	get(records, "/api/v1/actions")
	get(records, "/api/v1/actions/A-1")
	get(records, "/api/v1/actions/A-2")
	get(records, "/api/v1/meetings/FIN%2F2024%2F03/minutes")
	get(records, "/api/v1/a/b/c/d")
	get(slackHC, "/api/chat.postMessage")
	get(slackHC, "/api/ratelimited")
	get(slackHC, "/commands/T0/123/secret-looking-hook")
	s.SocketEnvelope("slash_commands", "acked")
	s.SocketEnvelope("", "unreadable")
	s.SocketEnvelope("some_new_type_or_garbage", "acked")

	fams := scrape(t, s)

	calls := "recordsbot_records_api_calls_total"
	assert.Equal(t, 1.0, value(fams, calls, map[string]string{"endpoint": "/actions"}))
	assert.Equal(t, 2.0, value(fams, calls, map[string]string{"endpoint": "/actions/{id}"}), "IDs collapse into one label")
	assert.Equal(t, 1.0, value(fams, calls, map[string]string{"endpoint": "/meetings/{id}/minutes"}))
	assert.Equal(t, 1.0, value(fams, calls, map[string]string{"endpoint": "other"}), "deeper paths are one label")
	slackCalls := "recordsbot_slack_api_calls_total"
	assert.Equal(t, 1.0, value(fams, slackCalls, map[string]string{"method": "chat.postMessage", "status": "200"}))
	assert.Equal(t, 1.0, value(fams, slackCalls, map[string]string{"method": "ratelimited", "status": "429"}))
	assert.Equal(t, 1.0, value(fams, slackCalls, map[string]string{"method": "response_url", "status": "200"}),
		"a response_url is one label, never its path")
	for _, metric := range fams[slackCalls].GetMetric() {
		for _, l := range metric.GetLabel() {
			assert.NotContains(t, l.GetValue(), "secret-looking-hook")
		}
	}
	env := "recordsbot_socket_envelopes_total"
	assert.Equal(t, 1.0, value(fams, env, map[string]string{"type": "slash_commands", "outcome": "acked"}))
	assert.Equal(t, 1.0, value(fams, env, map[string]string{"type": "unknown", "outcome": "unreadable"}))
	assert.Equal(t, 1.0, value(fams, env, map[string]string{"type": "other", "outcome": "acked"}), "a type Slack does not send is one label")
}

func TestTransportCountsCallsWithNoAnswerAsError(t *testing.T) {
	t.Parallel()
	s := metrics.New()
	refused := s.RecordsTransport(failing{})
	_, err := refused.RoundTrip(httptest.NewRequest(http.MethodGet, "http://records.test/api/v1/actions/A-1", nil))
	require.Error(t, err)

	fams := scrape(t, s)

	assert.Equal(t, 1.0, value(fams, "recordsbot_records_api_calls_total", map[string]string{"method": "GET", "endpoint": "/actions/{id}", "status": "error"}))
}

// failing fails every request as a broken connection does.
type failing struct{}

func (failing) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("connection reset")
}

func TestBuildInfoJobsAndGuards(t *testing.T) {
	t.Parallel()
	s := metrics.New()
	s.SetVersion("v1.2.3")
	s.DependencyUp("records", true)
	s.AuditVerified(audit.Head{Entries: 3}, nil)
	s.DependencyUp("store", true)
	s.DependencyUp("store", false)
	s.SocketConnected(true)
	s.SocketConnected(false)
	s.SocketConnected(true)
	s.InFlight(7)
	s.WorkRejected(metrics.Interaction)
	s.PublicRefused("records_cap")
	pages, read, done := 3.0, 40.0, time.Time{}
	s.SearchBackfill(func() (float64, float64, time.Time) { return pages, read, done })

	fams := scrape(t, s)

	assert.Equal(t, 1.0, value(fams, "recordsbot_build_info", map[string]string{"version": "v1.2.3"}))
	assert.Equal(t, 1.0, value(fams, "recordsbot_dependency_up", map[string]string{"dependency": "records"}))
	assert.Equal(t, 0.0, value(fams, "recordsbot_dependency_up", map[string]string{"dependency": "store"}), "the last check wins")
	assert.Equal(t, 1.0, value(fams, "recordsbot_socket_connected", nil))
	assert.Equal(t, 2.0, value(fams, "recordsbot_socket_connections_total", nil), "a reconnection counts")
	assert.Equal(t, 7.0, value(fams, "recordsbot_work_in_flight", nil))
	assert.Equal(t, 1.0, value(fams, "recordsbot_work_rejected_total", map[string]string{"kind": "interaction"}))
	assert.Equal(t, 1.0, value(fams, "recordsbot_public_refused_total", map[string]string{"reason": "records_cap"}))
	assert.Equal(t, 3.0, value(fams, "recordsbot_search_backfill_pages", nil))
	assert.Equal(t, 40.0, value(fams, "recordsbot_search_backfill_minutes_read", nil))
	assert.Zero(t, value(fams, "recordsbot_search_backfill_done_timestamp_seconds", nil), "no pass finished yet")
	done = time.Unix(1_800_000_000, 0)
	assert.Equal(t, 1.8e9, value(scrape(t, s), "recordsbot_search_backfill_done_timestamp_seconds", nil), "read at each scrape")
	assert.Contains(t, fams, "go_goroutines", "the runtime collector")
	assert.Contains(t, fams, "process_start_time_seconds", "the process collector")
}

func TestNilSetRecordsNothingAndServesNoEndpoint(t *testing.T) {
	t.Parallel()
	var s *metrics.Set

	everything(s)
	assert.Nil(t, s.Registry())
	assert.Equal(t, http.DefaultTransport, s.RecordsTransport(nil))
	assert.Equal(t, http.DefaultTransport, s.SlackTransport(nil))
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code, "no metrics, no endpoint")
}
