package bot

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// AuditTrail is the audit trail (package audit) as the bot writes and
// reads it; *store.Store implements it. NewServer takes it from
// Deps.Store when the store has one, as it does MinutesSearch, so the
// Store interface stays what follows and settings need.
type AuditTrail interface {
	AppendAudit(ctx context.Context, e audit.Entry) (audit.Entry, error)
	// AuditOf is the latest entries about target, oldest first.
	AuditOf(ctx context.Context, target string, limit int) ([]audit.Entry, error)
	// AuditPage is a page of the trail, newest first, before entry
	// before (0: the newest), and the next page's cursor (0: none).
	AuditPage(ctx context.Context, before int64, limit int) ([]audit.Entry, int64, error)
}

// trailWriter records the changes the bot makes in its own store
// (follows, their choices and digests, settings) and the minutes it
// shares; status changes are the action domain's (actions.Service.
// SetStatus). A nil *trailWriter, or one without a trail, records
// nothing.
type trailWriter struct {
	trail   AuditTrail
	actions *actions.Service
	now     func() time.Time
	log     *slog.Logger
}

func newTrailWriter(st Store, svc *actions.Service, now func() time.Time, log *slog.Logger) *trailWriter {
	t, _ := st.(AuditTrail)
	if t == nil {
		return nil
	}
	return &trailWriter{trail: t, actions: svc, now: now, log: log}
}

// change is one entry to record.
type change struct {
	actor    string
	kind     audit.Kind
	target   string
	from, to string
	outcome  audit.Outcome
}

// record appends c, with the surface ctx carries. The actor's records
// identity is what is already known of them (no Slack call is made for
// it). The change has been made (it is in recordsbot's own store, which
// the entry goes to as well): an entry that cannot be written is logged
// here, once, and the change still answered as made; no caller has
// anything else to do with the error.
func (w *trailWriter) record(ctx context.Context, c change) {
	if w == nil {
		return
	}
	if c.actor == "" {
		c.actor = audit.ActorOf(ctx)
	}
	e := audit.New(ctx, w.now(), c.actor, c.kind, c.target)
	if me, ok := w.actions.WhoCached(c.actor); ok {
		e.ActorRecords = me.RecordsName()
	}
	e.From, e.To, e.Outcome = c.from, c.to, c.outcome
	if e.Outcome == "" {
		e.Outcome = audit.Done
	}
	if _, err := w.trail.AppendAudit(ctx, e); err != nil {
		w.log.ErrorContext(ctx, "audit: entry not recorded", "kind", c.kind, "target", c.target, "error", err)
	}
}

// auditedStore is the bot's Store recording every change made through
// it, by the person and on the surface the request's context names
// (audit.WithActor, audit.WithSurface, set once at the edge): a follow,
// an unfollow, a follow's choice, a digest schedule, a person's settings.
// Wrapping the Store, rather than calling the trail beside each change,
// keeps the follow and settings code as it is and misses none of its
// paths. A change that did not happen (an error, nothing to unfollow)
// records nothing.
type auditedStore struct {
	Store
	w *trailWriter
}

// auditStore wraps st when there is a trail to write.
func auditStore(st Store, w *trailWriter) Store {
	if w == nil {
		return st
	}
	return auditedStore{Store: st, w: w}
}

// followTarget names a follow in the trail.
func followTarget(channelID, committeeKey string) string { return channelID + "/" + committeeKey }

func (s auditedStore) Follow(ctx context.Context, f store.Follow) (bool, error) {
	existed, err := s.Store.Follow(ctx, f)
	if err == nil && !existed {
		s.w.record(ctx, change{kind: audit.Follow, target: followTarget(f.ChannelID, f.CommitteeKey), to: f.Committee})
	}
	return existed, err
}

func (s auditedStore) Unfollow(ctx context.Context, channelID, committeeKey string) (bool, error) {
	existed, err := s.Store.Unfollow(ctx, channelID, committeeKey)
	if err == nil && existed {
		s.w.record(ctx, change{kind: audit.Unfollow, target: followTarget(channelID, committeeKey)})
	}
	return existed, err
}

