package slackfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// users.list and users.info carry a member's locale only when asked with
// include_locale=true, as Slack documents the argument ("Set this to true
// to receive the locale for users. Defaults to false",
// https://docs.slack.dev/reference/methods/users.list); asked, a member
// who chose none has Slack's default, en-US.
func TestLocaleOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	srv := NewServer(WithUsers(User{ID: "U0FR", Name: "amelie", Locale: "fr-FR"}, User{ID: "U0NONE", Name: "nobody"}))
	t.Cleanup(srv.Close)
	locales := func(method string, form url.Values) map[string]string {
		t.Helper()
		form.Set("token", DefaultToken)
		resp, err := http.Post(srv.APIURL()+method, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		defer resp.Body.Close()
		var body struct {
			Members []map[string]any `json:"members"`
			User    map[string]any   `json:"user"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		if body.User != nil {
			body.Members = append(body.Members, body.User)
		}
		out := map[string]string{}
		for _, m := range body.Members {
			loc, has := m["locale"]
			if !has {
				loc = "(absent)"
			}
			out[m["id"].(string)] = loc.(string)
		}
		return out
	}
	without := locales("users.list", url.Values{})
	assert.Equal(t, "(absent)", without["U0FR"])
	assert.Equal(t, "(absent)", without["U0NONE"])
	with := locales("users.list", url.Values{"include_locale": {"true"}})
	assert.Equal(t, "fr-FR", with["U0FR"])
	assert.Equal(t, "en-US", with["U0NONE"])
	assert.Equal(t, map[string]string{"U0FR": "(absent)"}, locales("users.info", url.Values{"user": {"U0FR"}}))
	assert.Equal(t, map[string]string{"U0FR": "fr-FR"}, locales("users.info", url.Values{"user": {"U0FR"}, "include_locale": {"true"}}))
}
