package watch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// announce posts newly visible minutes of followed committees, updates
// announced drafts that were approved, and takes the baseline of new
// follows. A records failure skips the rest (nothing is marked baselined,
// the horizon stays), so the next poll reads it all again.
func (p *poll) announce(ctx context.Context) error {
	follows, err := p.deps.Store.AllFollows(ctx)
	if err != nil {
		return fmt.Errorf("read follows: %w", err)
	}
	if len(follows) == 0 {
		return nil
	}
	readAt, err := p.followsReadAt(ctx)
	if err != nil {
		return err
	}
	byCommittee, fresh, reread := groupFollows(follows, readAt)

	floor := p.now.Add(-p.cfg.Lookback)
	horizon := floor
	if !reread {
		if horizon, err = p.storedHorizon(ctx, floor); err != nil {
			return err
		}
	}
	p.sum.Since = horizon
	meetings, complete, err := p.readMeetings(ctx, horizon, byCommittee)
	if err != nil {
		return err
	}
	oldestPending, err := p.announceMeetings(ctx, meetings, byCommittee)
	if err != nil {
		// Without every minutes read, a baseline would miss some: leave
		// follows and the horizon for the next poll.
		return err
	}
	for _, f := range fresh {
		if _, err := p.deps.Store.MarkFollowBaselined(ctx, f.ChannelID, f.CommitteeKey); err != nil {
			return err
		}
		p.sum.Baselined++
	}

	next := p.nextHorizon(oldestPending)
	if !complete && horizon.Before(next) {
		// The page cap stopped the read short of the horizon: do not move
		// it past meetings not looked at.
		next = horizon
	}
	if next.Before(floor) {
		next = floor
	}
	p.sum.Horizon = next
	if err := p.deps.Store.SetState(ctx, stateHorizon, next.UTC().Format(time.RFC3339)); err != nil {
		return err
	}
	// The poll's start, not its end: a follow made while it ran is read
	// again by the next. Follow times are milliseconds, so is this.
	return p.deps.Store.SetState(ctx, stateFollowsRead, p.now.UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano))
}

// followsReadAt is when the last poll that read the follows began; zero
// when none did.
func (p *poll) followsReadAt(ctx context.Context) (time.Time, error) {
	v, ok, err := p.deps.Store.GetState(ctx, stateFollowsRead)
	if err != nil {
		return time.Time{}, err
	}
	if t, perr := time.Parse(time.RFC3339Nano, v); ok && perr == nil {
		return t, nil
	}
	return time.Time{}, nil
}

// groupFollows sorts follows by committee and picks out the fresh ones
// (no baseline yet). reread is whether this poll must read the whole
// lookback: a follow made since the last poll began at readAt (its
// baseline taken when it was made, by Baseline) has not been read by a
// poll yet, and its committee's pending drafts may lie behind the horizon.
func groupFollows(follows []store.Follow, readAt time.Time) (byCommittee map[string][]store.Follow, fresh []store.Follow, reread bool) {
	byCommittee = map[string][]store.Follow{}
	for _, f := range follows {
		byCommittee[f.CommitteeKey] = append(byCommittee[f.CommitteeKey], f)
		if !f.Baselined {
			fresh = append(fresh, f)
		}
		reread = reread || !f.Baselined || f.At.After(readAt)
	}
	return byCommittee, fresh, reread
}

// storedHorizon is the horizon the last poll left, else floor; never
// before floor.
func (p *poll) storedHorizon(ctx context.Context, floor time.Time) (time.Time, error) {
	v, ok, err := p.deps.Store.GetState(ctx, stateHorizon)
	if err != nil {
		return floor, err
	}
	if t, perr := time.Parse(time.RFC3339, v); ok && perr == nil && t.After(floor) {
		return t, nil
	}
	return floor, nil
}

