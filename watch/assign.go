package watch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/store"
)

// dmGroup is the actions newly assigned to one Slack user at one meeting:
// one DM.
type dmGroup struct {
	user    string
	meeting string
	actions []*apiclient.Action
	// reassigned stays true while every action had another assignee
	// before.
	reassigned bool
}

// assignments DMs people about actions newly assigned or reassigned to
// them since the last poll, one DM per person and meeting, and records
// what it saw. The first poll only records (the baseline).
func (p *poll) assignments(ctx context.Context) error {
	st := p.deps.Store
	list, err := p.deps.Actions.List(ctx, "")
	if err != nil {
		return fmt.Errorf("read actions: %w", err)
	}
	p.sum.Actions = len(list.Actions)
	p.list = list
	_, baselined, err := st.GetState(ctx, stateBaselined)
	if err != nil {
		return err
	}
	if !baselined {
		return p.baselineAssignees(ctx, list)
	}
	seen, err := st.SeenAssignees(ctx)
	if err != nil {
		return err
	}

	// record is what this poll has settled: the action's assignee as seen.
	// Actions left out (their DM failed) lose their old entry below, so the
	// next poll finds them new again and retries.
	record := map[string]string{}
	groups, lookupErrs := p.newAssignments(ctx, list, seen, record)
	if err := p.tellAssignees(ctx, groups, record); err != nil {
		return err
	}
	if err := st.RecordAssignees(ctx, record, p.now); err != nil {
		return err
	}
	// A truncated list does not say which actions closed: forgetting the
	// rest would make them new again when they come back into view.
	if !list.Truncated {
		if _, err := st.ForgetAssigneesSeenBefore(ctx, p.now); err != nil {
			return err
		}
	}
	if err := errors.Join(lookupErrs...); err != nil {
		p.sum.Failed += len(lookupErrs)
		p.log.ErrorContext(ctx, "watch: Slack user lookups failed; those DMs wait for the next poll", "error", err)
	}
	return nil
}

// baselineAssignees records every action's assignee as seen, with no DM:
// the first poll's baseline.
func (p *poll) baselineAssignees(ctx context.Context, list *apiclient.ActionList) error {
	current := map[string]string{}
	for i := range list.Actions {
		current[list.Actions[i].ID] = assigneeKey(list.Actions[i].Assignee)
	}
	if err := p.deps.Store.RecordAssignees(ctx, current, p.now); err != nil {
		return err
	}
	p.sum.ActionsBaseline = true
	return p.deps.Store.SetState(ctx, stateBaselined, p.now.UTC().Format(time.RFC3339))
}

// newAssignments groups the actions of list whose assignee differs from
// the one seen before, by Slack user and meeting; the actions with
// nothing to tell (unchanged, unassigned, or no Slack user for the
// assignee) go straight into record. The errors are the Slack user
// lookups that failed: those actions are left out, to be tried again.
func (p *poll) newAssignments(ctx context.Context, list *apiclient.ActionList, seen, record map[string]string) (map[[2]string]*dmGroup, []error) {
	groups := map[[2]string]*dmGroup{}
	var lookupErrs []error
	for i := range list.Actions {
		a := &list.Actions[i]
		k := assigneeKey(a.Assignee)
		prev, known := seen[a.ID]
		if known && prev != "" && prev != k {
			// Reassigned: a snooze silenced the old assignee's
			// reminders of it, and ends with it theirs. A
			// failure is logged; /actions snoozed ends it when read.
			if err := p.deps.Store.EndSnoozes(ctx, a.ID); err != nil {
				p.log.WarnContext(ctx, "watch: could not end the snoozes of a reassigned action", "action", a.ID, "error", err)
			}
		}
		if k == "" || known && prev == k {
			record[a.ID] = k
			continue
		}
		user, err := p.people.SlackID(ctx, a.Assignee)
		if err != nil {
			lookupErrs = append(lookupErrs, err)
			continue
		}
		if user == "" {
			p.sum.Unmatched++
			p.log.InfoContext(ctx, "watch: no Slack user for a new assignee; no DM", "action", a.ID, "assignee", a.Assignee.String())
			record[a.ID] = k
			continue
		}
		gk := [2]string{user, a.MeetingID}
		g := groups[gk]
		if g == nil {
			g = &dmGroup{user: user, meeting: a.MeetingID, reassigned: true}
			groups[gk] = g
		}
		g.actions = append(g.actions, a)
		g.reassigned = g.reassigned && known && prev != ""
	}
	return groups, lookupErrs
}