func (s auditedStore) SetFollowChoice(ctx context.Context, channelID, committeeKey, what string, on bool) (bool, error) {
	found, err := s.Store.SetFollowChoice(ctx, channelID, committeeKey, what, on)
	if err == nil && found {
		s.w.record(ctx, change{kind: audit.FollowChoice, target: followTarget(channelID, committeeKey),
			from: what + " " + onOff(!on), to: what + " " + onOff(on)})
	}
	return found, err
}

// auditOrgDefault is what the trail keeps for a choice given back to the
// organisation's default (a digest schedule, a follow's language): a
// record of what was chosen, in English like the rest of the trail.
const auditOrgDefault = "the organisation's default"

func (s auditedStore) SetFollowLanguage(ctx context.Context, channelID, committeeKey, code string) (bool, error) {
	found, err := s.Store.SetFollowLanguage(ctx, channelID, committeeKey, code)
	if err == nil && found {
		to := "language " + code
		if code == "" {
			to = "language " + auditOrgDefault
		}
		s.w.record(ctx, change{kind: audit.FollowChoice, target: followTarget(channelID, committeeKey), to: to})
	}
	return found, err
}

func (s auditedStore) SetDigestChoice(ctx context.Context, channelID, committeeKey string, schedule *clocktime.Weekly, mentions bool) error {
	err := s.Store.SetDigestChoice(ctx, channelID, committeeKey, schedule, mentions)
	if err == nil {
		to := auditOrgDefault
		if schedule != nil {
			to = schedule.String()
		}
		if mentions {
			to += ", mentions"
		}
		s.w.record(ctx, change{kind: audit.DigestSchedule, target: followTarget(channelID, committeeKey), to: to})
	}
	return err
}

func (s auditedStore) AddTopicWatch(ctx context.Context, w store.TopicWatch, limit int) (store.TopicWatch, bool, error) {
	got, existed, err := s.Store.AddTopicWatch(ctx, w, limit)
	if err == nil && !existed {
		s.w.record(ctx, change{kind: audit.TopicWatch, target: topicAuditTarget(got), to: got.Query})
	}
	return got, existed, err
}

func (s auditedStore) StopTopicWatch(ctx context.Context, id, userID, channelID string) (store.TopicWatch, bool, error) {
	w, ok, err := s.Store.StopTopicWatch(ctx, id, userID, channelID)
	if err == nil && ok {
		s.w.record(ctx, change{kind: audit.TopicStop, target: topicAuditTarget(w), from: w.Query})
	}
	return w, ok, err
}

func (s auditedStore) Snooze(ctx context.Context, userID, actionID, until string) error {
	err := s.Store.Snooze(ctx, userID, actionID, until)
	if err == nil {
		s.w.record(ctx, change{kind: audit.Snooze, target: actionID, to: until})
	}
	return err
}

func (s auditedStore) Unsnooze(ctx context.Context, userID, actionID string) (bool, error) {
	ok, err := s.Store.Unsnooze(ctx, userID, actionID)
	if err == nil && ok {
		s.w.record(ctx, change{kind: audit.Snooze, target: actionID, to: "unsnoozed"})
	}
	return ok, err
}

func (s auditedStore) SetAway(ctx context.Context, userID, lastDay string) error {
	err := s.Store.SetAway(ctx, userID, lastDay)
	if err == nil {
		s.w.record(ctx, change{kind: audit.Settings, target: userID, to: "away_until=" + lastDay})
	}
	return err
}

func (s auditedStore) EndAway(ctx context.Context, userID, today string) (bool, error) {
	ok, err := s.Store.EndAway(ctx, userID, today)
	if err == nil && ok {
		s.w.record(ctx, change{kind: audit.Settings, target: userID, to: "away=back"})
	}
	return ok, err
}

