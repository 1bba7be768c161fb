package slackfake

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// Every call made with the accepted bot token names the granted scopes in
// X-OAuth-Scopes, refusals included; calls Slack refuses before it knows
// the token carry none.
func TestOAuthScopesHeader(t *testing.T) {
	t.Parallel()
	header := func(srv *Server, token string) (string, bool) {
		resp, err := slack.New(token, slack.OptionAPIURL(srv.APIURL())).AuthTestContext(t.Context())
		if err != nil {
			return "", false
		}
		v := resp.Header.Values(OAuthScopesHeader)
		if len(v) == 0 {
			return "", false
		}
		return v[0], true
	}

	full := NewServer()
	t.Cleanup(full.Close)
	got, ok := header(full, DefaultToken)
	require.True(t, ok, "auth.test answers X-OAuth-Scopes")
	assert.Equal(t, strings.Join(ManifestScopes(), ", "), got, "without WithScopes, the manifest's scopes")

	some := NewServer(WithScopes("chat:write", "users:read"))
	t.Cleanup(some.Close)
	got, ok = header(some, DefaultToken)
	require.True(t, ok)
	assert.Equal(t, "chat:write, users:read", got)

	// A missing_scope refusal names them too.
	status, hdr := rawHeader(t, some, "users.lookupByEmail", DefaultToken, "email=ann@example.org")
	assert.Equal(t, 200, status)
	assert.Equal(t, "chat:write, users:read", hdr.Get(OAuthScopesHeader))

	// A wrong token gets no scopes.
	_, err := slack.New("xoxb-wrong", slack.OptionAPIURL(some.APIURL())).AuthTestContext(t.Context())
	require.ErrorContains(t, err, "invalid_auth")
	status, hdr = rawHeader(t, some, "auth.test", "xoxb-wrong", "")
	assert.Equal(t, 200, status)
	assert.Empty(t, hdr.Values(OAuthScopesHeader))
}

// ManifestScopes is manifest.yaml's list of bot scopes.
func TestManifestScopesMatchManifest(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../../manifest.yaml")
	require.NoError(t, err)
	var m struct {
		OAuth struct {
			Scopes struct {
				Bot []string `json:"bot"`
			} `json:"scopes"`
		} `json:"oauth_config"`
	}
	require.NoError(t, yaml.Unmarshal(b, &m))
	assert.ElementsMatch(t, m.OAuth.Scopes.Bot, ManifestScopes())
}

// rawHeader calls method with token and a form body, returning the status
// and the response's headers.
func rawHeader(t *testing.T, srv *Server, method, token, form string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.APIURL()+method, strings.NewReader(form))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	return resp.StatusCode, resp.Header
}