// tellAssignees tells each group's person of their new actions, in the
// order of person and meeting, as their settings say (a DM, held for
// their catch-up, or nothing), and records the actions of each group
// told.
func (p *poll) tellAssignees(ctx context.Context, groups map[[2]string]*dmGroup, record map[string]string) error {
	users := make([]string, 0, len(groups))
	for gk := range groups {
		users = append(users, gk[0])
	}
	settings, err := p.deps.Store.SettingsFor(ctx, users)
	if err != nil {
		return err
	}
	keys := make([][2]string, 0, len(groups))
	for gk := range groups {
		keys = append(keys, gk)
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, gk := range keys {
		g := groups[gk]
		o, err := p.tellAssignee(ctx, g, p.cfg.Notify.Effective(settings[g.user]))
		if err != nil {
			return err
		}
		if o == once.Sent {
			p.sum.DMs++
		}
		if o.Done() {
			for _, a := range g.actions {
				record[a.ID] = assigneeKey(a.Assignee)
			}
		}
	}
	return nil
}

// tellAssignee tells g's person of their new actions as their settings
// eff say: a DM; held for their catch-up DM while they are away; or, with
// assignment DMs off, nothing (done all the same).
func (p *poll) tellAssignee(ctx context.Context, g *dmGroup, eff store.Effective) (once.Outcome, error) {
	if !eff.AssignDMs {
		p.sum.DMsOff++
		return once.Already, nil
	}
	// Someone away hears of it in their catch-up DM instead
	// (remind): held until it goes out.
	holding, err := p.deps.Store.Holding(ctx, g.user)
	if err != nil {
		return once.Failed, err
	}
	if !holding {
		return p.dm(ctx, g), nil
	}
	ids := make([]string, 0, len(g.actions))
	for _, a := range g.actions {
		ids = append(ids, a.ID)
	}
	if err := p.deps.Store.Hold(ctx, g.user, ids); err != nil {
		return once.Failed, err
	}
	p.sum.DMsHeld++
	return once.Already, nil
}

// assigneeKey names an assignee for comparing polls: the same person the
// records name the same way gives the same key; "" is nobody. It is a hash
// of how the records name them (an email, a Slack ID, an ID or a name), so
// the store keeps no emails (store/doc.go: ids, names, timestamps and
// statuses only): noticing a new assignee needs only equality.
func assigneeKey(p apiclient.Person) string {
	var k string
	switch {
	case p.Email != "":
		k = "email:" + strings.ToLower(p.Email)
	case p.SlackID != "":
		k = "slack:" + p.SlackID
	case p.ID != "":
		k = "id:" + p.ID
	case p.Name != "":
		k = "name:" + strings.ToLower(p.Name)
	default:
		return ""
	}
	h := sha256.Sum256([]byte(k))
	return hex.EncodeToString(h[:16])
}

// assignKey is the ledger key of one assignment DM: the person, the
// meeting and a hash of the sorted action IDs, so the same news gets the
// same key on every poll and every replica.
func assignKey(user, meeting string, ids []string) string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	h := sha256.Sum256([]byte(strings.Join(ids, "\x00")))
	return "assign/" + user + "/" + cmp.Or(meeting, "-") + "/" + hex.EncodeToString(h[:8])
}

// readerLang is the language of user's DMs: their Slack locale when
// recordsbot ships it, else ORG_LANGUAGE. The locale comes with the
// profile the action domain caches (users.info with include_locale), one
// lookup per person DMed, not per poll; when Slack cannot say, the DM is
// in ORG_LANGUAGE rather than waiting.
func (p *poll) readerLang(ctx context.Context, user string) lang.Lang {
	m, err := p.deps.Actions.Who(ctx, user)
	if err != nil {
		p.log.InfoContext(ctx, "watch: no Slack profile for the assignment DM's language; ORG_LANGUAGE", "user", user, "error", err)
	}
	return p.deps.Actions.ReaderLanguage(m.Locale)
}

// dm sends g's one DM. Posting to the user ID makes Slack open the bot's
// DM with them and post there (slackapi/bolt-js#1585); its history is read
// through the DM's own ID, which conversations.open returns.
func (p *poll) dm(ctx context.Context, g *dmGroup) once.Outcome {
	ids := make([]string, len(g.actions))
	for i, a := range g.actions {
		ids[i] = a.ID
	}
	key := assignKey(g.user, g.meeting, ids)
	first := g.actions[0]
	asg := blocks.Assignment{
		Lang:       p.readerLang(ctx, g.user),
		Committee:  first.Committee,
		Meeting:    cmp.Or(first.MeetingTitle, first.MeetingID),
		Reassigned: g.reassigned,
	}
	for _, a := range g.actions {
		asg.Rows = append(asg.Rows, p.row(a))
	}
	msg := blocks.AssignmentMessage(asg)
	o, _ := p.once(ctx, once.Work{
		Key: key,
		Conversation: func(ctx context.Context) (string, error) {
			ch, _, _, err := p.deps.Slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{g.user}})
			if err != nil {
				return "", fmt.Errorf("open DM with %s: %w", g.user, err)
			}
			return ch.ID, nil
		},
		Post: func(ctx context.Context) (string, error) {
			_, ts, err := p.deps.Slack.PostMessageContext(ctx, g.user,
				slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.AssignmentMetadata(key, g.meeting, ids)))
			return ts, err
		},
	})
	return o
}

// row is a as its assignee sees it (the DM goes to them): the actions
// domain's one rule, the same row /actions and reminders draw.
func (p *poll) row(a *apiclient.Action) blocks.ActionRow {
	return blocks.RowOf(a, actions.AssigneeView(actions.Due(a, p.now, p.zone, nil, 0)), p.deps.Actions.Link(a.ID), nil)
}
