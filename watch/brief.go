package watch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// stateUpcomingSeen is RFC 3339: when a poll last saw the records list a
// meeting dated in the future (doctor reports it; a service that never
// lists them never fires a brief).
const stateUpcomingSeen = "meetings_upcoming_seen"

// briefKey is the ledger key of the brief of meetingID in a channel
// following committeeKey: one per follow and meeting, whatever its date.
func briefKey(channel, committeeKey, meetingID string) string {
	return "brief/" + channel + "/" + committeeKey + "/" + meetingID
}

// briefShownState is the state row keeping the fingerprint of what a
// posted brief shows (briefFingerprint), so that a poll updates it when,
// and only when, that changed.
func briefShownState(key string) string { return "brief_shown/" + key }

// briefDateState is the state row a brief posted before briefShownState
// existed kept (its meeting's date): such a brief is out, and the first
// poll that finds it brings it up to date once.
func briefDateState(key string) string { return "brief_date/" + key }

// briefFingerprint identifies what msg shows: its text and blocks. The
// brief is built from plain values in a fixed order, so the same content
// gives the same fingerprint from poll to poll and process to process.
func briefFingerprint(msg blocks.Message) (string, error) {
	b, err := json.Marshal(msg.Blocks)
	if err != nil {
		return "", fmt.Errorf("brief fingerprint: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(msg.Text))
	h.Write([]byte{0})
	h.Write(b)
	return "v1:" + hex.EncodeToString(h.Sum(nil)), nil
}

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
// follow and meeting, and until the meeting starts keeps each posted
// brief up to date in place: its date, agenda, open actions and latest
// minutes. It reads the meeting pages and the list of actions this poll
// read, and each upcoming meeting's own record (its agenda) once.
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
		for _, f := range follows {
			if f.CommitteeKey != minutes.CommitteeKey(m.Committee) || !p.rules.Hears(f, store.HearBriefs) {
				continue
			}
			if err := p.brief(ctx, f, m); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// brief posts one follow's brief of m when it is due (m starts within the
// brief lead) and, once it is out (even beyond the lead, for a meeting
// moved further off), updates it in place whenever what it shows changed:
// the meeting's date, its agenda, the open actions, the latest minutes. A
// brief that shows the same is left alone, with no Slack call. m has not
// started: a brief of a meeting under way is never touched again.
func (p *poll) brief(ctx context.Context, f store.Follow, m apiclient.Meeting) error {
	due := meetingStart(m, p.zone).Sub(p.now) <= p.cfg.BriefLead
	key := briefKey(f.ChannelID, f.CommitteeKey, m.ID)
	shown, _, err := p.deps.Store.GetState(ctx, briefShownState(key))
	if err != nil {
		return err
	}
	if shown == "" {
		if shown, _, err = p.deps.Store.GetState(ctx, briefDateState(key)); err != nil {
			return err
		}
	}
	if !due && shown == "" {
		return nil
	}
	msg, whole, err := p.briefMessage(ctx, f, m)
	if err != nil {
		return err
	}
	if shown != "" && !whole {
		// Part of it could not be read this poll: what is out stays as
		// it is rather than lose its agenda or link; the next poll
		// looks again.
		return nil
	}
	fp, err := briefFingerprint(msg)
	if err != nil {
		return err
	}
	if fp == shown {
		return nil
	}
	opts := func() []slack.MsgOption {
		return []slack.MsgOption{slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
			slack.MsgOptionMetadata(blocks.BriefMetadata(key, m.ID, m.Date))}
	}
	o, ts := p.once(ctx, once.Work{
		Key:          key,
		Conversation: toChannel(f.ChannelID),
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
		// Out already, showing something else: the meeting moved, its
		// agenda changed, an action shown was done or a new one given,
		// or newer minutes appeared. chat.update keeps the message (its
		// ts) and replaces its text, blocks and metadata
		// (https://docs.slack.dev/reference/methods/chat.update). The
		// brief's blocks carry no block_id, so Slack gives each update
		// new ones, as it asks of an updated message ("If a message is
		// updated, use a new block_id",
		// https://docs.slack.dev/reference/block-kit/blocks).
		if _, _, _, err := p.deps.Slack.UpdateMessageContext(ctx, f.ChannelID, ts, opts()...); err != nil {
			p.sum.Failed++
			p.log.ErrorContext(ctx, "watch: could not update a brief; the next poll retries", "key", key, "error", err)
			return nil
		}
		p.sum.BriefsUpdated++
	default:
		return nil // counted and logged by once; the next poll retries
	}
	return p.deps.Store.SetState(ctx, briefShownState(key), fp)
}

// briefMessage is the brief of m for f: its agenda, the committee's
// actions still to do from earlier meetings by assignee, and its latest
// minutes. whole is false when the agenda or the latest minutes could not
// be read (the brief then shows the listing's agenda, or no link).
func (p *poll) briefMessage(ctx context.Context, f store.Follow, m apiclient.Meeting) (msg blocks.Message, whole bool, err error) {
	whole = true
	// A listing may leave the agenda out; the meeting's own record has
	// it (one read per meeting whose brief is due or out, whatever the
	// channels).
	if agenda, err := p.agenda(ctx, m.ID); err != nil {
		p.log.WarnContext(ctx, "watch: could not read a meeting's agenda; a new brief shows the listing's, one posted stays as it is", "meeting", m.ID, "error", err)
		whole = false
	} else if len(agenda) > 0 {
		m.Agenda = agenda
	}
	b := blocks.Brief{Counted: !p.deps.Actions.ChannelMayName(), Lang: p.rules.Language(f), Committee: cmp.Or(m.Committee, f.Committee), Title: cmp.Or(m.Title, m.Name()), Date: m.Date,
		DateHasTime: m.DateHasTime, Location: m.Location, CalendarURL: p.deps.Calendar.AddURL(&m)}
	for _, it := range m.Agenda {
		b.Agenda = append(b.Agenda, blocks.BriefAgendaItem{Number: it.Number, Title: it.Title})
	}
	if p.list == nil {
		list, err := p.deps.Actions.List(ctx, "")
		if err != nil {
			return blocks.Message{}, false, fmt.Errorf("read actions: %w", err)
		}
		p.list = list
	}
	groups := map[string]*blocks.DigestGroup{}
	var order []string
	for i := range p.list.Actions {
		a := &p.list.Actions[i]
		if actions.AroseAt(a, &m) || !actions.StillToDo(a.Status) || minutes.CommitteeKey(p.committeeOf(ctx, a)) != f.CommitteeKey {
			continue
		}
		k := assigneeKey(a.Assignee)
		g := groups[k]
		if g == nil {
			g = &blocks.DigestGroup{Name: a.Assignee.String()}
			groups[k] = g
			order = append(order, k)
		}
		g.Items = append(g.Items, p.channelRow(a))
	}
	for _, k := range order {
		// In the records' order a person's overdue action could come
		// last, and a reordered list would rewrite a posted brief.
		sortItems(groups[k].Items, p.zone)
		b.Open = append(b.Open, *groups[k])
	}
	slices.SortStableFunc(b.Open, func(x, y blocks.DigestGroup) int { return cmp.Compare(x.Name, y.Name) })
	// The latest minutes: the committee's newest visible minutes in the
	// search index, which every poll keeps up to date (watch/index.go)
	// whatever it read this time, so a brief links the same minutes from
	// poll to poll and newer ones as soon as they are published.
	h, err := p.latestIndexed(ctx, f.CommitteeKey, m.ID)
	if err != nil {
		p.log.WarnContext(ctx, "watch: could not look up a committee's latest minutes", "committee", f.CommitteeKey, "error", err)
		whole = false
	}
	if h != nil {
		b.LatestMinutes = h.Title
		b.LatestURL = p.deps.Minutes.URL(h.MeetingID, &apiclient.Minutes{URL: h.URL})
	}
	return blocks.BriefMessage(b), whole, nil
}

// latestIndexed is the newest indexed minutes of the committee keyed key,
// other than meeting skip's; nil when it has none. The index lists by
// committee prefix, newest first, so the minutes of committees whose names
// begin with this one's ("Finance" and "Finance Audit") come in between:
// pages are read until the key matches or the list ends, a few at most
// (latestPages), each one query of the store and no records call.
func (p *poll) latestIndexed(ctx context.Context, key, skip string) (*store.MinutesHit, error) {
	const page = 50
	for i := range latestPages {
		hits, err := p.deps.Store.SearchMinutes(ctx, store.MinutesQuery{Committee: key}, i*page, page)
		if err != nil {
			return nil, err
		}
		for _, h := range hits.Hits {
			if h.MeetingID != skip && minutes.CommitteeKey(h.Committee) == key {
				return &h, nil
			}
		}
		if !hits.More {
			break
		}
	}
	return nil, nil
}

// latestPages bounds the pages latestIndexed reads: 20 pages are 1,000
// minutes of namesake committees, more than any organisation keeps.
const latestPages = 20
