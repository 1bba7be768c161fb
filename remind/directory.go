package remind

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
)

// loadDirectory pages through users.list, paced to its tier, and tells
// j.people of every member: a few Tier 2 calls for the whole workspace
// instead of a Tier 3 lookup per person. The list carries each member's
// locale, the language of their reminder, when asked with include_locale
// ("Set this to true to receive the locale for users. Defaults to false",
// https://api.slack.com/methods/users.list): no call per person for it.
func (j *remindJob) loadDirectory(ctx context.Context) error {
	p := j.deps.Slack.GetUsersPaginated(slack.GetUsersOptionLimit(usersPage), slack.GetUsersOptionIncludeLocale(true))
	pages := 0
	for more := true; more; {
		err := j.slack.Call(ctx, "users.list", "", func(ctx context.Context) error {
			var e error
			p, e = p.Next(ctx)
			return e
		})
		if err != nil {
			return fmt.Errorf("users.list: %w", err)
		}
		// The last page has no next cursor; asking again would cost a
		// paced slot for nothing.
		more = p.Cursor != ""
		pages++
		j.people.Know(slackusers.Profiles(p.Users))
	}
	j.log.InfoContext(ctx, "remind: directory read", "pages", pages, "members_with_email", j.people.WithEmail())
	return nil
}

// match finds the Slack user of each assignee (actions.Assignees) and
// merges assignees who turn out to be the same user. Assignees who match
// nobody go to the summary's Unmatched, and those whose lookup failed to
// Failed. Without users.list (it failed, say for want of users:read) every
// assignee is looked up by email instead, which is slower but still works.
func (j *remindJob) match(ctx context.Context, pending []pendingAssignee) ([]*recipient, error) {
	if err := j.loadDirectory(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("match assignees: %w", context.Cause(ctx))
		}
		j.log.WarnContext(ctx, "remind: cannot read the Slack directory; looking each assignee up by email", "error", err)
	}
	ids := make([]string, len(pending))
	errs := make([]error, len(pending))
	g := errgroup.Group{}
	g.SetLimit(j.cfg.Concurrency)
	for i := range pending {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			ids[i], errs[i] = j.people.SlackID(ctx, pending[i].person)
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("match assignees: %w", context.Cause(ctx))
	}

	byID := map[string]*recipient{}
	var out []*recipient
	for i, p := range pending {
		label := personLabel(p.person)
		switch {
		case p.dueSoon == 0 && ids[i] == "":
			// Only a weekly summary or a catch-up would have listed
			// them: not reported, as before those existed.
		case errs[i] != nil:
			j.log.ErrorContext(ctx, "remind: assignee lookup failed", "assignee", label, "error", errs[i])
			j.sum.Failed = append(j.sum.Failed, Failure{Who: label, Err: errs[i]})
		case ids[i] == "":
			j.log.WarnContext(ctx, "remind: assignee matches no Slack user", "assignee", label, "actions", len(p.actions))
			j.sum.Unmatched = append(j.sum.Unmatched, UnmatchedAssignee{Assignee: label, Actions: p.dueSoon})
		default:
			r := byID[ids[i]]
			if r == nil {
				zone := j.people.Zone(ids[i])
				if zone == nil {
					zone = j.zone
				}
				r = &recipient{id: ids[i], label: p.person.String(), zone: zone,
					lang: j.deps.Actions.ReaderLanguage(j.people.Locale(ids[i]))}
				byID[ids[i]] = r
				out = append(out, r)
			}
			r.actions = append(r.actions, p.actions...)
		}
	}
	return out, nil
}

// dmOf returns the ID of the bot's DM with user, for the history search
// after an expired claim (the only time the job needs it). It opens the DM
// with conversations.open (im:write), which returns the DM that already
// exists. The bot does not list its DMs (users.conversations), so the app
// needs no im:read scope: an expired claim is rare, and one Tier 3 call
// then costs less than a scope that lets the app list every DM it has.
func (j *remindJob) dmOf(ctx context.Context, user string) (string, bool, error) {
	ch, err := j.openDM(ctx, user)
	return ch, err == nil, err
}
