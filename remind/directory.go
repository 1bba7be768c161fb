package remind

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// directory is the workspace's members as users.list gives them, read once
// per run: a few Tier 2 calls for the whole workspace instead of a Tier 3
// lookup per person.
type directory struct {
	byEmail map[string]string         // lowercased email -> user ID
	zones   map[string]*time.Location // user ID -> their zone, when Slack knows it
}

// loadDirectory pages through users.list, paced to its tier, leaving out
// deleted members and bots. A member's tz that Go does not know leaves them
// in the organisation's zone.
func (j *remindJob) loadDirectory(ctx context.Context) (*directory, error) {
	d := &directory{byEmail: map[string]string{}, zones: map[string]*time.Location{}}
	p := j.deps.Slack.GetUsersPaginated(slack.GetUsersOptionLimit(usersPage))
	pages := 0
	for more := true; more; {
		err := j.slack.call(ctx, "users.list", "", func(ctx context.Context) error {
			var e error
			p, e = p.Next(ctx)
			return e
		})
		if err != nil {
			return nil, fmt.Errorf("users.list: %w", err)
		}
		// The last page has no next cursor; asking again would cost a
		// paced slot for nothing.
		more = p.Cursor != ""
		pages++
		for _, u := range p.Users {
			if u.Deleted || u.IsBot {
				continue
			}
			if e := strings.ToLower(u.Profile.Email); e != "" {
				d.byEmail[e] = u.ID
			}
			if u.TZ != "" {
				if loc, err := time.LoadLocation(u.TZ); err == nil {
					d.zones[u.ID] = loc
				}
			}
		}
	}
	j.log.InfoContext(ctx, "remind: directory read", "pages", pages, "members_with_email", len(d.byEmail))
	return d, nil
}

// match finds the Slack user of each assignee and merges assignees who turn
// out to be the same user. Assignees who match nobody go to the summary's
// Unmatched, and those whose lookup failed to Failed. Without users.list
// (it failed, say for want of users:read) every assignee is looked up by
// email instead, which is slower but still works.
func (j *remindJob) match(ctx context.Context, pending []pendingAssignee) ([]*recipient, error) {
	dir, err := j.loadDirectory(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("match assignees: %w", context.Cause(ctx))
		}
		j.log.WarnContext(ctx, "remind: cannot read the Slack directory; looking each assignee up by email", "error", err)
		dir = &directory{zones: map[string]*time.Location{}}
	}
	j.dir = dir
	ids := make([]string, len(pending))
	errs := make([]error, len(pending))
	g := errgroup.Group{}
	g.SetLimit(j.cfg.Concurrency)
	for i := range pending {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			ids[i], errs[i] = j.slackUser(ctx, pending[i].person)
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
				zone := dir.zones[ids[i]]
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

// slackUser returns the Slack user ID of assignee p, or "" when nobody
// matches: USER_MAP first (it exists to override), then the Slack ID the
// records give, then the email in the directory, and only for an email the
// directory lacks (a guest, a member added since, a directory that could
// not be read) users.lookupByEmail.
func (j *remindJob) slackUser(ctx context.Context, p apiclient.Person) (string, error) {
	if id, ok := j.userMap.SlackID(p); ok {
		return id, nil
	}
	if p.SlackID != "" {
		return p.SlackID, nil
	}
	if p.Email == "" {
		return "", nil
	}
	if id, ok := j.dir.byEmail[strings.ToLower(p.Email)]; ok {
		return id, nil
	}
	var id string
	err := j.slack.call(ctx, "users.lookupByEmail", "", func(ctx context.Context) error {
		u, err := j.deps.Slack.GetUserByEmailContext(ctx, p.Email)
		switch {
		case slackapi.ErrorCode(err) == "users_not_found":
			return nil
		case err != nil:
			return err
		}
		id = u.ID
		if loc, lerr := time.LoadLocation(u.TZ); lerr == nil && u.TZ != "" {
			j.mu.Lock()
			j.dir.zones[u.ID] = loc
			j.mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("users.lookupByEmail: %w", err)
	}
	return id, nil
}

// dmList is the bot's DMs, user ID -> DM ID, from users.conversations
// (types=im): a Tier 3 call per 200 DMs instead of a conversations.open per
// person. Without a ledger the job needs a person's DM only to read its
// history, and a person with no DM yet cannot have been reminded.
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