// announceMeetings brings each meeting's announcements up to date and
// returns the date of the oldest one still pending (zero when none is).
// The error joins those of every meeting that failed.
func (p *poll) announceMeetings(ctx context.Context, meetings []apiclient.Meeting, byCommittee map[string][]store.Follow) (time.Time, error) {
	var oldestPending time.Time
	var errs []error
	for _, m := range meetings {
		pending, err := p.meeting(ctx, m, byCommittee[minutes.CommitteeKey(m.Committee)])
		if err != nil {
			errs = append(errs, err)
			pending = true
		}
		if pending && !m.Date.IsZero() && (oldestPending.IsZero() || m.Date.Before(oldestPending)) {
			oldestPending = m.Date
		}
	}
	return oldestPending, errors.Join(errs...)
}

// nextHorizon is where the next poll starts reading. Meetings reach the
// records after they are held, so the horizon stays Backfill behind
// today; further back only while a meeting there is pending (its minutes
// hidden, a draft, or a post not out) since oldestPending.
func (p *poll) nextHorizon(oldestPending time.Time) time.Time {
	next := p.now.Add(-p.cfg.Backfill)
	if !oldestPending.IsZero() && oldestPending.Before(next) {
		next = oldestPending
	}
	return next
}

// readMeetings lists meetings newest first until one dated before
// horizon, keeping those of followed committees. complete is false when
// the page cap stopped it first.
func (p *poll) readMeetings(ctx context.Context, horizon time.Time, followed map[string][]store.Follow) (out []apiclient.Meeting, complete bool, err error) {
	next := ""
	for page := 0; page < p.cfg.MaxMeetingPages; page++ {
		mp, err := p.listMeetings(ctx, next)
		if err != nil {
			return nil, false, err
		}
		for _, m := range mp.Meetings {
			// Undated meetings cannot say where the horizon is; they are
			// read, and the walk goes on.
			if !m.Date.IsZero() && m.Date.Before(horizon) {
				return out, true, nil
			}
			p.sum.Meetings++
			// A meeting still to come has no minutes yet (as the search
			// index also holds): its brief reads the page, not its minutes,
			// so a followed committee's next meeting costs no 404 a poll.
			// A date-only meeting starts at local midnight, so one held
			// today east of UTC is read today.
			if len(followed[minutes.CommitteeKey(m.Committee)]) > 0 && (m.Date.IsZero() || !meetingStart(m, p.zone).After(p.now)) {
				out = append(out, m)
			}
		}
		if mp.Next == "" {
			return out, true, nil
		}
		next = mp.Next
	}
	p.log.WarnContext(ctx, "watch: stopped reading meetings at the page cap before the horizon", "pages", p.cfg.MaxMeetingPages, "horizon", horizon)
	return out, false, nil
}

// meeting brings one meeting's announcements up to date in every channel
// that follows its committee (and updates, on approval, every earlier post
// of its draft). pending reports whether the meeting must be looked at
// again next poll: its minutes are hidden or a draft, or a post did not
// go out.
func (p *poll) meeting(ctx context.Context, m apiclient.Meeting, follows []store.Follow) (pending bool, err error) {
	anns, err := p.deps.Store.AnnouncementsForMeeting(ctx, m.ID)
	if err != nil {
		return true, err
	}
	posted := map[string]store.Announcement{}
	for _, a := range anns {
		posted[a.ChannelID] = a
	}
	targets, need := p.announceTargets(follows, anns, posted)
	if !need {
		return false, nil
	}
	min, err := p.readMinutes(ctx, &m)
	if errors.Is(err, apiclient.ErrNotFound) {
		// Not visible (no minutes, or draft, in review…): never announced.
		return true, nil
	}
	if err != nil {
		return true, fmt.Errorf("minutes of %s: %w", m.ID, err)
	}
	if !minutes.Visible(min) {
		return true, nil
	}
	pending = min.Status != apiclient.MinutesApproved
	for _, t := range targets {
		done, err := p.announceIn(ctx, t, posted, m, min)
		if err != nil {
			return true, err
		}
		if !done {
			pending = true
		}
	}
	return pending, nil
}