func (s auditedStore) ChangeSettings(ctx context.Context, userID string, set store.Settings) error {
	err := s.Store.ChangeSettings(ctx, userID, set)
	if err == nil {
		s.w.record(ctx, change{kind: audit.Settings, target: userID, to: settingsText(set)})
	}
	return err
}

// settingsText is the fields a settings change sets, as the trail says
// them: "remind=off remind_at=08:30".
func settingsText(set store.Settings) string {
	var parts []string
	if set.RemindEnabled != nil {
		parts = append(parts, "remind="+onOff(*set.RemindEnabled))
	}
	if !set.RemindAt.IsZero() {
		parts = append(parts, "remind_at="+set.RemindAt.String())
	}
	if set.WeekdaysOnly != nil {
		parts = append(parts, "weekdays_only="+onOff(*set.WeekdaysOnly))
	}
	if set.AssignDMs != nil {
		parts = append(parts, "assign_dms="+onOff(*set.AssignDMs))
	}
	switch {
	case set.Cadence != nil && set.Cadence.On:
		parts = append(parts, "cadence=weekly "+set.Cadence.String())
	case set.Cadence != nil:
		parts = append(parts, "cadence=daily")
	}
	return strings.Join(parts, " ")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// clickSurface is where a status button was clicked: the Home tab; a
// list opened from a weekly digest's "My actions here" (its page carries
// the digest's committee); a message of the bot's own in a DM (a
// reminder, an assignment DM); otherwise a reply.
func clickSurface(in *interaction, pageCtx string) audit.Surface {
	if in.Container.Type == "view" {
		return audit.Home
	}
	if q, ok := parseContext(pageCtx); ok && q.Committee != "" {
		return audit.Digest
	}
	if !in.Container.IsEphemeral {
		return audit.Reminder
	}
	return audit.Reply
}

// historyLimit is how many of an action's latest entries /actions history
// shows; Slack's section limit may show fewer (blocks.History).
const historyLimit = 50

// history answers /actions history <id>: the action's audit trail, for
// whoever may see the action (the visibility rule, actions.Service.
// CanSee); an action the records no longer hold, only for those who may
// see anyone's. Someone who may not see it is told so in the words used
// for an action that does not exist, so its existence is not given away.
func (u *actionsUI) history(ctx context.Context, caller, id string) *reply {
	if u.trail == nil {
		return notice(lang.FromContext(ctx).T("follow.store_not_set"))
	}
	me, meErr := u.actions.Who(ctx, caller)
	l := u.actions.ReaderLanguage(me.Locale)
	a, found, err := u.actions.Find(ctx, id)
	if err != nil {
		return notice(u.say(ctx, "action history", err))
	}
	if !u.actions.CanSeeHistory(me, &a, found) {
		if meErr != nil && !me.Mapped() {
			u.log.WarnContext(ctx, "action history: actor lookup failed", "error", meErr)
			return notice(l.T("msg.profile_unknown"))
		}
		return notice(l.F("audit.history.unseen", "id", blocks.Escape(id)))
	}
	es, err := u.trail.AuditOf(ctx, id, historyLimit)
	if err != nil {
		u.say(ctx, "action history", err) // logged, and counted as a store outage
		return notice(l.T("audit.history.down"))
	}
	shown := es[:0]
	for i := range es {
		if es[i].InActionHistory(caller) {
			shown = append(shown, es[i])
		}
	}
	return ephemeral(blocks.History(l, id, a.Title, auditLines(shown)))
}

// auditLines are entries as the blocks show them.
func auditLines(es []audit.Entry) []blocks.AuditLine {
	out := make([]blocks.AuditLine, 0, len(es))
	for _, e := range es {
		out = append(out, blocks.AuditLine{At: e.Time, Actor: e.Actor, Surface: string(e.Surface), Kind: string(e.Kind),
			Target: e.Target, From: e.From, To: e.To, Outcome: string(e.Outcome)})
	}
	return out
}
