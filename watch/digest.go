package watch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// snapEntry is what a digest remembers of one action (store.Digest's
// Snapshot): its assignee's key (a hash, as seen_actions keeps it) and
// whether it was overdue. No action text is stored.
type snapEntry struct {
	Assignee string `json:"a,omitempty"`
	Overdue  bool   `json:"o,omitempty"`
}

// digestKey is the ledger key of the digest of a follow for the slot
// dated slot (local YYYY-MM-DD): one a week per follow.
func digestKey(channel, committeeKey, slot string) string {
	return "digest/" + channel + "/" + committeeKey + "/" + slot
}

// digests posts each follow's weekly digest that is due: the follow's
// slot this week (its own schedule, else Config.Digest) has passed and no
// digest was posted this calendar week (Monday to Sunday in Config.Zone). A follow made after the slot, or whose
// digest was turned back on or rescheduled after it (store.Digest's
// ResumedAt), waits for the next one. list is the poll's list of
// actions still to do (nil: read it).
func (p *poll) digests(ctx context.Context, list *apiclient.ActionList) error {
	follows, err := p.deps.Store.AllFollows(ctx)
	if err != nil {
		return fmt.Errorf("read follows: %w", err)
	}
	var errs []error
	for _, f := range follows {
		// The channel's "digest" choice in /minutes following (or
		// FOLLOW_DEFAULTS) silences it whatever its schedule.
		if !p.rules.Hears(f, store.HearDigest) {
			continue
		}
		d, err := p.deps.Store.Digest(ctx, f.ChannelID, f.CommitteeKey)
		if err != nil {
			return err
		}
		// Its own slot, else the organisation's (follows.Rules): none
		// when that is off.
		if !p.rules.HearsDigest(f, d) {
			continue
		}
		sched := p.rules.Schedule(d)
		slot := sched.Slot(p.now, p.zone)
		slotDate := slot.Format(time.DateOnly)
		// At most one digest a calendar week: a digest moved later in the
		// week after this week's went out (Monday to Thursday) comes at
		// its new time next week, not a second time this week. A follow
		// made, or a digest turned back on or rescheduled, after the slot
		// waits for the next one: no back-dated digest.
		if d.LastSlot == slotDate || sameWeek(d.LastSlot, slot) || slot.Before(f.At) || slot.Before(d.ResumedAt) {
			continue
		}
		if list == nil {
			if list, err = p.deps.Actions.List(ctx, ""); err != nil {
				return fmt.Errorf("read actions: %w", err)
			}
		}
		if err := p.digest(ctx, f, d, slotDate, list); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sameWeek reports whether day, a local date (YYYY-MM-DD, as
// store.Digest.LastSlot keeps it), falls in slot's calendar week: Monday
// to Sunday (ISO 8601) in slot's zone. A week, not seven days back from
// the slot: a digest moved from Thursday to Monday comes on the Monday
// after, as the channel asked, rather than eleven days after the last.
func sameWeek(day string, slot time.Time) bool {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return false
	}
	y1, w1 := d.ISOWeek()
	y2, w2 := slot.ISOWeek()
	return y1 == y2 && w1 == w2
}

// digest posts one follow's digest for slot and records its snapshot.
func (p *poll) digest(ctx context.Context, f store.Follow, last store.Digest, slot string, list *apiclient.ActionList) error {
	msg, snap, err := p.digestMessage(ctx, f, last, list)
	if err != nil {
		return err
	}
	key := digestKey(f.ChannelID, f.CommitteeKey, slot)
	o, _ := p.once(ctx, once.Work{
		Key:          key,
		Conversation: toChannel(f.ChannelID),
		Post: func(ctx context.Context) (string, error) {
			// Mentions are off unless the channel chose them: a name in
			// text pings nobody, <@U…> pings the person
			// (https://docs.slack.dev/messaging/formatting-message-text#mentioning-users).
			_, ts, err := p.deps.Slack.PostMessageContext(ctx, f.ChannelID,
				slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.DigestMetadata(key, f.CommitteeKey)))
			return ts, err
		},
	})
	if !o.Done() {
		return nil // counted and logged by once; the next poll retries
	}
	if o == once.Sent {
		p.sum.Digests++
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return fmt.Errorf("digest snapshot: %w", err)
	}
	return p.deps.Store.RecordDigest(ctx, f.ChannelID, f.CommitteeKey, slot, p.now, string(b))
}

// digestMessage builds the digest of f's committee from list, compared
// with the last digest's snapshot, and the snapshot to keep.
func (p *poll) digestMessage(ctx context.Context, f store.Follow, last store.Digest, list *apiclient.ActionList) (blocks.Message, map[string]snapEntry, error) {
	var prev map[string]snapEntry
	if last.Snapshot != "" {
		if err := json.Unmarshal([]byte(last.Snapshot), &prev); err != nil {
			p.log.WarnContext(ctx, "watch: a digest snapshot is unreadable; this digest lists no changes", "channel", f.ChannelID, "error", err)
			prev = nil
		}
	}
	first := prev == nil
	d := blocks.Digest{Lang: p.rules.Language(f), Committee: f.Committee, CommitteeKey: f.CommitteeKey,
		Counted: !p.deps.Actions.ChannelMayName()}
	if !first {
		d.Since = last.LastAt
	}
	snap := map[string]snapEntry{}
	groups := map[string]*blocks.DigestGroup{}
	var order []string
	for i := range list.Actions {
		a := &list.Actions[i]
		if !actions.StillToDo(a.Status) || minutes.CommitteeKey(p.committeeOf(ctx, a)) != f.CommitteeKey {
			continue
		}
		k := assigneeKey(a.Assignee)
		it := p.channelRow(a)
		overdue := it.Overdue
		snap[a.ID] = snapEntry{Assignee: k, Overdue: overdue}
		g := groups[k]
		if g == nil {
			g = &blocks.DigestGroup{Name: a.Assignee.String()}
			// A counted digest names nobody: no Slack lookup for a mention.
			if last.Mentions && k != "" && !d.Counted {
				user, err := p.people.SlackID(ctx, a.Assignee)
				if err != nil {
					p.log.WarnContext(ctx, "watch: no Slack user for a digest mention; the name is shown", "error", err)
				}
				g.Mention = user
			}
			groups[k] = g
			order = append(order, k)
		}
		g.Items = append(g.Items, it)
		if first {
			continue
		}
		was, known := prev[a.ID]
		if k != "" && (!known || was.Assignee != k) {
			d.NewlyAssigned = append(d.NewlyAssigned, it)
		}
		if overdue && known && !was.Overdue {
			d.NewlyOverdue = append(d.NewlyOverdue, it)
		}
	}
	if !first {
		done, err := p.completedSince(ctx, prev, snap)
		if err != nil {
			return blocks.Message{}, nil, err
		}
		d.Completed = done
		anns, err := p.deps.Store.AnnouncedSince(ctx, f.ChannelID, last.LastAt)
		if err != nil {
			return blocks.Message{}, nil, err
		}
		for _, a := range anns {
			d.Minutes = append(d.Minutes, p.digestMinutes(ctx, a))
		}
	}
	for _, k := range order {
		g := groups[k]
		sortItems(g.Items, p.zone)
		d.Groups = append(d.Groups, *g)
	}
	// People with overdue actions first, most overdue first; then by name.
	slices.SortStableFunc(d.Groups, func(a, b blocks.DigestGroup) int {
		if c := cmp.Compare(overdueCount(b), overdueCount(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return blocks.DigestMessage(d), snap, nil
}

// completedSince is the actions of the last snapshot no longer to do that
// the records list as complete: one read of the complete actions (shared
// for the poll), only when some left the list.
func (p *poll) completedSince(ctx context.Context, prev, now map[string]snapEntry) ([]blocks.ActionRow, error) {
	gone := 0
	for id := range prev {
		if _, ok := now[id]; !ok {
			gone++
		}
	}
	if gone == 0 {
		return nil, nil
	}
	if p.completed == nil {
		done, err := p.deps.Actions.List(ctx, apiclient.StatusComplete)
		if err != nil {
			return nil, fmt.Errorf("read completed actions: %w", err)
		}
		p.completed = done
	}
	var out []blocks.ActionRow
	for i := range p.completed.Actions {
		a := &p.completed.Actions[i]
		if _, was := prev[a.ID]; was {
			if _, still := now[a.ID]; !still {
				out = append(out, p.channelRow(a))
			}
		}
	}
	return out, nil
}

// committeeOf is the action's committee, from the record or else from its
// meeting, read through the minutes domain (and its cache: a digest is a
// weekly summary, and one meeting's actions ask once), whatever else the
// poll read before. A meeting that cannot be read leaves the action out
// of every committee's digest this time, logged.
func (p *poll) committeeOf(ctx context.Context, a *apiclient.Action) string {
	if a.Committee != "" || a.MeetingID == "" {
		return a.Committee
	}
	e, err := p.deps.Minutes.Get(ctx, a.MeetingID)
	if err != nil {
		p.log.WarnContext(ctx, "watch: an action's meeting could not be read; the digest leaves it out", "meeting", a.MeetingID, "error", err)
		return ""
	}
	return e.Meeting.Committee
}

// digestMinutes is an announcement as a digest lists it: the meeting's
// title and the minutes' link, read through the minutes domain. A meeting
// that cannot be read is listed with no title (the digest says "Minutes"
// in its own language) and the link the domain gives without the record.
func (p *poll) digestMinutes(ctx context.Context, a store.Announcement) blocks.DigestMinutes {
	out := blocks.DigestMinutes{Draft: a.Status == string(apiclient.MinutesPublishedDraft)}
	e, err := p.deps.Minutes.Get(ctx, a.MeetingID)
	if err != nil {
		p.log.WarnContext(ctx, "watch: announced minutes could not be read; the digest lists them untitled", "meeting", a.MeetingID, "error", err)
	}
	if e.Meeting != nil {
		out.Title = cmp.Or(e.Meeting.Title, e.Meeting.Name())
	}
	out.URL = p.deps.Minutes.URL(a.MeetingID, e.Minutes)
	return out
}

func overdueCount(g blocks.DigestGroup) int {
	n := 0
	for _, it := range g.Items {
		if it.Overdue {
			n++
		}
	}
	return n
}

// sortItems orders one person's actions as the digest and the brief show
// them: actions.CompareUrgency, with date-only deadlines ending in the
// organisation's zone org and each item's own Overdue.
func sortItems(items []blocks.ActionRow, org *time.Location) {
	slices.SortStableFunc(items, func(a, b blocks.ActionRow) int {
		x := apiclient.Action{ID: a.ID, Deadline: a.Deadline, DeadlineHasTime: a.DeadlineHasTime}
		y := apiclient.Action{ID: b.ID, Deadline: b.Deadline, DeadlineHasTime: b.DeadlineHasTime}
		return actions.CompareUrgency(actions.Ranked{Action: &x, Overdue: a.Overdue}, actions.Ranked{Action: &y, Overdue: b.Overdue}, org)
	})
}

// channelRow is a as everyone in a channel sees it (a digest's or a
// brief's row): the actions domain's ChannelView, "today" in the
// organisation's zone, drawn by RowOf like every other row, with its link.
func (p *poll) channelRow(a *apiclient.Action) blocks.ActionRow {
	return blocks.RowOf(a, actions.ChannelView(actions.Due(a, p.now, p.zone, p.zone, 0)), p.deps.Actions.Link(a.ID), nil)
}
