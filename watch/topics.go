package watch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/topics"
)

// The store's state names of the topic pass: how far it has matched the
// minutes that became visible, and which agenda items each watch was told
// of, per meeting.
const (
	stateTopicsMinutesSince = "topics/minutes_since"
	topicAgendaStatePrefix  = "topics/agenda/"
)

// topicMinutesBatch bounds the newly visible minutes one poll matches; the
// rest wait for the next poll, in order.
const topicMinutesBatch = 200

// watchOf is a topic watch with its words parsed once a poll.
type watchOf struct {
	store.TopicWatch
	q topics.Query
}

// topics tells each topic watch, once, of minutes that became visible
// since the last pass and of upcoming meetings whose agenda has items
// matching its words (package topics says how matching is done and what
// it costs). It reads no minutes and no meetings list of its own: the
// minutes come from the index, which every read of minutes keeps (so it
// does not matter who read them first), and the agendas from the
// meetings this poll listed, each read once (p.agenda, shared with the
// briefs). No watch: nothing is read.
func (p *poll) topics(ctx context.Context) error {
	all, err := p.deps.Store.AllTopicWatches(ctx)
	if err != nil || len(all) == 0 {
		return err
	}
	watches := make([]watchOf, 0, len(all))
	for _, w := range all {
		q, err := topics.Parse(w.Query)
		if err != nil {
			p.log.WarnContext(ctx, "watch: a topic watch's words no longer parse; skipped", "watch", w.ID, "error", err)
			continue
		}
		watches = append(watches, watchOf{w, q})
	}
	p.sum.TopicWatches = len(watches)
	return errors.Join(p.topicMinutes(ctx, watches), p.topicAgendas(ctx, watches))
}

// topicSettle is how far behind the poll's start the mark stays: minutes
// indexed in the same millisecond as the mark, or by a page view while
// this pass read, are read again by the next pass (and told at most once:
// the ledger), never skipped.
const topicSettle = 2 * time.Second

// topicMinutes matches the minutes that became visible since the last
// pass (on the first, since the oldest watch was made). The mark moves
// past a document only once every match of it is told, so a post that
// failed is retried by the next poll (the ledger keeps those that went
// out from going twice).
func (p *poll) topicMinutes(ctx context.Context, watches []watchOf) error {
	since, err := p.topicsSince(ctx, watches)
	if err != nil {
		return err
	}
	docs, err := p.deps.Store.NewlyVisibleMinutes(ctx, since, topicMinutesBatch)
	if err != nil {
		return err
	}
	mark := since
	for _, d := range docs {
		text := topics.NewText(d.Title + "\n" + d.Body)
		told := true
		for _, w := range watches {
			if d.VisibleAt.Before(w.CreatedAt) || !committeeOK(w.q, d.Committee) || !topics.Screen(w.q, text) {
				continue
			}
			p.sum.TopicsScreened++
			hit, err := p.deps.Store.MatchMinutes(ctx, d.MeetingID, w.q.MinutesQuery)
			if err != nil {
				return fmt.Errorf("match topic %s: %w", w.ID, err)
			}
			if hit == nil {
				continue
			}
			if !p.tellTopic(ctx, w, p.minutesMatch(w, d, hit)) {
				told = false
			}
		}
		if !told {
			break
		}
		mark = d.VisibleAt
	}
	if settled := p.now.Add(-topicSettle); mark.After(settled) {
		mark = settled
	}
	if !mark.After(since) {
		return nil
	}
	return p.deps.Store.SetState(ctx, stateTopicsMinutesSince, strconv.FormatInt(mark.UnixMilli(), 10))
}

