package bot_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/wire"
)

// rebuild replaces the harness's bot with one made from deps and the
// harness's default configuration (edited by opts; options that edit the
// dataset do not apply), wired to the harness's fakes the way serve wires
// the real services: one records client and one Slack client, going
// through deps.Metrics' transports like response_url posts, and one
// action domain over both. Nil fields of deps are filled in; the sender
// then speaks to the new bot.
func (h *harness) rebuild(deps bot.Deps, opts ...harnessOption) {
	h.t.Helper()
	cfg := bot.Config{
		SigningSecret: testSecret,
		AckBudget:     2 * time.Second,
		// Every test reads pages from 127.0.0.1; the tests of the public
		// limits set their own.
		Public: bot.PublicLimits{PerClient: 1e6, PerClientBurst: 1e6, RecordsCalls: 1e6, RecordsBurst: 1e6},
	}
	mcfg := h.minutes
	// As serve's: the minutes domain reads the watcher's mark in the
	// store the bot is given.
	if polls, ok := deps.Store.(minutes.States); ok && mcfg.Polls == nil {
		mcfg.Polls = polls
	}
	acfg := actions.Config{PublicURL: mcfg.PublicURL}
	m := deps.Metrics
	rcfg := wire.Records{Options: []apiclient.Option{apiclient.WithTransport(m.RecordsTransport(nil))}}
	scfg := wire.Slack{HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: m.SlackTransport(nil)}}
	for _, o := range opts {
		o(harnessSetup{cfg: &cfg, actions: &acfg, minutes: &mcfg, records: &rcfg, slack: &scfg})
	}
	if deps.HTTPClient == nil {
		deps.HTTPClient = &http.Client{Timeout: 10 * time.Second, Transport: m.SlackTransport(nil)}
	}
	if deps.Logger == nil {
		deps.Logger = testlog.New(h.t)
	}
	svc := bottest.Services(h.t, h.world, wire.Config{Records: rcfg, Slack: scfg, Actions: acfg, Minutes: mcfg}, deps.Now)
	b := svc.Bot(cfg, deps)
	srv := httptest.NewServer(b)
	h.t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(h.t, b.Wait(ctx))
	})
	h.bot, h.http, h.metrics = b, srv, deps.Metrics
	h.actions, h.admins = svc.Actions, acfg.Admins
	h.send = &slacktest.Sender{URL: srv.URL + "/slack/events", Secret: testSecret, Slack: h.slack}
}

// scrape reads GET /metrics as Prometheus would, from the metrics set the
// bot was rebuilt with, served as serve serves it (on METRICS_ADDR, apart
// from the bot's routes).
func (h *harness) scrape() map[string]*dto.MetricFamily {
	h.t.Helper()
	require.NotNil(h.t, h.metrics, "rebuild the harness with a metrics set")
	srv := httptest.NewServer(h.metrics.Handler())
	defer srv.Close()
	req, err := http.NewRequestWithContext(h.t.Context(), http.MethodGet, srv.URL+"/metrics", nil)
	require.NoError(h.t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	require.Equal(h.t, http.StatusOK, resp.StatusCode)
	assert.Contains(h.t, resp.Header.Get("Content-Type"), "text/plain")
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(h.t, err)
	return fams
}

// sample returns the sample of family name whose labels include want, and
// false when there is none.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) (*dto.Metric, bool) {
	f, ok := fams[name]
	if !ok {
		return nil, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m, true
	}
	return nil, false
}

// counter returns a counter's value, 0 when the sample is absent.
func counter(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	m, ok := sample(fams, name, labels)
	if !ok {
		return 0
	}
	return m.GetCounter().GetValue()
}

func TestMetricsCountARealSlashCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{Metrics: metrics.New()})
	alice := h.person("alice")

	h.slash(alice, "/actions", "")
	fams := h.scrape()

	for _, name := range []string{
		"recordsbot_requests_total", "recordsbot_ack_seconds", "recordsbot_request_seconds",
		"recordsbot_records_api_calls_total", "recordsbot_slack_api_calls_total", "go_goroutines",
	} {
		assert.Contains(t, fams, name)
	}
	assert.Equal(t, 1.0, counter(fams, "recordsbot_requests_total", map[string]string{"kind": "command", "command": "/actions", "outcome": "inline"}))
	ack, ok := sample(fams, "recordsbot_ack_seconds", map[string]string{"kind": "command"})
	require.True(t, ok, "an ack latency for commands")
	assert.Equal(t, uint64(1), ack.GetHistogram().GetSampleCount())
	assert.Less(t, ack.GetHistogram().GetSampleSum(), 2.5, "acked within the budget")
	total, ok := sample(fams, "recordsbot_request_seconds", map[string]string{"kind": "command"})
	require.True(t, ok)
	assert.Equal(t, uint64(1), total.GetHistogram().GetSampleCount())
	assert.GreaterOrEqual(t, counter(fams, "recordsbot_records_api_calls_total", map[string]string{"method": "GET", "endpoint": "/actions", "status": "200"}), 1.0)
	assert.GreaterOrEqual(t, counter(fams, "recordsbot_slack_api_calls_total", map[string]string{"method": "users.info", "status": "200"}), 1.0,
		"the bot looked up who asked")
}

