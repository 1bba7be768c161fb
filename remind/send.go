package remind

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// ClaimResult is what [Ledger.Claim] found.
type ClaimResult int

// The answers of [Ledger.Claim].
const (
	// ClaimNew: the key is now the caller's for the lease; do the work,
	// then Done.
	ClaimNew ClaimResult = iota + 1
	// ClaimDone: the work was done before; skip it.
	ClaimDone
	// ClaimBusy: another owner holds an unexpired lease; skip it.
	ClaimBusy
	// ClaimExpired: an earlier owner's lease ran out before it called
	// Done. It may have sent: check the DM's history for the key in message
	// metadata first, then send and Done. The key is now the caller's.
	ClaimExpired
)

// Ledger records work that must happen exactly once, such as one person's
// reminder for one local day. The store package implements it.
type Ledger interface {
	// Claim takes key for owner for lease: ClaimNew (do it, then Done),
	// ClaimDone (done before: skip), ClaimBusy (another owner holds an
	// unexpired lease: skip), ClaimExpired (an earlier owner's lease ran out
	// before Done: it may have sent — check the DM's history for the key in
	// message metadata first, then send and Done).
	Claim(ctx context.Context, key, owner string, lease time.Duration) (ClaimResult, error)
	// Done marks key done by owner, with a short result (such as the
	// message's timestamp).
	Done(ctx context.Context, key, owner, result string) error
	// Release gives key up, so the next run does the work.
	Release(ctx context.Context, key, owner string) error
}

// Preferences are one person's own reminder settings. The zero value is
// the organisation's settings.
type Preferences struct {
	// RemindAt is their local time of day, "HH:MM"; "" means REMIND_AT.
	RemindAt string
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
	if outcome != "" {
		j.count(outcome)
	}
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
	at := j.remindAt
	if prefs.RemindAt != "" {
		if own, perr := parseTimeOfDay(prefs.RemindAt); perr == nil {
			at = own
		}
	}
	y, m, d := local.Date()
	if local.Before(time.Date(y, m, d, 0, 0, 0, 0, r.zone).Add(at)) {
		return nil, "", "", "not_yet", nil
	}
	for _, a := range r.actions {
		if actions.Due(a, now, j.cfg.Zone, r.zone, j.cfg.Days) != actions.NotDue {
			due = append(due, a)
		}
	}
	date = local.Format(time.DateOnly)
	return due, "remind:" + r.id + ":" + date, date, "", nil
}

// send does remindOne's work: the outcome ("sent", "skipped", "busy",
// "not_yet", "weekend", "failed", or "" for nothing to send) and how many
// actions the reminder lists.
func (j *remindJob) send(ctx context.Context, r *recipient, now time.Time) (string, int, error) {
	due, key, date, why, err := j.plan(ctx, r, now)
	if why != "" || err != nil || len(due) == 0 {
		return why, len(due), err
	}
	if j.deps.Ledger == nil {
		return j.sendChecked(ctx, r, due, key, date, now)
	}
	claim, err := j.deps.Ledger.Claim(ctx, key, j.cfg.Owner, j.cfg.Lease)
	if err != nil {
		return "failed", len(due), fmt.Errorf("claim %s: %w", key, err)
	}
	switch claim {
	case ClaimDone:
		return "skipped", len(due), nil
	case ClaimBusy:
		return "busy", len(due), nil
	case ClaimExpired:
		// The run that held it may have sent before it died: only the DM
		// can tell.
		channel, exists, err := j.dmOf(ctx, r.id)
		if err == nil && exists {
			var sent bool
			if sent, err = j.sentBefore(ctx, channel, ReminderEventType, key, date); err == nil && sent {
				return "skipped", len(due), j.markDone(ctx, key, "found in history")
			}
		}
		if err != nil {
			j.release(ctx, key)
			return "failed", len(due), err
		}
	}
	// Posted to the user ID: with a bot token Slack delivers it in the
	// app's DM with them (its Messages tab) and answers with the D… ID, so
	// no conversations.open is needed (slackapi/bolt-js#1585: "you simply
	// put the User ID as the value for channel"; jenkinsci/slack-plugin#821).
	// Slack's chat.postMessage page has also described a user ID as the
	// user's DM with Slackbot (quoted in soxtoby/SlackNet#212); the
	// reminder says who sent it either way.
	ts, err := j.post(ctx, r.id, j.reminderOptions(r, due, key, date, now)...)
	if err != nil {
		if refused(err) {
			j.release(ctx, key)
		}
		// Otherwise the post may have landed (the run was cancelled, the
		// connection broke): the claim lapses with its lease, and the run
		// that takes it over looks in the DM before sending.
		return "failed", len(due), err
	}
	if err := j.markDone(ctx, key, ts); err != nil {
		// Sent, but not recorded: the lease runs out and the next run finds
		// the reminder in the DM's history.
		j.log.WarnContext(ctx, "remind: sent but could not mark done", "key", key, "error", err)
	}
	return "sent", len(due), nil
}