// topicsSince is the mark of the last pass, or, on the first, just before
// the oldest watch was made (each watch hears only of minutes that became
// visible after it was made).
func (p *poll) topicsSince(ctx context.Context, watches []watchOf) (time.Time, error) {
	v, ok, err := p.deps.Store.GetState(ctx, stateTopicsMinutesSince)
	if err != nil {
		return time.Time{}, err
	}
	if n, perr := strconv.ParseInt(v, 10, 64); ok && perr == nil {
		return time.UnixMilli(n).UTC(), nil
	}
	oldest := p.now
	for _, w := range watches {
		if w.CreatedAt.Before(oldest) {
			oldest = w.CreatedAt
		}
	}
	return oldest.Add(-time.Millisecond), nil
}

// committeeOK applies a watch's committee:<name>, a prefix of the
// committee's name in any case, as the search does.
func committeeOK(q topics.Query, committee string) bool {
	return q.Committee == "" || strings.HasPrefix(store.CommitteeKey(committee), store.CommitteeKey(q.Committee))
}

// minutesMatch is what a watch is told of minutes that match it.
func (p *poll) minutesMatch(w watchOf, d store.VisibleMinutes, hit *store.MinutesHit) topicPost {
	status := apiclient.MinutesApproved
	if d.Draft {
		status = apiclient.MinutesPublishedDraft
	}
	parts := make([]blocks.SearchPart, len(hit.Snippet))
	for i, s := range hit.Snippet {
		parts[i] = blocks.SearchPart{Text: s.Text, Match: s.Match}
	}
	m := blocks.TopicMatch{Query: w.q.Typed, Committee: d.Committee, Meeting: d.Title, Date: d.Date, DateHasTime: d.DateHasTime,
		Minutes: true, Draft: d.Draft, Snippet: parts, MinutesURL: p.deps.Minutes.URL(d.MeetingID, &apiclient.Minutes{URL: d.URL, Status: status})}
	return topicPost{meetingID: d.MeetingID, event: "minutes/" + string(status), match: m}
}

// topicLead is how far ahead the agendas of upcoming meetings are matched:
// a topic taken up within two weeks is news; further off, the agenda is
// seldom settled.
const topicLead = 14 * 24 * time.Hour