func TestMetricsOfADeferredCommandRetriesAndWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{Metrics: metrics.New()}, withConfig(func(c *bot.Config) { c.AckBudget = 100 * time.Millisecond }))
	// One 503 (retried by the client), then a slow answer that outlasts
	// the ack budget.
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Status: http.StatusServiceUnavailable, Times: 1})
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 300 * time.Millisecond, Times: 1})
	// And Slack rate-limits the first try of the follow-up.
	h.slack.InjectFault(slacktest.Fault{Method: slacktest.ResponseMethod, HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1})
	alice := h.person("alice")

	m, r := h.slash(alice, "/actions", "")
	require.Empty(t, m.Text, "deferred: an empty ack")
	h.responses(r.ResponseURLID, 1)
	// The fake records the post before the bot has seen the answer; wait
	// for the follow-up to be over on the bot's side too.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	require.NoError(t, h.bot.Wait(ctx))
	fams := h.scrape()

	assert.Equal(t, 1.0, counter(fams, "recordsbot_requests_total", map[string]string{"kind": "command", "command": "/actions", "outcome": "deferred"}))
	assert.Equal(t, 1.0, counter(fams, "recordsbot_records_api_calls_total", map[string]string{"method": "GET", "endpoint": "/actions", "status": "503"}), "the failed attempt")
	assert.GreaterOrEqual(t, counter(fams, "recordsbot_records_api_calls_total", map[string]string{"method": "GET", "endpoint": "/actions", "status": "200"}), 1.0, "and the retry")
	assert.Equal(t, 1.0, counter(fams, "recordsbot_slack_api_calls_total", map[string]string{"method": "response_url", "status": "429"}), "the refused follow-up")
	assert.Equal(t, 1.0, counter(fams, "recordsbot_slack_rate_limit_waits_total", map[string]string{"method": "response_url"}), "waited out")
	assert.Equal(t, 1.0, counter(fams, "recordsbot_slack_api_errors_total", map[string]string{"method": "response_url"}))
	assert.Equal(t, 1.0, counter(fams, "recordsbot_slack_api_calls_total", map[string]string{"method": "response_url", "status": "200"}), "the follow-up")
	total, ok := sample(fams, "recordsbot_request_seconds", map[string]string{"kind": "command"})
	require.True(t, ok)
	assert.GreaterOrEqual(t, total.GetHistogram().GetSampleSum(), 0.3, "end-to-end time includes the follow-up")
}

// What each series means and which labels it may carry is
// internal/metrics' to test; here, the bot's routes (the public port,
// PORT) serve no /metrics at all, with or without a metrics set: serve
// answers it on METRICS_ADDR only (cmd/recordsbot, TestServeMetricsOwnListener).
func TestMetricsNotOnThePublicPort(t *testing.T) {
	t.Parallel()
	for name, m := range map[string]*metrics.Set{"without metrics": nil, "with metrics": metrics.New()} {
		srv := httptest.NewServer(bottest.Offline(t, bot.Config{}, bot.Deps{Metrics: m}))
		t.Cleanup(srv.Close)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/metrics", nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, "%s: /metrics on the public port", name)
		assert.NotContains(t, string(body), "recordsbot_", name)
	}
}

// A Slack call a surface makes is counted where it is made, in the Slack
// client's transport, once: a Home tab whose views.publish Slack refuses
// counts one call and one error under Slack's code, with no counting line
// in the Home tab's code.
func TestMetricsCountARefusedSlackCallOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{Metrics: metrics.New()})
	h.slack.InjectFault(slacktest.Fault{Method: "views.publish", Error: "not_enabled", Times: 1})
	alice := h.person("alice")

	h.sendEvent(t, "Ev0METRICS", appHomeOpened(alice.ID), 0)
	require.NoError(t, h.bot.Wait(h.waitCtx()))
	fams := h.scrape()

	assert.Equal(t, 1.0, counter(fams, "recordsbot_slack_api_errors_total", map[string]string{"method": "views.publish", "error": "not_enabled"}))
	calls := h.slack.Calls("views.publish")
	published := 0.0
	for _, c := range calls {
		if c.Error == "" {
			published++
		}
	}
	assert.Equal(t, float64(len(calls)), counter(fams, "recordsbot_slack_api_calls_total", map[string]string{"method": "views.publish", "status": "200"}),
		"every attempt counted once, the refused one and the %v that worked", published)
}
