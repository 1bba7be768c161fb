// Package slackusers reads Slack's user objects as the action domain's
// profiles: the one adapter between slack-go's slack.User and
// actions.Profile, so that the domain knows nothing of Slack and the reading of a user object is written once, for
// users.info (the commands' profile cache), users.lookupByEmail and
// users.list (the jobs' assignee matching).
package slackusers

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// Profile is what the action domain needs of u
// (https://api.slack.com/types/user).
func Profile(u slack.User) actions.Profile {
	name := u.RealName
	if name == "" {
		name = u.Name
	}
	return actions.Profile{
		ID:     u.ID,
		Email:  u.Profile.Email,
		Name:   name,
		TZ:     u.TZ,
		Locale: u.Locale,
		// is_restricted is a multi-channel guest, is_ultra_restricted a
		// single-channel one.
		Guest: u.IsRestricted || u.IsUltraRestricted,
		Gone:  u.Deleted || u.IsBot,
	}
}

// Profiles is Profile of each member of a users.list page.
func Profiles(members []slack.User) []actions.Profile {
	ps := make([]actions.Profile, len(members))
	for i, u := range members {
		ps[i] = Profile(u)
	}
	return ps
}

// UserInfo is the part of the Web API that Directory reads;
// *slack.Client implements it.
type UserInfo interface {
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
}

// Directory is actions.Directory over users.info.
func Directory(api UserInfo) actions.Directory { return directory{api} }

type directory struct{ api UserInfo }

// Profile asks users.info. slack-go sends include_locale=true by default,
// so the profile carries the user's locale.
func (d directory) Profile(ctx context.Context, user string) (actions.Profile, error) {
	u, err := d.api.GetUserInfoContext(ctx, user)
	if err != nil {
		return actions.Profile{}, err
	}
	return Profile(*u), nil
}

// ByEmail is actions.LookupByEmail over lookup (users.lookupByEmail:
// (*slack.Client).GetUserByEmailContext, or a paced call of it). Slack's
// users_not_found (https://api.slack.com/methods/users.lookupByEmail) is
// nobody, the zero Profile, not an error.
func ByEmail(lookup func(ctx context.Context, email string) (*slack.User, error)) actions.LookupByEmail {
	return func(ctx context.Context, email string) (actions.Profile, error) {
		u, err := lookup(ctx, email)
		switch {
		case slackapi.ErrorCode(err) == "users_not_found":
			return actions.Profile{}, nil
		case err != nil:
			return actions.Profile{}, err
		}
		return Profile(*u), nil
	}
}
