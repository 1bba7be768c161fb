package slackfake

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opts  []Option
		token string
		want  string // error code; "" for success
	}{
		"default token":           {token: DefaultToken},
		"wrong token":             {token: "xoxb-wrong", want: "invalid_auth"},
		"no token":                {token: "", want: "not_authed"},
		"configured token":        {opts: []Option{WithToken("xoxb-other")}, token: "xoxb-other"},
		"default token not taken": {opts: []Option{WithToken("xoxb-other")}, token: DefaultToken, want: "invalid_auth"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := newTestServer(t, tt.opts...)
			api := slackclienttest.Client(srv.APIURL(), tt.token)

			// auth.test sends the token as a form field, views.publish in
			// an Authorization header.
			_, formErr := api.AuthTestContext(t.Context())
			_, jsonErr := api.PublishViewContext(t.Context(), slack.PublishViewContextRequest{
				UserID: "U1", View: slack.HomeTabViewRequest{Type: slack.VTHomeTab},
			})

			for _, err := range []error{formErr, jsonErr} {
				if tt.want == "" {
					require.NoError(t, err)
				} else {
					slackclienttest.RequireSlackError(t, err, tt.want)
				}
			}
			calls := srv.Calls("")
			require.Len(t, calls, 2)
			for _, c := range calls {
				assert.Equal(t, tt.token, c.Token)
				assert.False(t, c.Params.Has("token"), "the token is kept out of Params")
				assert.Equal(t, tt.want, c.Error)
			}
		})
	}
}
