package doctor

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// doctor reads every member's locale from users.list page by page, paced
// to the method's tier (the fake enforces Tier 2 on a clock that runs
// 1,000 times fast, and the pacer waits on it), asks include_locale, and
// leaves out bots and deactivated accounts.
func TestLocalesReadPageByPageWithinTheTier(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewScaledClock(time.Now(), 1000)
	users := []slacktest.User{
		{ID: "U01", Name: "a", Locale: "fr-FR"}, {ID: "U02", Name: "b", Locale: "fr-FR"},
		{ID: "U03", Name: "c", Locale: "de-DE"}, {ID: "U04", Name: "d", Locale: "pt-BR"},
		{ID: "U05", Name: "e"}, {ID: "U06", Name: "f"}, {ID: "U07", Name: "g"},
		{ID: "U08", Name: "h", Locale: "es-ES"}, {ID: "U09", Name: "helper", IsBot: true, Locale: "ja-JP"},
	}
	srv := slacktest.NewServer(slacktest.WithUsers(users...), slacktest.WithTiers(), slacktest.WithClock(clock.Now))
	t.Cleanup(srv.Close)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(srv.APIURL()), slack.OptionHTTPClient(&http.Client{Timeout: 10 * time.Second}))
	pacer := slackapi.NewPacer(slackapi.PacerOptions{Clock: clock})

	c := localesCheck(t.Context(), api, pacer, lang.English, 2, 100)
	require.Equal(t, checkOK, c.Status, c.Text)
	calls := srv.Calls("users.list")
	assert.Greater(t, len(calls), 4, "more than Tier 2's burst of 3: the pacer spaced them")
	for _, call := range calls {
		assert.Equal(t, "true", call.Params.Get("include_locale"), "without it Slack leaves locale out")
		assert.Equal(t, "2", call.Params.Get("limit"))
	}
	assert.Equal(t, "members' Slack locales: 8 members use 5 locales; 1 member reads ORG_LANGUAGE (en), their own not being shipped", c.Text)
	assert.Equal(t, []string{
		"en-US: 3 members, reading English",
		"fr-FR: 2 members, reading Français",
		"de-DE: 1 member, reading Deutsch",
		"es-ES: 1 member, reading Español",
		"pt-BR: 1 member, reading English (ORG_LANGUAGE; pt-BR is not shipped)",
	}, c.Details)

	german, err := lang.Parse("de")
	require.NoError(t, err)
	// With ORG_LANGUAGE German, the unshipped locale reads German; and
	// doctor stops after its last page, saying so.
	c = localesCheck(t.Context(), api, pacer, german, 2, 2)
	assert.True(t, strings.HasSuffix(c.Text, "(the first 2 pages of users.list only: doctor reads no more, to keep within its rate limit)"), c.Text)
	c = localesCheck(t.Context(), api, pacer, german, 999, 5)
	assert.Contains(t, c.Details, "pt-BR: 1 member, reading Deutsch (ORG_LANGUAGE; pt-BR is not shipped)")
}

// A token without users:read cannot list members: advisory, with the fix.
func TestLocalesWithoutUsersRead(t *testing.T) {
	t.Parallel()
	srv := slacktest.NewServer(slacktest.WithScopes("commands", "chat:write"))
	t.Cleanup(srv.Close)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(srv.APIURL()))
	c := localesCheck(t.Context(), api, slackapi.NewPacer(slackapi.PacerOptions{}), lang.English, localesPageSize, localePages)
	assert.Equal(t, checkFailed, c.Status)
	assert.False(t, c.Blocking)
	assert.Contains(t, c.Text, "missing_scope")
	assert.Contains(t, c.Fix, "users:read")
}