// topicAgendas matches the agenda items of the meetings this poll listed
// that start within topicLead. A watch hears of each matching item once
// per meeting: an agenda that gains a matching item is told of that item.
// A meeting the records mark cancelled, private, confidential or not
// public (the one publication rule) is told to no watch: a channel's
// watch posts where guests may read, and a topic is no way round the rule.
func (p *poll) topicAgendas(ctx context.Context, watches []watchOf) error {
	var errs []error
	for _, m := range p.upcoming(topicLead) {
		if publication.Withheld(&m) {
			continue
		}
		items, err := p.agenda(ctx, m.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("agenda of %s: %w", m.ID, err))
			continue
		}
		texts := make([]*topics.Text, len(items))
		for i, it := range items {
			texts[i] = topics.NewText(it.Title + "\n" + it.Description)
		}
		for _, w := range watches {
			if !committeeOK(w.q, m.Committee) {
				continue
			}
			var matched []apiclient.AgendaItem
			for i, it := range items {
				if topics.MatchText(w.q, texts[i]) {
					matched = append(matched, it)
				}
			}
			if len(matched) > 0 {
				if err := p.tellAgenda(ctx, w, m, matched); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// upcoming are the meetings this poll listed that start within lead, each
// once.
func (p *poll) upcoming(lead time.Duration) []apiclient.Meeting {
	var out []apiclient.Meeting
	seen := map[string]bool{}
	for _, mp := range p.pages {
		for _, m := range mp.Meetings {
			start := meetingStart(m, p.zone)
			if m.Date.IsZero() || !start.After(p.now) || start.Sub(p.now) > lead || seen[m.ID] {
				continue
			}
			seen[m.ID] = true
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b apiclient.Meeting) int { return cmp.Or(a.Date.Compare(b.Date), strings.Compare(a.ID, b.ID)) })
	return out
}

// tellAgenda tells w of the items of m it has not been told of, and then
// records them as told.
func (p *poll) tellAgenda(ctx context.Context, w watchOf, m apiclient.Meeting, matched []apiclient.AgendaItem) error {
	state := topicAgendaStatePrefix + w.ID + "/" + m.ID
	v, _, err := p.deps.Store.GetState(ctx, state)
	if err != nil {
		return err
	}
	told := strings.Split(v, "\n")
	var fresh []blocks.TopicItem
	var keys []string
	for _, it := range matched {
		k := agendaItemKey(it)
		if slices.Contains(told, k) {
			continue
		}
		keys = append(keys, k)
		fresh = append(fresh, blocks.TopicItem{Number: it.Number, Title: it.Title})
	}
	if len(fresh) == 0 {
		return nil
	}
	tm := blocks.TopicMatch{Query: w.q.Typed, Committee: m.Committee, Meeting: m.Name(), Date: m.Date, DateHasTime: m.DateHasTime,
		Items: fresh}
	if p.deps.Calendar != nil {
		tm.CalendarURL = p.deps.Calendar.AddURL(&m)
	}
	if !p.tellTopic(ctx, w, topicPost{meetingID: m.ID, event: "agenda/" + hashKeys(keys), match: tm}) {
		return nil // retried next poll
	}
	return p.deps.Store.SetState(ctx, state, strings.Join(append(slices.DeleteFunc(told, func(s string) bool { return s == "" }), keys...), "\n"))
}

// agendaItemKey names an agenda item across polls: its number and title.
func agendaItemKey(it apiclient.AgendaItem) string {
	sum := sha256.Sum256([]byte(it.Number + "\x00" + it.Title))
	return hex.EncodeToString(sum[:8])
}

func hashKeys(keys []string) string {
	sum := sha256.Sum256([]byte(strings.Join(keys, ",")))
	return hex.EncodeToString(sum[:8])
}

// topicPost is one message a watch is due: a meeting's event (its minutes
// in a status, or agenda items) and what the message shows.
type topicPost struct {
	meetingID, event string
	match            blocks.TopicMatch
}

// topicKey is a topic post's ledger key: one post per watch, meeting and
// event, across replicas and crashes.
func topicKey(watchID, meetingID, event string) string {
	return "topic/" + watchID + "/" + meetingID + "/" + event
}

// tellTopic posts t to w's owner exactly once (internal/once): a
// person's watch in their DM with the bot, a channel's in the channel. It
// reports whether the post is out (now or earlier).
func (p *poll) tellTopic(ctx context.Context, w watchOf, t topicPost) bool {
	key := topicKey(w.ID, t.meetingID, t.event)
	t.match.Lang = p.topicLang(ctx, w)
	msg := blocks.TopicMatchMessage(t.match)
	to, conversation := w.ChannelID, toChannel(w.ChannelID)
	if w.UserID != "" {
		to = w.UserID
		conversation = func(ctx context.Context) (string, error) {
			ch, _, _, err := p.deps.Slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{w.UserID}})
			if err != nil {
				return "", fmt.Errorf("open DM with %s: %w", w.UserID, err)
			}
			return ch.ID, nil
		}
	}
	o, _ := p.once(ctx, once.Work{Key: key, Conversation: conversation,
		Post: func(ctx context.Context) (string, error) {
			_, ts, err := p.deps.Slack.PostMessageContext(ctx, to,
				slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.TopicMetadata(key, t.meetingID)))
			return ts, err
		}})
	if o == once.Sent {
		p.sum.TopicPosts++
	}
	return o.Done()
}

// topicLang is the language a watch is told in: a person's own (as their
// assignment DMs), a channel's ORG_LANGUAGE.
func (p *poll) topicLang(ctx context.Context, w watchOf) lang.Lang {
	if w.UserID != "" && p.deps.Actions != nil {
		return p.readerLang(ctx, w.UserID)
	}
	return p.cfg.Language
}
