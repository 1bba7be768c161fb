package bot_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// readiness is a probe of a fake records service and a fake Slack, and a
// bot serving /readyz from it.
type readiness struct {
	t       *testing.T
	records *recordstest.Server
	slack   *slacktest.Server
	probe   *bot.ReadinessProbe
	metrics *bot.Metrics
	http    *httptest.Server
}

func newReadiness(t *testing.T, records []recordstest.Option, slackOpts []slacktest.Option) *readiness {
	t.Helper()
	r := &readiness{t: t, metrics: bot.NewMetrics()}
	r.records = recordstest.NewServer(records...)
	t.Cleanup(r.records.Close)
	r.slack = slacktest.NewServer(slackOpts...)
	t.Cleanup(r.slack.Close)
	// No retries: a probe that answers at once keeps the test fast.
	rc, err := apiclient.NewClient(r.records.URL, recordstest.DefaultKey, apiclient.WithRetry(0, 0, 0))
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(r.slack.APIURL()))
	r.probe = bot.NewReadiness(rc, api, testLogger(t), r.metrics)
	r.http = httptest.NewServer(bot.NewServer(bot.Config{}, bot.Deps{Ready: r.probe.Err, Metrics: r.metrics}))
	t.Cleanup(r.http.Close)
	return r
}

// get returns the status and body of GET path.
func (r *readiness) get(path string) (int, string) {
	r.t.Helper()
	req, err := http.NewRequestWithContext(r.t.Context(), http.MethodGet, r.http.URL+path, nil)
	require.NoError(r.t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(r.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(r.t, err)
	return resp.StatusCode, string(b)
}

func TestReadinessFlipsWhenTheRecordsAPIGoesAway(t *testing.T) {
	t.Parallel()
	r := newReadiness(t, nil, nil)

	code, body := r.get("/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code, "not ready before the first check")
	assert.Contains(t, body, "starting")

	require.NoError(t, r.probe.Check(t.Context()))
	code, body = r.get("/readyz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ready\n", body)

	r.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	err := r.probe.Check(t.Context())
	require.ErrorIs(t, err, apiclient.ErrUnavailable)
	code, body = r.get("/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "not ready: records api:", "the reason is given")
	code, _ = r.get("/healthz")
	assert.Equal(t, http.StatusOK, code, "liveness does not depend on the records service")
	fams := (&harness{t: t, http: r.http}).scrape()
	up, ok := sample(fams, "recordsbot_dependency_up", map[string]string{"dependency": "records"})
	require.True(t, ok)
	assert.Equal(t, 0.0, up.GetGauge().GetValue())

	r.records.ClearFaults()
	require.NoError(t, r.probe.Check(t.Context()))
	code, _ = r.get("/readyz")
	assert.Equal(t, http.StatusOK, code, "ready again once it answers")

	r.records.Close() // gone altogether: connections refused
	require.Error(t, r.probe.Check(t.Context()))
	code, body = r.get("/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "records api")
}

func TestReadinessChecks(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		records []recordstest.Option
		slack   []slacktest.Option
		setup   func(*readiness)
		want    string // "" = ready
	}{
		"all well": {},
		"slack token refused": {
			slack: []slacktest.Option{slacktest.WithToken("xoxb-the-real-one")},
			want:  "slack auth.test: invalid_auth",
		},
		"slack rate limiting proves the token works": {
			setup: func(r *readiness) {
				r.slack.InjectFault(slacktest.Fault{Method: "auth.test", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1})
			},
		},
		"slack down": {
			setup: func(r *readiness) {
				r.slack.InjectFault(slacktest.Fault{Method: "auth.test", HTTPStatus: http.StatusServiceUnavailable})
			},
			want: "slack auth.test",
		},
		"records key refused": {
			records: []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{"another-key": recordstest.AllScopes()})},
			want:    "records api",
		},
		"records key without meetings:read still serves actions": {
			records: []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{recordstest.DefaultKey: {recordstest.ScopeActionsRead, recordstest.ScopeActionsWrite}})},
		},
		"records rate limiting proves the service is up": {
			setup: func(r *readiness) {
				r.records.InjectFault(recordstest.Fault{Status: http.StatusTooManyRequests, RetryAfter: "1"})
			},
		},
		"both down, both reasons": {
			slack: []slacktest.Option{slacktest.WithToken("xoxb-the-real-one")},
			setup: func(r *readiness) { r.records.InjectFault(recordstest.Fault{Status: http.StatusBadGateway}) },
			want:  "slack auth.test: invalid_auth\nrecords api",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := newReadiness(t, tt.records, tt.slack)
			if tt.setup != nil {
				tt.setup(r)
			}

			err := r.probe.Check(t.Context())

			if tt.want == "" {
				require.NoError(t, err)
				assert.NoError(t, r.probe.Err())
				return
			}
			require.ErrorContains(t, err, tt.want)
			assert.Equal(t, err, r.probe.Err())
		})
	}
}

func TestReadinessRunRechecksSoonWhileNotReady(t *testing.T) {
	t.Parallel()
	r := newReadiness(t, nil, nil)
	r.probe.Interval = time.Hour // only the retry interval can bring it back
	r.probe.RetryInterval = 10 * time.Millisecond
	r.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { defer close(done); r.probe.Run(ctx) }()

	require.Eventually(t, func() bool { err := r.probe.Err(); return err != nil && strings.Contains(err.Error(), "records api") },
		5*time.Second, 5*time.Millisecond, "the first check runs at once")
	r.records.ClearFaults()
	require.Eventually(t, func() bool { return r.probe.Err() == nil }, 5*time.Second, 5*time.Millisecond, "and it comes back without waiting an hour")

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when its context ended")
	}
}
