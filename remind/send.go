package remind

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/once"
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
	case "not_yet":
		j.sum.NotYet++
	case "weekend":
		j.sum.Weekend++
	case "failed":
		j.sum.Failed = append(j.sum.Failed, Failure{Who: r.id, Err: err})
		j.log.ErrorContext(ctx, "remind: reminder failed", "user", r.id, "actions", n, "error", err)
	}
}

// plan is what r should get now: the actions due for them in their zone
// and the key of their local day, or why they get nothing now ("not_yet",
// "weekend", "" for nothing due or reminders off).
func (j *remindJob) plan(ctx context.Context, r *recipient, now time.Time) (due []*apiclient.Action, key, date, why string, err error) {
	prefs := Preferences{}
	if j.deps.Settings != nil {
		if prefs, err = j.deps.Settings.ReminderPreferences(ctx, r.id); err != nil {
			return nil, "", "", "failed", fmt.Errorf("read settings of %s: %w", r.id, err)
		}
	}
	if prefs.Off {
		return nil, "", "", "", nil
	}
	local := now.In(r.zone)
	skipWeekends := (j.cfg.SkipWeekends && !prefs.AllowWeekends) || prefs.WeekdaysOnly
	if wd := local.Weekday(); skipWeekends && (wd == time.Saturday || wd == time.Sunday) {
		return nil, "", "", "weekend", nil
	}
	if local.Before(prefs.RemindAt.Or(j.remindAt).On(local)) {
		return nil, "", "", "not_yet", nil
	}
	for _, a := range r.actions {
		if actions.Due(a, now, j.zone, r.zone, j.cfg.Days) != actions.NotDue {
			due = append(due, a)
		}
	}
	date = local.Format(time.DateOnly)
	return due, "remind:" + r.id + ":" + date, date, "", nil
}

// send does remindOne's work: the outcome ("sent", "skipped",
// "recovered", "busy",
// "not_yet", "weekend", "failed", or "" for nothing to send) and how many
// actions the reminder lists. The reminder is posted exactly once under
// remind:<user>:<local date> (internal/once); after an expired claim the
// person's DM is searched for it.
func (j *remindJob) send(ctx context.Context, r *recipient, now time.Time) (string, int, error) {
	due, key, date, why, err := j.plan(ctx, r, now)
	if why != "" || err != nil || len(due) == 0 {
		return why, len(due), err
	}
	res := j.poster.Post(ctx, once.Work{
		Key: key,
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
			return j.post(ctx, r.id, j.reminderOptions(r, due, key, date, now)...)
		},
	})
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
func (j *remindJob) reminderOptions(r *recipient, due []*apiclient.Action, key, date string, now time.Time) []slack.MsgOption {
	msg := blocks.ReminderMessage(j.reminder(r, due, now))
	ids := make([]string, 0, min(len(due), maxMetadataIDs))
	for _, a := range due[:min(len(due), maxMetadataIDs)] {
		ids = append(ids, a.ID)
	}
	return []slack.MsgOption{
		slack.MsgOptionText(msg.Text, false),
		slack.MsgOptionBlocks(msg.Blocks...),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReminderEventType, EventPayload: map[string]any{
			"key": key, "date": date, "action_ids": strings.Join(ids, ","), "action_count": len(due),
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
func (j *remindJob) reminder(r *recipient, due []*apiclient.Action, now time.Time) blocks.Reminder {
	status := func(a *apiclient.Action) actions.DueStatus {
		return actions.Due(a, now, j.zone, r.zone, j.cfg.Days)
	}
	slices.SortStableFunc(due, func(a, b *apiclient.Action) int {
		return cmp.Or(-cmp.Compare(status(a), status(b)), actions.DeadlineAt(a, j.zone).Compare(actions.DeadlineAt(b, j.zone)), cmp.Compare(a.ID, b.ID))
	})
	rem := blocks.Reminder{User: r.label + " (" + r.id + ")", Days: j.cfg.Days}
	for _, a := range due {
		// The recipient is the assignee, so the row has its buttons and no
		// name, exactly as the row a click redraws.
		row := blocks.RowOf(a, actions.AssigneeView(status(a)), nil)
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
		due, _, _, why, err := j.plan(ctx, r, now)
		switch {
		case err != nil:
			j.sum.Failed = append(j.sum.Failed, Failure{Who: r.id, Err: err})
			continue
		case why == "not_yet":
			j.sum.NotYet++
			continue
		case why == "weekend":
			j.sum.Weekend++
			continue
		case len(due) == 0:
			continue
		}
		fmt.Fprintln(w)
		io.WriteString(w, blocks.ReminderText(j.reminder(r, due, now)))
		j.sum.Reminded++
		j.sum.Actions += len(due)
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
