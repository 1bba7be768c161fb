package bot

import (
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

// steering is snoozing an action (issue 31): the Snooze choices on a
// row, Unsnooze, /actions snoozed, and the end of every snooze of an
// action completed or cancelled. Whether the snooze leaves a reminder
// out is the reminder job's (remind/send.go).
type steering struct {
	store Store // nil: the bot runs without one
	dom   *actions.Service
	days  workdays.Calendar
	now   func() time.Time
	log   *slog.Logger
	say   say
}

// maxSnooze is how far ahead a snooze may end.
const maxSnooze = 366

// clickSnooze answers the Snooze choices, the date picker and
// Unsnooze, to the clicker only.
func (c *clicks) clickSnooze(ctx context.Context, in *interaction, actionID, value string) {
	st := c.acts.steer
	var msg string
	switch actionID {
	case blocks.ActionSnooze:
		when, id, ok := blocks.ParseSnoozeValue(value)
		if !ok {
			msg = staleButton(ctx)
			break
		}
		msg = st.snooze(ctx, in.User.ID, id, when, "")
	case blocks.ActionSnoozeDate:
		id, ok := blocks.SnoozeActionOfBlock(in.Actions[0].BlockID)
		if !ok {
			msg = staleButton(ctx)
			break
		}
		msg = st.snooze(ctx, in.User.ID, id, "", value)
	case blocks.ActionUnsnooze:
		msg = st.unsnooze(ctx, in.User.ID, value)
	default:
		msg = staleButton(ctx)
	}
	c.tell(ctx, in, notice(msg))
}

// snooze snoozes action id for user until the day when names (tomorrow,
// the next working day, next week) or picked (YYYY-MM-DD, their own
// calendar) and says so, or says why not; nothing is stored then.
func (st *steering) snooze(ctx context.Context, user, id, when, picked string) string {
	if st.store == nil {
		return lang.FromContext(ctx).T("snooze.no_store")
	}
	me, err := st.dom.Who(ctx, user)
	if err != nil {
		return st.say(ctx, "snooze", err)
	}
	a, found, err := st.dom.Find(ctx, id)
	if err != nil {
		return st.say(ctx, "snooze", err)
	}
	if !found || !actions.StillToDo(a.Status) {
		return lang.FromContext(ctx).T("snooze.not_open")
	}
	if !me.Owns(a.Assignee) {
		return lang.FromContext(ctx).T("snooze.not_mine")
	}
	zone := cmpZone(me.Zone, st.dom.Zone())
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
			return staleButton(ctx)
		}
		day = p
	default:
		return staleButton(ctx)
	}
	switch {
	case !day.After(midnight):
		return lang.FromContext(ctx).T("snooze.past")
	case day.After(midnight.AddDate(0, 0, maxSnooze)):
		return lang.FromContext(ctx).T("snooze.too_far")
	}
	if err := st.store.Snooze(ctx, user, a.ID, day.Format(time.DateOnly)); err != nil {
		return st.say(ctx, "snooze", err)
	}
	inside := !a.Deadline.IsZero() && actions.DeadlineAt(&a, st.dom.Zone()).Before(day)
	return blocks.SnoozedText(lang.FromContext(ctx), a.Title, day, inside)
}

// unsnooze ends user's snooze of action id.
func (st *steering) unsnooze(ctx context.Context, user, id string) string {
	if st.store == nil {
		return lang.FromContext(ctx).T("snooze.no_store")
	}
	ok, err := st.store.Unsnooze(ctx, user, id)
	switch {
	case err != nil:
		return st.say(ctx, "unsnooze", err)
	case !ok:
		return lang.FromContext(ctx).T("snooze.not_snoozed")
	}
	return lang.FromContext(ctx).T("snooze.ended")
}

// statusChanged ends every snooze of action id when it was completed or
// cancelled: a snooze ends by itself with the action. A failure is
// logged; the reminder job leaves closed actions out anyway.
func (st *steering) statusChanged(ctx context.Context, id string, to apiclient.Status) {
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
	st := u.steer
	if st == nil || st.store == nil {
		return notice(lang.FromContext(ctx).T("snooze.no_store"))
	}
	snoozes, err := st.store.Snoozes(ctx, user)
	if err != nil {
		return notice(u.say(ctx, "read snoozes", err))
	}
	me, err := u.dom.Who(ctx, user)
	if err != nil {
		return notice(u.say(ctx, "read snoozes", err))
	}
	zone := cmpZone(me.Zone, u.dom.Zone())
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
		a, found, err := u.dom.Find(ctx, id)
		if err != nil {
			return notice(u.say(ctx, "read snoozes", err))
		}
		if !found || !actions.StillToDo(a.Status) || !me.Owns(a.Assignee) {
			if _, err := st.store.Unsnooze(ctx, user, id); err != nil {
				u.log.WarnContext(ctx, "snooze: could not end a snooze that no longer applies", "action", id, "error", err)
			}
			continue
		}
		row := blocks.RowOf(&a, actions.SnoozeView(u.dom.ViewOf(me, &a, u.now(), actions.OnePerson), me, &a), nil)
		row.SnoozedUntil, _ = time.ParseInLocation(time.DateOnly, sn.Until, zone)
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