// sendChecked is send without a ledger: today's reminder is looked for in
// the DM's history (a Tier 3 conversations.history a person; the DMs are
// listed in bulk) before sending. Someone with no DM yet is sent theirs at
// once.
func (j *remindJob) sendChecked(ctx context.Context, r *recipient, due []*apiclient.Action, key, date string, now time.Time) (string, int, error) {
	channel, exists, err := j.dmOf(ctx, r.id)
	if err != nil {
		return "failed", len(due), err
	}
	if !exists {
		if _, err := j.post(ctx, r.id, j.reminderOptions(r, due, key, date, now)...); err != nil {
			return "failed", len(due), err
		}
		return "sent", len(due), nil
	}
	// Without the check a rerun would send duplicates, so a failed check
	// fails the reminder; the next run tries again.
	sent, err := j.sentBefore(ctx, channel, ReminderEventType, key, date)
	if err != nil {
		return "failed", len(due), err
	}
	if sent {
		return "skipped", len(due), nil
	}
	if _, err := j.post(ctx, channel, j.reminderOptions(r, due, key, date, now)...); err != nil {
		return "failed", len(due), err
	}
	return "sent", len(due), nil
}

// markDone marks key done in the ledger.
func (j *remindJob) markDone(ctx context.Context, key, result string) error {
	if err := j.deps.Ledger.Done(ctx, key, j.cfg.Owner, result); err != nil {
		return fmt.Errorf("mark %s done: %w", key, err)
	}
	return nil
}

// refused reports whether err is Slack's answer that it did not do the
// call (an "ok":false error or a 429), as against a failure that leaves it
// unknown whether the call took effect (a timeout, a cancelled run, a
// broken connection, a 5xx).
func refused(err error) bool {
	var rl *slack.RateLimitedError
	var se slack.SlackErrorResponse
	return errors.As(err, &rl) || errors.As(err, &se)
}

// release gives key back after a failure, so the next run tries again at
// once rather than after the lease. A cancelled run still releases.
func (j *remindJob) release(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := j.deps.Ledger.Release(ctx, key, j.cfg.Owner); err != nil {
		j.log.WarnContext(ctx, "remind: could not release a claim; it lapses with its lease", "key", key, "error", err)
	}
}

// openDM returns the ID of the bot's DM with user.
func (j *remindJob) openDM(ctx context.Context, user string) (string, error) {
	var channel string
	err := j.slack.call(ctx, "conversations.open", "", func(ctx context.Context) error {
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

// sentBefore reports whether the latest messages of channel include one of
// the bot's with metadata eventType for key (or, from before keys, for
// date).
func (j *remindJob) sentBefore(ctx context.Context, channel, eventType, key, date string) (bool, error) {
	var msgs []slack.Message
	err := j.slack.call(ctx, "conversations.history", "", func(ctx context.Context) error {
		h, err := j.deps.Slack.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: channel, Limit: historyDepth, IncludeAllMetadata: true,
		})
		if err == nil {
			msgs = h.Messages
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("read history of %s: %w", channel, err)
	}
	for _, m := range msgs {
		p := m.Metadata.EventPayload
		if m.Metadata.EventType == eventType && (p["key"] == key || p["key"] == nil && p["date"] == date) {
			return true, nil
		}
	}
	return false, nil
}

// post sends a message to channel (a user ID means the bot's DM with
// them) and returns its timestamp.
func (j *remindJob) post(ctx context.Context, channel string, opts ...slack.MsgOption) (string, error) {
	var ts, answered string
	err := j.slack.call(ctx, "chat.postMessage", channel, func(ctx context.Context) error {
		var err error
		answered, ts, err = j.deps.Slack.PostMessageContext(ctx, channel, opts...)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("post to %s: %w", channel, err)
	}
	if answered != "" && answered != channel {
		j.slack.posted(answered)
	}
	return ts, nil
}

// reminder builds r's reminder of due: overdue actions first, then by
// deadline.
func (j *remindJob) reminder(r *recipient, due []*apiclient.Action, now time.Time) blocks.Reminder {
	status := func(a *apiclient.Action) actions.DueStatus {
		return actions.Due(a, now, j.cfg.Zone, r.zone, j.cfg.Days)
	}
	slices.SortStableFunc(due, func(a, b *apiclient.Action) int {
		return cmp.Or(-cmp.Compare(status(a), status(b)), actions.DeadlineAt(a, j.cfg.Zone).Compare(actions.DeadlineAt(b, j.cfg.Zone)), cmp.Compare(a.ID, b.ID))
	})
	rem := blocks.Reminder{User: r.label + " (" + r.id + ")", Days: j.cfg.Days}
	for _, a := range due {
		// The recipient is the assignee, so the row has its buttons and no
		// name, exactly as the row a click redraws.
		row := blocks.RowOf(a, status(a) == actions.Overdue, true, false, nil)
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
			fmt.Fprintf(w, "  - %s (%s)\n", u.Assignee, plural(u.Actions, "action", "actions"))
		}
		if j.cfg.ReportChannel != "" {
			fmt.Fprintf(w, "This list would be posted to %s.\n", j.cfg.ReportChannel)
		}
	}
	fmt.Fprintln(w)
}
