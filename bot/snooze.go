package bot

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/workdays"
)

// snoozing is snoozing an action: the Snooze choices on a
// row, Unsnooze, /actions snoozed, and the end of every snooze of an
// action completed or cancelled. Whether the snooze leaves a reminder
// out is the reminder job's (remind/send.go).
type snoozing struct {
	store   Store // nil: the bot runs without one
	actions *actions.Service
	days    workdays.Calendar
	now     func() time.Time
	log     *slog.Logger
	say     userMessageFunc
}

// maxSnooze is how far ahead a snooze may end.
const maxSnooze = 366

// clickSnooze answers the Snooze choices (in a row's menu, or an older
// message's select menu), the date picker and Unsnooze.
// The action is the one the row's block ID names (blocks.ActionOfRowBlock;
// an older message's choice names it in its value). What changed is
// redrawn where the click was: the Home tab, or the row in a message Slack
// sent back (a reminder), with the answer to the clicker alone.
func (c *clicks) clickSnooze(ctx context.Context, in *interaction, actionID, value string) {
	st := c.acts.snoozes
	id, ok := blocks.ActionOfRowBlock(in.Actions[0].BlockID)
	when := value
	if w, old, isOld := blocks.ParseSnoozeValue(value); isOld {
		when, id, ok = w, old, true
	}
	var res snoozed
	switch {
	case !ok:
		res.msg = staleButton(ctx)
	case actionID == blocks.ActionRowMenu, actionID == blocks.ActionSnooze:
		res = st.snooze(ctx, in.User.ID, id, when, "")
	case actionID == blocks.ActionSnoozeDate:
		res = st.snooze(ctx, in.User.ID, id, "", value)
	case actionID == blocks.ActionUnsnooze:
		res = st.unsnooze(ctx, in.User.ID, id)
	default:
		res.msg = staleButton(ctx)
	}
	if res.action == nil {
		c.tell(ctx, in, notice(res.msg))
		return
	}
	// The caller's memoised /actions drew the row as it was.
	c.acts.memo.forget(in.User.ID)
	if in.Container.Type == "view" {
		c.answerOnHome(ctx, in, homeState{note: res.msg})
		return
	}
	row := c.acts.row(res.action, res.view, nil)
	row.SnoozedUntil = res.until
	row.Lang = lang.FromContext(ctx)
	if out, ok := in.rowReplaced(row); ok {
		// A failure is logged: the answer the clicker gets says what was
		// done.
		c.redraw(ctx, in, &reply{Text: cmp.Or(in.Message.Text, res.msg), Blocks: blocks.RawBlocks(out)})
	}
	c.tell(ctx, in, notice(res.msg))
}

// snoozed is what a snooze or unsnooze did: msg says it (or why
// nothing changed: action is nil then); action is the row to redraw as
// view, snoozed until until (zero: not snoozed).
type snoozed struct {
	msg    string
	action *apiclient.Action
	view   actions.View
	until  time.Time
}

// snooze snoozes action id for user until the day when names (tomorrow,
// the next working day, next week) or picked (YYYY-MM-DD, their own
// calendar) and says so, or says why not; nothing is stored then.
func (st *snoozing) snooze(ctx context.Context, user, id, when, picked string) snoozed {
	if st.store == nil {
		return snoozed{msg: lang.FromContext(ctx).T("snooze.no_store")}
	}
	me, a, msg := st.own(ctx, user, id)
	if msg != "" {
		return snoozed{msg: msg}
	}
	zone := cmpZone(me.Zone, st.actions.Zone())
	today := st.now().In(zone)
	y, m, d := today.Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, zone)
	var day time.Time
	switch when {
	case blocks.SnoozeTomorrow:
		day = midnight.AddDate(0, 0, 1)
	case blocks.SnoozeWorkingDay:
		day = st.days.NextWorking(today)
	case blocks.SnoozeNextWeek:
		day = midnight.AddDate(0, 0, 7)
	case "":
		p, err := time.ParseInLocation(time.DateOnly, picked, zone)
		if err != nil {
			return snoozed{msg: staleButton(ctx)}
		}
		day = p
	default:
		return snoozed{msg: staleButton(ctx)}
	}
	switch {
	case !day.After(midnight):
		return snoozed{msg: lang.FromContext(ctx).T("snooze.past")}
	case day.After(midnight.AddDate(0, 0, maxSnooze)):
		return snoozed{msg: lang.FromContext(ctx).T("snooze.too_far")}
	}
	if err := st.store.Snooze(ctx, user, a.ID, day.Format(time.DateOnly)); err != nil {
		return snoozed{msg: st.say(ctx, "snooze", err)}
	}
	deadline := blocks.DeadlineAfterSnooze
	switch {
	case actions.Due(&a, st.now(), st.actions.Zone(), zone, 0) == actions.Overdue:
		deadline = blocks.DeadlinePassed
	case !a.Deadline.IsZero() && actions.DeadlineAt(&a, st.actions.Zone()).Before(day):
		deadline = blocks.DeadlineInsideSnooze
	}
	return snoozed{msg: blocks.SnoozedText(lang.FromContext(ctx), a.Title, day, deadline), action: &a, view: st.rowView(me, &a), until: day}
}

