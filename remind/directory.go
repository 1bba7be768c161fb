package remind

import (
	"context"
	"fmt"
	"sync"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"
)

// loadDirectory pages through users.list, paced to its tier, and tells
// j.people of every member: a few Tier 2 calls for the whole workspace
// instead of a Tier 3 lookup per person.
func (j *remindJob) loadDirectory(ctx context.Context) error {
	p := j.deps.Slack.GetUsersPaginated(slack.GetUsersOptionLimit(usersPage))
	pages := 0
	for more := true; more; {
		err := j.slack.call(ctx, "users.list", "", func(ctx context.Context) error {
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
		j.people.Know(p.Users)
	}
	j.log.InfoContext(ctx, "remind: directory read", "pages", pages, "members_with_email", j.people.Known())
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
		case errs[i] != nil:
			j.log.ErrorContext(ctx, "remind: assignee lookup failed", "assignee", label, "error", errs[i])
			j.sum.Failed = append(j.sum.Failed, Failure{Who: label, Err: errs[i]})
			j.count("failed")
		case ids[i] == "":
			j.log.WarnContext(ctx, "remind: assignee matches no Slack user", "assignee", label, "actions", len(p.actions))
			j.sum.Unmatched = append(j.sum.Unmatched, UnmatchedAssignee{Assignee: label, Actions: len(p.actions)})
			j.count("unmatched")
		default:
			r := byID[ids[i]]
			if r == nil {
				zone := j.people.Zone(ids[i])
				if zone == nil {
					zone = j.cfg.Zone
				}
				r = &recipient{id: ids[i], label: p.person.String(), zone: zone}
				byID[ids[i]] = r
				out = append(out, r)
			}
			r.actions = append(r.actions, p.actions...)
		}
	}
	return out, nil
}

// dmList is the bot's DMs, user ID -> DM ID, from users.conversations
// (types=im): a Tier 3 call per 200 DMs instead of a conversations.open per
// person. The job needs a person's DM only to read its history after an
// expired claim, and a person with no DM yet cannot have been reminded.
type dmList struct {
	once sync.Once
	ids  map[string]string
	err  error
}

// dmOf returns the ID of the bot's DM with user and whether there is one.
// When the DMs cannot be listed (say for want of im:read) it opens the DM
// with conversations.open instead.
func (j *remindJob) dmOf(ctx context.Context, user string) (string, bool, error) {
	j.dms.once.Do(func() { j.dms.ids, j.dms.err = j.listDMs(ctx) })
	if j.dms.err != nil {
		ch, err := j.openDM(ctx, user)
		return ch, err == nil, err
	}
	ch, ok := j.dms.ids[user]
	return ch, ok, nil
}

// listDMs pages through users.conversations for the bot's DMs.
func (j *remindJob) listDMs(ctx context.Context) (map[string]string, error) {
	ids := map[string]string{}
	cursor := ""
	for pages := 1; ; pages++ {
		var chans []slack.Channel
		err := j.slack.call(ctx, "users.conversations", "", func(ctx context.Context) error {
			var err error
			chans, cursor, err = j.deps.Slack.GetConversationsForUserContext(ctx, &slack.GetConversationsForUserParameters{
				Types: []string{"im"}, Limit: usersPage, Cursor: cursor,
			})
			return err
		})
		if err != nil {
			j.log.WarnContext(ctx, "remind: cannot list the bot's DMs; opening each instead", "error", err)
			return nil, fmt.Errorf("users.conversations: %w", err)
		}
		for _, c := range chans {
			if c.User != "" {
				ids[c.User] = c.ID
			}
		}
		if cursor == "" {
			j.log.InfoContext(ctx, "remind: DMs listed", "pages", pages, "dms", len(ids))
			return ids, nil
		}
	}
}
