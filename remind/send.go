package remind

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/store"
)

// Preferences are one person's own reminder settings. The zero value is
// the organisation's settings.
type Preferences struct {
	// RemindAt is their local time of day; the zero Time means REMIND_AT.
	RemindAt clocktime.Time
	// WeekdaysOnly skips their Saturdays and Sundays whatever
	// REMIND_SKIP_WEEKENDS says.
	WeekdaysOnly bool
	// AllowWeekends reminds them on Saturdays and Sundays too, whatever
	// REMIND_SKIP_WEEKENDS says: they chose every day. WeekdaysOnly wins.
	AllowWeekends bool
	// Off sends them no reminders.
	Off bool
	// Cadence off is daily; on, one summary a week at that day and time
	// in their zone, of what is overdue or due within the next week.
	Cadence clocktime.Weekly
	// Away is their time away: no reminder up to its last day, then one
	// catch-up DM instead of the day's reminder.
	Away store.Away
	// Held are the actions assigned to them while away (the watcher held
	// their assignment DMs), for the catch-up; read only when it is due.
	Held []string
	// Snoozed are the actions they snoozed, by ID: each is left out of
	// their reminders before its Until, their local date.
	Snoozed map[string]store.Snooze
}

// Settings gives people's own reminder settings. The store package
// implements it; a nil Settings means everyone has the organisation's.
type Settings interface {
	// ReminderPreferences returns userID's settings, the zero Preferences
	// when they have set none.
	ReminderPreferences(ctx context.Context, userID string) (Preferences, error)
}

// sendAll reminds every recipient whose morning it is, cfg.Concurrency at
// once, logging progress on long runs.
func (j *remindJob) sendAll(ctx context.Context, recipients []*recipient, now time.Time) {
	stop := j.logProgress(ctx, len(recipients))
	defer stop()
	g := errgroup.Group{}
	g.SetLimit(j.cfg.Concurrency)
	for i, r := range recipients {
		if ctx.Err() != nil {
			j.mu.Lock()
			j.sum.NotAttempted = len(recipients) - i
			j.mu.Unlock()
			break
		}
		g.Go(func() error {
			j.remindOne(ctx, r, now)
			return nil
		})
	}
	g.Wait()
}

// remindOne reminds r if it is their time and they have not been reminded
// on their local today, and records the outcome.
func (j *remindJob) remindOne(ctx context.Context, r *recipient, now time.Time) {
	outcome, n, err := j.send(ctx, r, now)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.done++
	switch outcome {
	case "sent":
		j.sum.Reminded++
		j.sum.Actions += n
		j.log.DebugContext(ctx, "remind: sent", "user", r.id, "actions", n)
	case "skipped":
		j.sum.Skipped++
		j.log.DebugContext(ctx, "remind: already reminded today", "user", r.id)
	case "recovered":
		j.sum.Recovered++
		j.log.InfoContext(ctx, "remind: an earlier run's reminder was found in the DM; recorded, not sent again", "user", r.id)
	case "busy":
		j.sum.Busy++
		j.log.InfoContext(ctx, "remind: another run is reminding this user", "user", r.id)
	case "not_yet", "weekend", "holiday", "away":
		j.count(outcome)
	case "failed":
		j.sum.Failed = append(j.sum.Failed, Failure{Who: r.id, Err: err})
		j.log.ErrorContext(ctx, "remind: reminder failed", "user", r.id, "actions", n, "error", err)
	}
}

// plan is what r should get now, or why they get nothing now.
type plan struct {
	due       []*apiclient.Action
	days      int    // the due-soon window of this reminder
	key, date string // remind:<user>:<local date>, and the date
	// why is "not_yet", "weekend", "holiday", "away", "failed", or ""
	// for a reminder to send (when due is not empty).
	why string
	// weekly marks a weekly summary; catchUp the DM after time away,
	// with held the actions assigned meanwhile.
	weekly  bool
	catchUp *store.Away
	held    map[string]bool
}