// own is action id when it is still to do and user's own, with user as
// the domain knows them; else msg says why not.
func (st *snoozing) own(ctx context.Context, user, id string) (me actions.Member, a apiclient.Action, msg string) {
	me, err := st.actions.Who(ctx, user)
	if err != nil {
		return me, a, st.say(ctx, "snooze", err)
	}
	a, found, err := st.actions.Find(ctx, id)
	switch {
	case err != nil:
		return me, a, st.say(ctx, "snooze", err)
	case found && actions.CanSnooze(me, &a):
	case !found || !actions.StillToDo(a.Status):
		return me, a, lang.FromContext(ctx).T("snooze.not_open")
	default:
		return me, a, lang.FromContext(ctx).T("snooze.not_mine")
	}
	return me, a, ""
}

// rowView is how me sees their own action a on a row: as any row of
// their own, with the Snooze controls.
func (st *snoozing) rowView(me actions.Member, a *apiclient.Action) actions.View {
	return st.view(st.actions.ViewOf(me, a, st.now(), actions.OnePerson), me, a)
}

// view is v with MaySnooze decided for viewer (actions.SnoozeView): never
// without a store, where a snooze could not be kept.
func (st *snoozing) view(v actions.View, viewer actions.Member, a *apiclient.Action) actions.View {
	if st == nil || st.store == nil {
		v.MaySnooze = false
		return v
	}
	return actions.SnoozeView(v, viewer, a)
}

// changed marks row, the row of action a that actor just changed, with
// their Snooze controls and the day their snooze of it ends: a status
// click redraws the row with them as they were (a snooze outlives "in
// progress"; completing or cancelling ended it, statusChanged).
func (st *snoozing) changed(ctx context.Context, actor string, a *apiclient.Action, row *blocks.ActionRow) {
	if st == nil || st.store == nil {
		return
	}
	me, err := st.actions.Who(ctx, actor)
	if err != nil {
		return // drawn without them, as ChangerView draws the rest
	}
	row.MaySnooze = st.view(actions.View{}, me, a).MaySnooze
	if row.MaySnooze {
		row.SnoozedUntil = st.running(ctx, me)[a.ID]
	}
}

// running is the local day each of me's snoozes still running ends, by
// action ID; nil without a store or when they cannot be read (the rows
// then offer Snooze, and the reminder job, which reads them itself,
// still leaves the snoozed actions out).
func (st *snoozing) running(ctx context.Context, me actions.Member) map[string]time.Time {
	if st == nil || st.store == nil || me.ID == "" {
		return nil
	}
	snoozes, err := st.store.Snoozes(ctx, me.ID)
	if err != nil {
		st.log.WarnContext(ctx, "snooze: could not read snoozes to draw rows", "error", err)
		return nil
	}
	if len(snoozes) == 0 {
		return nil
	}
	zone := cmpZone(me.Zone, st.actions.Zone())
	today := st.now().In(zone).Format(time.DateOnly)
	out := make(map[string]time.Time, len(snoozes))
	for id, sn := range snoozes {
		if sn.Until <= today {
			continue
		}
		day, err := time.ParseInLocation(time.DateOnly, sn.Until, zone)
		if err != nil {
			// The store checks the day when it is saved: a row changed
			// by hand. The action is drawn as not snoozed.
			st.log.WarnContext(ctx, "snooze: stored day unreadable", "action", id, "until", sn.Until, "error", err)
			continue
		}
		out[id] = day
	}
	return out
}