// announceTarget is a channel whose announcement of a meeting is brought
// up to date.
type announceTarget struct {
	channel   string
	baselined bool
	// hears is whether the channel chose to hear minutes in this
	// status (drafts, approvals; FOLLOW_DEFAULTS where it did not).
	hears func(apiclient.MinutesStatus) bool
	// lang is what the channel reads: its follow's language, else
	// ORG_LANGUAGE.
	lang lang.Lang
}

// announceTargets are the channels to bring up to date about a meeting
// whose announcements are anns (posted, by channel): the followers, and
// any channel holding a posted draft (it may have unfollowed since; its
// post still gets the approval). need is false when every follower has
// the approved minutes already and no draft's post waits for them.
func (p *poll) announceTargets(follows []store.Follow, anns []store.Announcement, posted map[string]store.Announcement) (targets []announceTarget, need bool) {
	for _, f := range follows {
		targets = append(targets, announceTarget{channel: f.ChannelID, baselined: f.Baselined, hears: func(st apiclient.MinutesStatus) bool {
			if st == apiclient.MinutesApproved {
				return p.rules.Hears(f, store.HearApprovals)
			}
			return p.rules.Hears(f, store.HearDrafts)
		}, lang: p.rules.Language(f)})
		if a, ok := posted[f.ChannelID]; !ok || a.Status != string(apiclient.MinutesApproved) {
			need = true
		}
	}
	for _, a := range anns {
		if a.Status == string(apiclient.MinutesPublishedDraft) && a.TS != "" && !following(follows, a.ChannelID) {
			// It unfollowed since: the post it has still gets the approval.
			targets = append(targets, announceTarget{channel: a.ChannelID, baselined: true, hears: func(apiclient.MinutesStatus) bool { return true }, lang: p.cfg.Language})
			need = true
		}
	}
	return targets, need
}

// announceIn brings t's announcement of m's minutes min up to date, given
// the announcements posted so far (by channel): recorded without a post,
// posted, or updated on approval. done is false when a post did not go
// out and must be tried again.
func (p *poll) announceIn(ctx context.Context, t announceTarget, posted map[string]store.Announcement, m apiclient.Meeting, min *apiclient.Minutes) (done bool, err error) {
	status := string(min.Status)
	a, had := posted[t.channel]
	var o once.Outcome
	switch {
	case !t.baselined || !t.hears(min.Status) && (!had || a.Status != status):
		// Following starts now: what is visible already is the
		// baseline, recorded as announced with no post. Likewise what
		// the channel chose not to hear: recorded, not posted, so a
		// draft it did not hear is announced new when approved, if it
		// hears approvals. A draft's post whose approval it does not
		// hear stays as it is.
		switch {
		case !t.baselined && !had:
			return true, p.deps.Store.PutAnnouncement(ctx, store.Announcement{ChannelID: t.channel, MeetingID: m.ID, Status: status})
		case t.baselined:
			return true, p.deps.Store.PutAnnouncement(ctx, store.Announcement{ChannelID: t.channel, MeetingID: m.ID, Status: status, TS: a.TS})
		}
		return true, nil
	case !had, a.TS == "" && a.Status != status && min.Status == apiclient.MinutesApproved:
		// New to this channel (a baselined draft approved since counts
		// as new: it was never posted).
		var ts string
		o, ts = p.post(ctx, t.channel, t.lang, m, min)
		if o.Done() {
			err = p.deps.Store.PutAnnouncement(ctx, store.Announcement{ChannelID: t.channel, MeetingID: m.ID, Status: status, TS: ts})
		}
		if o == once.Sent {
			p.sum.Announced++
		}
	case a.Status == string(apiclient.MinutesPublishedDraft) && a.TS != "" && min.Status == apiclient.MinutesApproved:
		o = p.approve(ctx, t.channel, t.lang, a.TS, m, min)
		if o.Done() {
			err = p.deps.Store.PutAnnouncement(ctx, store.Announcement{ChannelID: t.channel, MeetingID: m.ID, Status: status, TS: a.TS, ThreadPosted: true})
		}
		if o == once.Sent {
			p.sum.Approved++
		}
	default:
		return true, nil
	}
	return o.Done(), err
}

