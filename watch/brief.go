package watch

import (
	"cmp"
	"context"
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

// stateUpcomingSeen is RFC 3339: when a poll last saw the records list a
// meeting dated in the future (doctor reports it; a service that never
// lists them never fires a brief).
const stateUpcomingSeen = "meetings_upcoming_seen"

// briefKey is the ledger key of the brief of meetingID in a channel
// following committeeKey: one per follow and meeting, whatever its date.
func briefKey(channel, committeeKey, meetingID string) string {
	return "brief/" + channel + "/" + committeeKey + "/" + meetingID
}

// briefDateState is the state row keeping the meeting date a brief
// shows, so that a moved meeting's brief is updated in place.
func briefDateState(key string) string { return "brief_date/" + key }

// meetingStart is when m starts: its time, or the start of its day in
// zone when the records give only a date.
func meetingStart(m apiclient.Meeting, zone *time.Location) time.Time {
	if m.DateHasTime {
		return m.Date
	}
	y, mo, d := m.Date.UTC().Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, zone)
}

// briefs posts the pre-meeting brief of each upcoming meeting of a
// followed committee within Config.BriefLead of its start, once per
// follow and meeting; a brief whose meeting moved since is updated in
// place. It reads only the meeting pages this poll read (upcoming
// meetings are the newest, on the first page) and the shared list of
// actions.
func (p *poll) briefs(ctx context.Context) error {
	var upcoming []apiclient.Meeting
	seen := map[string]bool{}
	for _, mp := range p.pages {
		for _, m := range mp.Meetings {
			if !m.Date.IsZero() && meetingStart(m, p.zone).After(p.now) && !seen[m.ID] {
				seen[m.ID] = true
				upcoming = append(upcoming, m)
			}
		}
	}
	if len(upcoming) == 0 {
		return nil
	}
	p.sum.Upcoming = len(upcoming)
	if err := p.deps.Store.SetState(ctx, stateUpcomingSeen, p.now.UTC().Format(time.RFC3339)); err != nil {
		return err
	}
	follows, err := p.deps.Store.AllFollows(ctx)
	if err != nil {
		return fmt.Errorf("read follows: %w", err)
	}
	var errs []error
	for _, m := range upcoming {
		due := meetingStart(m, p.zone).Sub(p.now) <= p.cfg.BriefLead
		for _, f := range follows {
			if f.CommitteeKey != minutes.CommitteeKey(m.Committee) || !p.cfg.FollowDefaults.Hears(f.Choices, store.HearBriefs) {
				continue
			}
			if err := p.brief(ctx, f, m, due); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// brief posts one follow's brief of m when it is due, or updates it when
// the meeting moved since it was posted (even beyond the lead: it is out
// already).
func (p *poll) brief(ctx context.Context, f store.Follow, m apiclient.Meeting, due bool) error {
	key := briefKey(f.ChannelID, f.CommitteeKey, m.ID)
	date := m.Date.UTC().Format(time.RFC3339)
	shown, _, err := p.deps.Store.GetState(ctx, briefDateState(key))
	if err != nil {
		return err
	}
	if shown == date || (!due && shown == "") {
		return nil
	}
	msg, err := p.briefMessage(ctx, f, m)
	if err != nil {
		return err
	}
	opts := func() []slack.MsgOption {
		return []slack.MsgOption{slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
			slack.MsgOptionMetadata(blocks.BriefMetadata(key, m.ID, m.Date))}
	}
	o, ts := p.once(ctx, once.Work{
		Key:          key,
		Conversation: in(f.ChannelID),
		Post: func(ctx context.Context) (string, error) {
			// Names only: a brief pings nobody
			// (https://docs.slack.dev/messaging/formatting-message-text#mentioning-users).
			_, ts, err := p.deps.Slack.PostMessageContext(ctx, f.ChannelID, opts()...)
			return ts, err
		},
	})
	switch o {
	case once.Sent:
		p.sum.Briefs++
	case once.Already, once.Recovered:
		// Posted before for another date (or its date was not recorded):
		// the meeting moved, so the brief is brought up to date in place.
		// chat.update keeps the message and replaces its text, blocks and
		// metadata (https://docs.slack.dev/reference/methods/chat.update).
		if _, _, _, err := p.deps.Slack.UpdateMessageContext(ctx, f.ChannelID, ts, opts()...); err != nil {
			p.sum.Failed++
			p.log.ErrorContext(ctx, "watch: could not update a moved meeting's brief; the next poll retries", "key", key, "error", err)
			return nil
		}
		p.sum.BriefsUpdated++
	default:
		return nil // counted and logged by once; the next poll retries
	}
	return p.deps.Store.SetState(ctx, briefDateState(key), date)
}

// briefMessage is the brief of m for f: its agenda, the committee's
// actions still to do from earlier meetings by assignee, and its latest
// minutes this poll read.
func (p *poll) briefMessage(ctx context.Context, f store.Follow, m apiclient.Meeting) (blocks.Message, error) {
	// A listing may leave the agenda out; the meeting's own record has
	// it (one read per meeting briefed, whatever the channels).
	if agenda, err := p.agenda(ctx, m.ID); err != nil {
		p.log.WarnContext(ctx, "watch: could not read a meeting's agenda; the brief shows the listing's", "meeting", m.ID, "error", err)
	} else if len(agenda) > 0 {
		m.Agenda = agenda
	}
	b := blocks.Brief{Committee: cmp.Or(m.Committee, f.Committee), Title: cmp.Or(m.Title, m.Name()), Date: m.Date,
		DateHasTime: m.DateHasTime, Location: m.Location}
	for _, it := range m.Agenda {
		b.Agenda = append(b.Agenda, blocks.BriefAgendaItem{Number: it.Number, Title: it.Title})
	}
	if p.list == nil {
		l, err := p.deps.Actions.List(ctx, "")
		if err != nil {
			return blocks.Message{}, fmt.Errorf("read actions: %w", err)
		}
		p.list = l
	}
	groups := map[string]*blocks.DigestGroup{}
	var order []string
	for i := range p.list.Actions {
		a := &p.list.Actions[i]
		if a.MeetingID == m.ID || minutes.CommitteeKey(p.committeeOf(a)) != f.CommitteeKey || !actions.StillToDo(a.Status) {
			continue
		}
		k := assigneeKey(a.Assignee)
		g := groups[k]
		if g == nil {
			g = &blocks.DigestGroup{Name: a.Assignee.String()}
			groups[k] = g
			order = append(order, k)
		}
		g.Items = append(g.Items, blocks.DigestItem{ID: a.ID, Title: a.Title, Deadline: a.Deadline, DeadlineHasTime: a.DeadlineHasTime,
			Overdue:    actions.Due(a, p.now, p.zone, p.zone, 0) == actions.Overdue,
			InProgress: a.Status == apiclient.StatusInProgress})
	}
	for _, k := range order {
		b.Open = append(b.Open, *groups[k])
	}
	slices.SortStableFunc(b.Open, func(x, y blocks.DigestGroup) int { return cmp.Compare(x.Name, y.Name) })
	// The latest minutes: the newest earlier meeting of the committee
	// whose minutes this poll read and may show.
	var latest *apiclient.Meeting
	for _, mp := range p.pages {
		for i := range mp.Meetings {
			c := &mp.Meetings[i]
			r, ok := p.minutes[c.ID]
			if c.ID == m.ID || minutes.CommitteeKey(c.Committee) != f.CommitteeKey || !ok || r.err != nil || !minutes.Visible(r.min) {
				continue
			}
			if latest == nil || c.Date.After(latest.Date) {
				latest = c
			}
		}
	}
	if latest != nil {
		b.LatestMinutes = cmp.Or(latest.Title, latest.Name())
		b.LatestURL = p.deps.Minutes.URL(latest.ID, p.minutes[latest.ID].min)
	}
	return blocks.BriefMessage(b), nil
}