// unsnooze ends user's snooze of action id.
func (st *snoozing) unsnooze(ctx context.Context, user, id string) snoozed {
	if st.store == nil {
		return snoozed{msg: lang.FromContext(ctx).T("snooze.no_store")}
	}
	ok, err := st.store.Unsnooze(ctx, user, id)
	switch {
	case err != nil:
		return snoozed{msg: st.say(ctx, "unsnooze", err)}
	case !ok:
		return snoozed{msg: lang.FromContext(ctx).T("snooze.not_snoozed")}
	}
	res := snoozed{msg: lang.FromContext(ctx).T("snooze.ended")}
	// The row is redrawn when the action is still the clicker's to do.
	if me, a, msg := st.own(ctx, user, id); msg == "" {
		res.action, res.view = &a, st.rowView(me, &a)
	}
	return res
}

// statusChanged ends every snooze of action id when it was completed or
// cancelled: a snooze ends by itself with the action. A failure is
// logged; the reminder job leaves closed actions out anyway.
func (st *snoozing) statusChanged(ctx context.Context, id string, to apiclient.Status) {
	if st == nil || st.store == nil || actions.StillToDo(to) {
		return
	}
	if err := st.store.EndSnoozes(ctx, id); err != nil {
		st.log.WarnContext(ctx, "snooze: could not end the snoozes of a closed action", "action", id, "error", err)
	}
}

// snoozed is /actions snoozed: the caller's snoozed actions still to do
// and still theirs, each with Unsnooze. A snooze whose action was
// completed, cancelled or reassigned meanwhile is ended here.
func (u *actionsUI) snoozed(ctx context.Context, user string) *reply {
	st := u.snoozes
	if st == nil || st.store == nil {
		return notice(lang.FromContext(ctx).T("snooze.no_store"))
	}
	snoozes, err := st.store.Snoozes(ctx, user)
	if err != nil {
		return notice(u.say(ctx, "read snoozes", err))
	}
	me, err := u.actions.Who(ctx, user)
	if err != nil {
		return notice(u.say(ctx, "read snoozes", err))
	}
	zone := cmpZone(me.Zone, u.actions.Zone())
	today := u.now().In(zone).Format(time.DateOnly)
	ids := make([]string, 0, len(snoozes))
	for id := range snoozes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var rows []blocks.ActionRow
	for _, id := range ids {
		sn := snoozes[id]
		if sn.Until <= today {
			continue // over: reminded as usual
		}
		a, found, err := u.actions.Find(ctx, id)
		if err != nil {
			return notice(u.say(ctx, "read snoozes", err))
		}
		if !found || !actions.CanSnooze(me, &a) {
			if _, err := st.store.Unsnooze(ctx, user, id); err != nil {
				u.log.WarnContext(ctx, "snooze: could not end a snooze that no longer applies", "action", id, "error", err)
			}
			continue
		}
		row := u.row(&a, st.rowView(me, &a), nil)
		if row.SnoozedUntil, err = time.ParseInLocation(time.DateOnly, sn.Until, zone); err != nil {
			// As in running: listed, without the day it cannot show.
			u.log.WarnContext(ctx, "snooze: stored day unreadable", "action", id, "until", sn.Until, "error", err)
		}
		rows = append(rows, row)
	}
	lg := lang.FromContext(ctx)
	return ephemeral(blocks.Actions(blocks.ActionList{Lang: lg, Title: lg.T("snooze.list_title"), Rows: rows, Total: len(rows),
		Empty: lg.T("snooze.list_empty")}))
}

// cmpZone is zone, or org when zone is unknown.
func cmpZone(zone, org *time.Location) *time.Location {
	if zone == nil {
		return org
	}
	return zone
}