// plan is what r should get now: the actions due for them in their zone
// (their snoozes left out) and the key of their local day, or why they
// get nothing now. The one key a day keeps every kind of reminder (daily,
// weekly, catch-up) to one DM a local day, exactly once (internal/once).
func (j *remindJob) plan(ctx context.Context, r *recipient, now time.Time) (plan, error) {
	prefs := Preferences{}
	if j.deps.Settings != nil {
		var err error
		if prefs, err = j.deps.Settings.ReminderPreferences(ctx, r.id); err != nil {
			return plan{why: "failed"}, fmt.Errorf("read settings of %s: %w", r.id, err)
		}
	}
	if prefs.Off {
		return plan{}, nil
	}
	local := now.In(r.zone)
	p := plan{days: j.cfg.Days, date: local.Format(time.DateOnly)}
	p.key = "remind:" + r.id + ":" + p.date
	switch {
	case j.cfg.Holidays.Holiday(local):
		p.why = "holiday"
		return p, nil
	case prefs.Away.On(p.date):
		p.why = "away"
		return p, nil
	}
	at := prefs.RemindAt.Or(j.remindAt)
	switch {
	case prefs.Away.CatchUpDue(p.date):
		// The day's reminder is the catch-up, at their usual time.
		away := prefs.Away
		p.catchUp, p.days = &away, max(j.cfg.Days, weekDays)
		p.held = make(map[string]bool, len(prefs.Held))
		for _, id := range prefs.Held {
			p.held[id] = true
		}
	case prefs.Cadence.On:
		// Their chosen day only (a weekend day may be chosen); a week
		// whose day is a holiday has no summary.
		if local.Weekday() != prefs.Cadence.Day {
			p.why = "not_yet"
			return p, nil
		}
		p.weekly, p.days, at = true, weekDays, prefs.Cadence.At
	default:
		skipWeekends := (j.cfg.SkipWeekends && !prefs.AllowWeekends) || prefs.WeekdaysOnly
		if wd := local.Weekday(); skipWeekends && (wd == time.Saturday || wd == time.Sunday) {
			p.why = "weekend"
			return p, nil
		}
	}
	if local.Before(at.On(local)) {
		p.why = "not_yet"
		return p, nil
	}
	for _, a := range r.actions {
		if sn, ok := prefs.Snoozed[a.ID]; ok && p.date < sn.Until {
			continue
		}
		if p.held[a.ID] || actions.Due(a, now, j.zone, r.zone, p.days) != actions.NotDue {
			p.due = append(p.due, a)
		}
	}
	return p, nil
}

// send does remindOne's work: the outcome ("sent", "skipped",
// "recovered", "busy",
// "not_yet", "weekend", "failed", or "" for nothing to send) and how many
// actions the reminder lists. The reminder is posted exactly once under
// remind:<user>:<local date> (internal/once); after an expired claim the
// person's DM is searched for it.
func (j *remindJob) send(ctx context.Context, r *recipient, now time.Time) (string, int, error) {
	p, err := j.plan(ctx, r, now)
	if p.catchUp != nil && p.why == "" && len(p.due) == 0 && err == nil {
		// Nothing to catch up on: no DM, and the time away is over.
		return "", 0, j.deps.Store.CaughtUp(ctx, r.id, p.catchUp.Since)
	}
	due := p.due
	if p.why != "" || err != nil || len(due) == 0 {
		return p.why, len(due), err
	}
	res := j.poster.Post(ctx, once.Work{
		Key: p.key,
		// A person with no DM with the bot yet cannot have been reminded.
		Conversation: func(ctx context.Context) (string, error) {
			ch, exists, err := j.dmOf(ctx, r.id)
			if !exists {
				ch = ""
			}
			return ch, err
		},
		// Posted to the user ID: with a bot token Slack delivers it in the
		// app's DM with them (its Messages tab) and answers with the D… ID,
		// so no conversations.open is needed (slackapi/bolt-js#1585: "you
		// simply put the User ID as the value for channel";
		// jenkinsci/slack-plugin#821). Slack's chat.postMessage page has
		// also described a user ID as the user's DM with Slackbot (quoted
		// in soxtoby/SlackNet#212); the reminder says who sent it either
		// way.
		Post: func(ctx context.Context) (string, error) {
			return j.post(ctx, r.id, j.reminderOptions(r, p, now)...)
		},
	})
	if p.catchUp != nil && res.Outcome.Done() {
		// Once the catch-up is out (or found already out), it is never
		// owed again, whichever replica sent it.
		if err := j.deps.Store.CaughtUp(ctx, r.id, p.catchUp.Since); err != nil {
			j.log.WarnContext(ctx, "remind: could not record the catch-up; the day's key still keeps it to one DM today", "user", r.id, "error", err)
		}
	}
	switch res.Outcome {
	case once.Sent:
		return "sent", len(due), nil
	case once.Already:
		return "skipped", len(due), nil
	case once.Recovered:
		return "recovered", len(due), nil
	case once.Busy:
		return "busy", len(due), nil
	}
	return "failed", len(due), res.Err
}

// openDM returns the ID of the bot's DM with user.
func (j *remindJob) openDM(ctx context.Context, user string) (string, error) {
	var channel string
	err := j.slack.Call(ctx, "conversations.open", "", func(ctx context.Context) error {
		ch, _, _, err := j.deps.Slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}})
		if err == nil {
			channel = ch.ID
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("open DM with %s: %w", user, err)
	}
	return channel, nil
}