func following(follows []store.Follow, channel string) bool {
	for _, f := range follows {
		if f.ChannelID == channel {
			return true
		}
	}
	return false
}

// announceKey is the ledger key of the announcement of meeting's minutes
// in status in channel.
func announceKey(channel, meetingID, status string) string {
	return "announce/" + channel + "/" + meetingID + "/" + status
}

// post announces min in channel, written in lg.
func (p *poll) post(ctx context.Context, channel string, lg lang.Lang, m apiclient.Meeting, min *apiclient.Minutes) (once.Outcome, string) {
	key := announceKey(channel, m.ID, string(min.Status))
	msg := blocks.AnnouncementMessage(blocks.Announcement{Lang: lg, Minutes: p.view(m, min)})
	return p.once(ctx, once.Work{
		Key:          key,
		Conversation: toChannel(channel),
		Post: func(ctx context.Context) (string, error) {
			_, ts, err := p.deps.Slack.PostMessageContext(ctx, channel,
				slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.AnnouncementMetadata(key, m.ID, string(min.Status))))
			return ts, err
		},
	})
}

// approve updates the post at ts, a draft's announcement, to the approved
// minutes, then replies in its thread: two pieces of work, each under its
// own ledger key, so each happens exactly once. The update carries the
// approval's key in its metadata (a later claimant finds it in the
// channel's history); the reply carries a key of its own (found among the
// thread's replies with conversations.replies). The approval counts as
// done once both are.
func (p *poll) approve(ctx context.Context, channel string, lg lang.Lang, ts string, m apiclient.Meeting, min *apiclient.Minutes) once.Outcome {
	key := announceKey(channel, m.ID, string(min.Status))
	v := p.view(m, min)
	msg := blocks.AnnouncementMessage(blocks.Announcement{Lang: lg, Minutes: v, NowApproved: true})
	updated, _ := p.once(ctx, once.Work{
		Key:          key,
		Conversation: toChannel(channel),
		Post: func(ctx context.Context) (string, error) {
			// chat.update edits the post in place, metadata included: Slack
			// tells of a message whose metadata was replaced with the
			// message_metadata_updated event
			// (https://docs.slack.dev/reference/events/message_metadata_updated/).
			if _, _, _, err := p.deps.Slack.UpdateMessageContext(ctx, channel, ts,
				slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.AnnouncementMetadata(key, m.ID, string(min.Status)))); err != nil {
				return "", fmt.Errorf("update announcement: %w", err)
			}
			return ts, nil
		},
	})
	if !updated.Done() {
		return updated
	}
	replyKey := key + "/reply"
	reply := blocks.ApprovedReply(lg, v.Title, p.approvalChanges(ctx, m.ID))
	replied, _ := p.once(ctx, once.Work{
		Key:          replyKey,
		Conversation: toChannel(channel),
		Thread:       ts,
		Post: func(ctx context.Context) (string, error) {
			_, rts, err := p.deps.Slack.PostMessageContext(ctx, channel, slack.MsgOptionTS(ts),
				slack.MsgOptionText(reply.Text, false), slack.MsgOptionBlocks(reply.Blocks...),
				slack.MsgOptionMetadata(blocks.AnnouncementMetadata(replyKey, m.ID, string(min.Status))))
			if err != nil {
				return "", fmt.Errorf("reply in thread: %w", err)
			}
			return rts, nil
		},
	})
	if !replied.Done() {
		return replied
	}
	if updated == once.Sent || replied == once.Sent {
		return once.Sent // the approval went out (in part) on this poll
	}
	return updated
}

// view is the minutes as an announcement shows them, as the bot's
// /minutes shows them (minutes.Service.View).
func (p *poll) view(m apiclient.Meeting, min *apiclient.Minutes) blocks.MinutesView {
	return blocks.MinutesView{Display: p.deps.Minutes.View(minutes.Entry{Meeting: &m, Minutes: min})}
}
