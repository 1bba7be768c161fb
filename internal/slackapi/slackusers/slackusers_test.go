package slackusers_test

import (
	"context"
	"errors"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
)

func TestProfileReadsAUserObject(t *testing.T) {
	var u slack.User
	u.ID, u.Name, u.RealName, u.TZ, u.Locale = "U1", "ana", "Ana Lima", "Europe/Lisbon", "pt-BR"
	u.Profile.Email = "ana@example.org"
	assert.Equal(t, actions.Profile{ID: "U1", Email: "ana@example.org", Name: "Ana Lima", TZ: "Europe/Lisbon", Locale: "pt-BR"}, slackusers.Profile(u))

	u.RealName = ""
	assert.Equal(t, "ana", slackusers.Profile(u).Name, "the handle when there is no real name")
	for _, c := range []struct {
		name string
		mark func(*slack.User)
		want func(actions.Profile) bool
	}{
		{"multi-channel guest", func(u *slack.User) { u.IsRestricted = true }, func(p actions.Profile) bool { return p.Guest }},
		{"single-channel guest", func(u *slack.User) { u.IsUltraRestricted = true }, func(p actions.Profile) bool { return p.Guest }},
		{"deactivated: gone", func(u *slack.User) { u.Deleted = true }, func(p actions.Profile) bool { return p.Gone }},
		{"a bot: gone", func(u *slack.User) { u.IsBot = true }, func(p actions.Profile) bool { return p.Gone }},
	} {
		g := u
		c.mark(&g)
		assert.True(t, c.want(slackusers.Profile(g)), c.name)
	}
}

// The directory asks users.info of the fake Slack, which answers as Slack
// does, locale included.
func TestDirectoryAsksUsersInfo(t *testing.T) {
	s := slacktest.NewServer(slacktest.WithUsers(slacktest.User{ID: "U0ANA", Name: "ana", RealName: "Ana Lima", Email: "ana@example.org", TZ: "Europe/Lisbon", Locale: "pt-BR"}))
	t.Cleanup(s.Close)
	dir := slackusers.Directory(slack.New(slacktest.DefaultToken, slack.OptionAPIURL(s.APIURL())))

	p, err := dir.Profile(context.Background(), "U0ANA")
	require.NoError(t, err)
	assert.Equal(t, actions.Profile{ID: "U0ANA", Email: "ana@example.org", Name: "Ana Lima", TZ: "Europe/Lisbon", Locale: "pt-BR"}, p)

	_, err = dir.Profile(context.Background(), "U0NOBODY")
	assert.Error(t, err, "users.info's user_not_found is an error: the profile is unknown")
}

// users.lookupByEmail's users_not_found means nobody has that email: the
// zero Profile, which matches no assignee; any other error is one.
func TestByEmailNobodyIsNotAnError(t *testing.T) {
	notFound := slackusers.ByEmail(func(context.Context, string) (*slack.User, error) {
		return nil, slack.SlackErrorResponse{Err: "users_not_found"}
	})
	p, err := notFound(context.Background(), "who@example.org")
	require.NoError(t, err)
	assert.Equal(t, actions.Profile{}, p)

	failing := slackusers.ByEmail(func(context.Context, string) (*slack.User, error) {
		return nil, slack.SlackErrorResponse{Err: "ratelimited"}
	})
	_, err = failing(context.Background(), "who@example.org")
	assert.Error(t, err)
	var se slack.SlackErrorResponse
	assert.True(t, errors.As(err, &se), "the Slack error stays readable")
}