// reminderOptions is r's reminder as chat.postMessage options, with
// metadata that meets Slack's schema.
func (j *remindJob) reminderOptions(r *recipient, p plan, now time.Time) []slack.MsgOption {
	due, key, date := p.due, p.key, p.date
	msg := blocks.ReminderMessage(j.reminder(r, p, now))
	ids := make([]string, 0, min(len(due), blocks.MaxMetadataIDs))
	for _, a := range due[:min(len(due), blocks.MaxMetadataIDs)] {
		ids = append(ids, a.ID)
	}
	return []slack.MsgOption{
		slack.MsgOptionText(msg.Text, false),
		slack.MsgOptionBlocks(msg.Blocks...),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReminderEventType, EventPayload: map[string]any{
			"key": key, "date": date, "action_ids": blocks.MetadataIDs(ids), "action_count": len(due),
		}}),
	}
}

// post sends a message to channel (a user ID means the bot's DM with
// them) and returns its timestamp.
func (j *remindJob) post(ctx context.Context, channel string, opts ...slack.MsgOption) (string, error) {
	var ts, answered string
	err := j.slack.Call(ctx, "chat.postMessage", channel, func(ctx context.Context) error {
		var err error
		answered, ts, err = j.deps.Slack.PostMessageContext(ctx, channel, opts...)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("post to %s: %w", channel, err)
	}
	if answered != "" && answered != channel {
		j.slack.Posted(answered)
	}
	return ts, nil
}

// reminder builds r's reminder of due: overdue actions first, then by
// deadline.
func (j *remindJob) reminder(r *recipient, p plan, now time.Time) blocks.Reminder {
	due := p.due
	status := func(a *apiclient.Action) actions.DueStatus {
		return actions.Due(a, now, j.zone, r.zone, p.days)
	}
	ranked := func(a *apiclient.Action) actions.Ranked {
		return actions.Ranked{Action: a, Overdue: status(a) == actions.Overdue}
	}
	slices.SortStableFunc(due, func(a, b *apiclient.Action) int {
		return actions.CompareUrgency(ranked(a), ranked(b), j.zone)
	})
	rem := blocks.Reminder{Lang: r.lang, User: r.label + " (" + r.id + ")", Days: p.days, Weekly: p.weekly}
	if p.catchUp != nil {
		rem.Away = &blocks.AwayCatchUp{Since: p.catchUp.Since.In(r.zone)}
	}
	for _, a := range due {
		// The recipient is the assignee, so the row has its buttons and no
		// name, exactly as the row a click redraws.
		row := blocks.RowOf(a, actions.AssigneeView(status(a)), j.deps.Actions.Link(a.ID), nil)
		switch {
		case p.held[a.ID]:
			rem.Away.Assigned = append(rem.Away.Assigned, row)
			continue
		case rem.Away != nil && row.Overdue && actions.DeadlineAt(a, j.zone).After(p.catchUp.Since):
			rem.Away.BecameOverdue++
		}
		if row.Overdue {
			rem.Overdue = append(rem.Overdue, row)
		} else {
			rem.DueSoon = append(rem.DueSoon, row)
		}
	}
	return rem
}

// dryRun writes every reminder due now, and who would have had one but for
// a match, to Out.
func (j *remindJob) dryRun(ctx context.Context, recipients []*recipient, now time.Time) {
	slices.SortFunc(recipients, func(a, b *recipient) int { return cmp.Or(cmp.Compare(a.label, b.label), cmp.Compare(a.id, b.id)) })
	w := j.deps.Out
	fmt.Fprintf(w, "Dry run for %s: nothing is sent, and nobody is checked for a reminder already sent today.\n", j.sum.Date)
	for _, r := range recipients {
		p, err := j.plan(ctx, r, now)
		switch {
		case err != nil:
			j.sum.Failed = append(j.sum.Failed, Failure{Who: r.id, Err: err})
			continue
		case p.why != "":
			j.count(p.why)
			continue
		case len(p.due) == 0:
			continue
		}
		fmt.Fprintln(w)
		io.WriteString(w, blocks.ReminderText(j.reminder(r, p, now)))
		j.sum.Reminded++
		j.sum.Actions += len(p.due)
	}
	if len(j.sum.Unmatched) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "No Slack user matches these assignees, so they would not be reminded:")
		for _, u := range j.sum.Unmatched {
			fmt.Fprintf(w, "  - %s (%s)\n", u.Assignee, words.Count(u.Actions, "action", "actions"))
		}
		if j.cfg.ReportChannel != "" {
			fmt.Fprintf(w, "This list would be posted to %s.\n", j.cfg.ReportChannel)
		}
	}
	fmt.Fprintln(w)
}

// count adds one to the summary's count of people left for why; the
// caller holds mu when workers run.
func (j *remindJob) count(why string) {
	switch why {
	case "not_yet":
		j.sum.NotYet++
	case "weekend":
		j.sum.Weekend++
	case "holiday":
		j.sum.Holiday++
	case "away":
		j.sum.Away++
	}
}
