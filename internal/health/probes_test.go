package health_test

import (
	"net/http"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/health"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// The probes against the fake records service and the fake Slack: what
// counts as up, and the reason given when not.
func TestProbes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		records     []recordstest.Option
		slack       []slacktest.Option
		setup       func(*recordstest.Server, *slacktest.Server)
		recordsWant string // "" = up
		slackWant   string
	}{
		"all well": {},
		"slack token refused": {
			slack:     []slacktest.Option{slacktest.WithToken("xoxb-the-real-one")},
			slackWant: "slack auth.test: invalid_auth",
		},
		"slack rate limiting proves the token works": {
			setup: func(_ *recordstest.Server, s *slacktest.Server) {
				s.InjectFault(slacktest.Fault{Method: "auth.test", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1})
			},
		},
		"slack down": {
			setup: func(_ *recordstest.Server, s *slacktest.Server) {
				s.InjectFault(slacktest.Fault{Method: "auth.test", HTTPStatus: http.StatusServiceUnavailable})
			},
			slackWant: "slack auth.test",
		},
		"records key refused": {
			records:     []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{"another-key": recordstest.AllScopes()})},
			recordsWant: "records api",
		},
		"records key without meetings:read still serves actions": {
			records: []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{recordstest.DefaultKey: {recordstest.ScopeActionsRead, recordstest.ScopeActionsWrite}})},
		},
		"records rate limiting proves the service is up": {
			setup: func(r *recordstest.Server, _ *slacktest.Server) {
				r.InjectFault(recordstest.Fault{Status: http.StatusTooManyRequests, RetryAfter: "1"})
			},
		},
		"records down": {
			setup: func(r *recordstest.Server, _ *slacktest.Server) {
				r.InjectFault(recordstest.Fault{Status: http.StatusBadGateway})
			},
			recordsWant: "records api",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rs := recordstest.NewServer(tt.records...)
			t.Cleanup(rs.Close)
			ss := slacktest.NewServer(tt.slack...)
			t.Cleanup(ss.Close)
			if tt.setup != nil {
				tt.setup(rs, ss)
			}
			rc, err := apiclient.NewClient(rs.URL, recordstest.DefaultKey, apiclient.WithRetry(0, 0, 0))
			require.NoError(t, err)
			api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(ss.APIURL()))
			for probe, want := range map[string]string{"records": tt.recordsWant, "slack": tt.slackWant} {
				p := map[string]health.Probe{"records": health.Records(rc), "slack": health.Slack(api)}[probe]
				err := p(t.Context())
				if want == "" {
					assert.NoError(t, err, probe)
					continue
				}
				assert.ErrorContains(t, err, want, probe)
			}
		})
	}
}
