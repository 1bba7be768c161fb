package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"golang.org/x/sync/errgroup"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// Message metadata event types. A reminder DM carries ReminderEventType
// with the payload {"date": "2026-11-22", "action_ids": [...]}; the list of
// unmatched assignees carries ReportEventType with {"date": ...}. The job
// reads them back to send each at most once a day, so a rerun is safe.
const (
	ReminderEventType = "action_reminder"
	ReportEventType   = "action_reminder_report"
)

// Tuning of the reminder job.
const (
	// remindConcurrency is how many users are handled at once by default:
	// enough to keep Slack busy across many DM channels, few enough that the
	// Tier 3 methods (users.lookupByEmail, conversations.open and .history,
	// about 50 a minute) are met with a handful of 429s rather than a storm.
	remindConcurrency = 4
	// remindRetries is how many times one Slack call is retried after a
	// 429; a call still limited after that fails, and so does its reminder.
	// Workers waiting on one method all go when its Retry-After ends, and
	// some of them meet another 429, so a call is allowed several.
	remindRetries = 8
	// channelInterval spaces posts to one channel, as Slack allows about
	// one message a second per channel.
	channelInterval = time.Second
	// historyDepth is how many of a DM's latest messages are searched for
	// today's reminder. A bot DM rarely holds more than a few messages a
	// day, and 100 is what Slack answers in one page by default.
	historyDepth = 100
	// maxMetadataIDs caps the action IDs carried in a reminder's metadata,
	// which should stay small; action_count always has the full count.
	maxMetadataIDs = 100
	// maxReportNames caps the assignees listed in the report message.
	maxReportNames = 50
	// progressEvery is how often a long run logs how far it has got.
	progressEvery = 10 * time.Second
)

// ErrRemindersFailed is wrapped by the error [Remind] returns when one or
// more reminders (or the report of unmatched assignees) could not be sent.
var ErrRemindersFailed = errors.New("some reminders failed")

// RemindConfig is what one run of the reminder job does. The zero value
// reminds of overdue actions and those due today, with four users at once.
type RemindConfig struct {
	// Days is the due-soon window: an open or in-progress action is included
	// when it is overdue or due by the end of the day Days days after today.
	// 0 includes only overdue actions and those due today; a negative value
	// counts as 0. `recordsbot remind` passes REMIND_DAYS (default 3).
	Days int
	// ReportChannel, when set, is the channel ID that gets one message a
	// day listing the assignees who match no Slack user. The bot must be in
	// the channel. Telling that today's list is already there takes
	// channels:history (groups:history for a private channel); without it
	// the list is posted on every run, rather than risk never posting it.
	ReportChannel string
	// SkipWeekends makes a run on a Saturday or Sunday (UTC) do nothing.
	SkipWeekends bool
	// DryRun writes each reminder as text to RemindDeps.Out and sends
	// nothing. It still reads the records and looks people up in Slack
	// (users.lookupByEmail), but it opens no DM and reads no history, so it
	// shows what a first run of the day would send.
	DryRun bool
	// Concurrency is how many users are handled at once. Default 4.
	Concurrency int
	// Now is the moment the run is for: it decides "today", in UTC, and
	// what is overdue. Zero means time.Now().
	Now time.Time
	// UserMap maps a records assignee (email, name or ID, compared
	// case-insensitively) to a Slack user ID, as Config.UserMap does.
	UserMap map[string]string
}

// RemindDeps are the reminder job's collaborators.
type RemindDeps struct {
	// Records is read with ListActions only. Required.
	Records Records
	// Slack is called with users.lookupByEmail, conversations.open,
	// conversations.history and chat.postMessage. Required.
	Slack SlackAPI
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Metrics counts reminders by outcome; nil counts nothing.
	Metrics *Metrics
	// Out receives the dry run's text. Default io.Discard.
	Out io.Writer
}

// RemindSummary is what a run of the reminder job did.
type RemindSummary struct {
	// Date is the day the run was for, YYYY-MM-DD in UTC.
	Date    string
	DryRun  bool
	Weekend bool // SkipWeekends was set and Date is a Saturday or Sunday
	// Reminded is the number of users sent a reminder (in a dry run, who
	// would have been) and Actions the number of actions those reminders
	// list.
	Reminded, Actions int
	// Skipped is the number of users already reminded on Date.
	Skipped int
	// Unmatched are the assignees with due actions who match no Slack user.
	Unmatched []UnmatchedAssignee
	// Failed are the reminders that could not be sent, each with why.
	Failed []RemindFailure
	// NotAttempted is the number of users left out because the run was
	// cancelled.
	NotAttempted int
	// Truncated is set when the records service had more actions than the
	// client reads: some reminders may be missing actions.
	Truncated bool
	// Elapsed is how long the run took.
	Elapsed time.Duration
}

// UnmatchedAssignee is a records assignee whom no Slack user matches.
type UnmatchedAssignee struct {
	Assignee string // their name and email as the records give them
	Actions  int    // how many due actions they would have been reminded of
}

// RemindFailure is a reminder that could not be sent.
type RemindFailure struct {
	// Who is the Slack user ID, or the assignee when the lookup failed, or
	// "report to <channel>" for the list of unmatched assignees.
	Who string
	Err error
}

// String is the job's one-line summary, such as "remind 2026-11-22: 37
// users reminded, 112 actions included, 3 skipped as already reminded, 2
// unmatched, 1 failed (4.2s)".
func (s RemindSummary) String() string {
	head := "remind " + s.Date
	if s.Weekend {
		return head + ": weekend, nothing sent"
	}
	var b strings.Builder
	b.WriteString(head)
	if s.DryRun {
		fmt.Fprintf(&b, " (dry run, nothing sent): %s to remind", plural(s.Reminded, "user", "users"))
	} else {
		fmt.Fprintf(&b, ": %s reminded", plural(s.Reminded, "user", "users"))
	}
	fmt.Fprintf(&b, ", %s included", plural(s.Actions, "action", "actions"))
	if !s.DryRun {
		fmt.Fprintf(&b, ", %d skipped as already reminded", s.Skipped)
	}
	fmt.Fprintf(&b, ", %d unmatched, %d failed", len(s.Unmatched), len(s.Failed))
	if s.NotAttempted > 0 {
		fmt.Fprintf(&b, ", %d not attempted (interrupted)", s.NotAttempted)
	}
	if s.Truncated {
		b.WriteString(", action list truncated")
	}
	fmt.Fprintf(&b, " (%s)", s.Elapsed.Round(10*time.Millisecond))
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Remind is the reminder job (`recordsbot remind`): it reads the open and
// in-progress actions and sends each assignee one DM listing those that are
// overdue or due within cfg.Days, each row with the status buttons of
// /actions (a running `serve` handles the clicks and updates the DM in
// place).
//
// Assignees are matched to Slack users through cfg.UserMap, the Slack ID
// the records give, or users.lookupByEmail. A user whose DM already holds a
// reminder for today is skipped, so running the job twice a day sends
// nothing new. Slack's limits are respected: at most cfg.Concurrency users
// at once, posts to one channel a second apart, and a 429 waits its
// Retry-After (a few times) before the reminder counts as failed. One
// failure does not stop the others; rerunning the job sends only what is
// missing.
//
// The summary is complete whatever the error. The error is nil when every
// reminder went out; it wraps ErrRemindersFailed when some failed, the
// records error when the actions could not be read (nothing is sent then),
// and ctx's error when the run was cancelled.
func Remind(ctx context.Context, cfg RemindConfig, deps RemindDeps) (RemindSummary, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = remindConcurrency
	}
	cfg.Days = max(cfg.Days, 0)
	if cfg.Now.IsZero() {
		cfg.Now = time.Now()
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Out == nil {
		deps.Out = io.Discard
	}
	userMap := make(map[string]string, len(cfg.UserMap))
	for k, v := range cfg.UserMap {
		userMap[strings.ToLower(strings.TrimSpace(k))] = v
	}
	j := &remindJob{
		cfg:     cfg,
		deps:    deps,
		log:     deps.Logger,
		userMap: userMap,
		// One run lasts minutes at most; an address looked up once is good
		// for all of it.
		users: newUserDirectory(deps.Slack, 24*time.Hour, time.Now, nil),
		gate:  &slackGate{next: map[string]time.Time{}},
		sum:   RemindSummary{Date: cfg.Now.UTC().Format(time.DateOnly), DryRun: cfg.DryRun},
	}
	start := time.Now()
	err := j.run(ctx)
	j.sum.Elapsed = time.Since(start)
	return j.sum, err
}

// remindJob is one run of Remind.
type remindJob struct {
	cfg     RemindConfig
	deps    RemindDeps
	log     *slog.Logger
	userMap map[string]string // lowercased assignee -> Slack ID
	users   *userDirectory
	gate    *slackGate

	mu   sync.Mutex
	sum  RemindSummary // guarded by mu while workers run
	done int           // users handled so far; guarded by mu
}

// recipient is one Slack user and the actions to remind them of.
type recipient struct {
	id      string // Slack user ID
	label   string // how the records name them, for logs and the dry run
	actions []*apiclient.Action
}

// pendingAssignee is a records assignee with due actions, before matching.
type pendingAssignee struct {
	person  apiclient.Person
	actions []*apiclient.Action
}

func (j *remindJob) run(ctx context.Context) error {
	now := j.cfg.Now.UTC()
	if wd := now.Weekday(); j.cfg.SkipWeekends && (wd == time.Saturday || wd == time.Sunday) {
		j.sum.Weekend = true
		j.log.InfoContext(ctx, "remind: weekend, nothing to do", "date", j.sum.Date, "weekday", wd.String())
		return nil
	}
	j.log.InfoContext(ctx, "remind: starting", "date", j.sum.Date, "days", j.cfg.Days, "dry_run", j.cfg.DryRun,
		"concurrency", j.cfg.Concurrency)
	due, err := j.dueActions(ctx, now)
	if err != nil {
		return err
	}
	recipients, err := j.match(ctx, due)
	if err != nil {
		return err
	}
	j.log.InfoContext(ctx, "remind: assignees matched", "assignees", len(due), "users", len(recipients),
		"unmatched", len(j.sum.Unmatched), "lookup_failures", len(j.sum.Failed))

	if j.cfg.DryRun {
		j.dryRun(recipients, now)
	} else {
		j.sendAll(ctx, recipients, now)
		j.report(ctx)
	}
	j.log.InfoContext(ctx, "remind: done", "date", j.sum.Date, "reminded", j.sum.Reminded, "actions", j.sum.Actions,
		"skipped", j.sum.Skipped, "unmatched", len(j.sum.Unmatched), "failed", len(j.sum.Failed), "not_attempted", j.sum.NotAttempted)
	if j.sum.NotAttempted > 0 {
		return fmt.Errorf("remind interrupted with %d users left: %w", j.sum.NotAttempted, context.Cause(ctx))
	}
	if n := len(j.sum.Failed); n > 0 {
		return fmt.Errorf("%d reminders not sent: %w", n, ErrRemindersFailed)
	}
	return nil
}

// dueActions reads the open and in-progress actions and keeps those in the
// window, grouped by assignee in a stable order.
func (j *remindJob) dueActions(ctx context.Context, now time.Time) ([]pendingAssignee, error) {
	var all []apiclient.Action
	for _, st := range []apiclient.Status{apiclient.StatusOpen, apiclient.StatusInProgress} {
		l, err := j.deps.Records.ListActions(ctx, &apiclient.ListActionsOptions{Status: st})
		if err != nil {
			return nil, fmt.Errorf("list %s actions: %w", st, err)
		}
		all = append(all, l.Actions...)
		j.sum.Truncated = j.sum.Truncated || l.Truncated
	}
	if j.sum.Truncated {
		j.log.WarnContext(ctx, "remind: the records service has more actions than recordsbot reads; some may be left out")
	}
	seen := make(map[string]bool, len(all))
	byPerson := map[apiclient.Person]*pendingAssignee{}
	unassigned := 0
	for i := range all {
		a := &all[i]
		// An action whose status changed between the two reads can be in
		// both lists.
		if seen[a.ID] || !inWindow(a, now, j.cfg.Days) {
			continue
		}
		seen[a.ID] = true
		if a.Assignee.IsZero() {
			unassigned++
			continue
		}
		// Email case varies between records; it means the same person.
		key := a.Assignee
		key.Email = strings.ToLower(key.Email)
		p := byPerson[key]
		if p == nil {
			p = &pendingAssignee{person: a.Assignee}
			byPerson[key] = p
		}
		p.actions = append(p.actions, a)
	}
	if unassigned > 0 {
		j.log.InfoContext(ctx, "remind: due actions with no assignee are left out", "count", unassigned)
	}
	out := make([]pendingAssignee, 0, len(byPerson))
	for _, p := range byPerson {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b pendingAssignee) int {
		return cmp.Or(cmp.Compare(personLabel(a.person), personLabel(b.person)), cmp.Compare(a.person.ID, b.person.ID),
			cmp.Compare(a.person.SlackID, b.person.SlackID))
	})
	return out, nil
}

// inWindow reports whether a belongs in a reminder at now: still to do,
// and overdue or due by the end of the day days days after today (UTC). A
// date-only deadline is midnight UTC of its day, so it counts by its date.
func inWindow(a *apiclient.Action, now time.Time, days int) bool {
	if a.Deadline.IsZero() || (a.Status != apiclient.StatusOpen && a.Status != apiclient.StatusInProgress) {
		return false
	}
	if overdue(a, now) {
		return true
	}
	y, m, d := now.UTC().Date()
	return a.Deadline.Before(time.Date(y, m, d+days+1, 0, 0, 0, 0, time.UTC))
}

// personLabel names an assignee for people: "Jo Bloggs <jo@example.org>",
// or whichever of the two the records give.
func personLabel(p apiclient.Person) string {
	if p.Name != "" && p.Email != "" {
		return p.Name + " <" + p.Email + ">"
	}
	return p.String()
}

// match finds the Slack user of each assignee, several at once, and merges
// assignees who turn out to be the same user. Assignees who match nobody go
// to the summary's Unmatched, and those whose lookup failed to Failed.
func (j *remindJob) match(ctx context.Context, pending []pendingAssignee) ([]*recipient, error) {
	ids := make([]string, len(pending))
	errs := make([]error, len(pending))
	g := errgroup.Group{}
	g.SetLimit(j.cfg.Concurrency)
	for i := range pending {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			ids[i], errs[i] = j.slackUser(ctx, pending[i].person)
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("match assignees: %w", context.Cause(ctx))
	}

	byID := map[string]*recipient{}
	var out []*recipient
	for i, p := range pending {
		label := personLabel(p.person)
		switch {
		case errs[i] != nil:
			j.log.ErrorContext(ctx, "remind: assignee lookup failed", "assignee", label, "error", errs[i])
			j.sum.Failed = append(j.sum.Failed, RemindFailure{Who: label, Err: errs[i]})
			j.count("failed")
		case ids[i] == "":
			j.log.WarnContext(ctx, "remind: assignee matches no Slack user", "assignee", label, "actions", len(p.actions))
			j.sum.Unmatched = append(j.sum.Unmatched, UnmatchedAssignee{Assignee: label, Actions: len(p.actions)})
			j.count("unmatched")
		default:
			r := byID[ids[i]]
			if r == nil {
				r = &recipient{id: ids[i], label: p.person.String()}
				byID[ids[i]] = r
				out = append(out, r)
			}
			r.actions = append(r.actions, p.actions...)
		}
	}
	return out, nil
}

// count adds one reminder outcome to the metrics; a dry run counts nothing.
func (j *remindJob) count(outcome string) {
	if !j.cfg.DryRun {
		j.deps.Metrics.Reminder(outcome)
	}
}

// slackUser returns the Slack user ID of assignee p, or "" when nobody
// matches: USER_MAP first (it exists to override), then the Slack ID the
// records give, then the email.
func (j *remindJob) slackUser(ctx context.Context, p apiclient.Person) (string, error) {
	for _, k := range []string{p.Email, p.Name, p.ID, p.SlackID} {
		if id, ok := j.userMap[strings.ToLower(k)]; ok && k != "" {
			return id, nil
		}
	}
	if p.SlackID != "" {
		return p.SlackID, nil
	}
	if p.Email == "" {
		return "", nil
	}
	var id string
	err := j.call(ctx, "users.lookupByEmail", "users.lookupByEmail", 0, func(ctx context.Context) error {
		var err error
		id, err = j.users.byEmail(ctx, p.Email)
		return err
	})
	return id, err
}

// reminder builds r's reminder: overdue actions first, then by deadline.
func (j *remindJob) reminder(r *recipient, now time.Time) blocks.Reminder {
	sortActions(r.actions, now)
	rem := blocks.Reminder{User: r.label + " (" + r.id + ")", Days: j.cfg.Days}
	for _, a := range r.actions {
		// The recipient is the assignee, so the row has its buttons and no
		// name, exactly as the row a click redraws.
		row := actionRow(a, now, true, false, nil)
		if row.Overdue {
			rem.Overdue = append(rem.Overdue, row)
		} else {
			rem.DueSoon = append(rem.DueSoon, row)
		}
	}
	return rem
}

// dryRun writes every reminder, and who would have had one but for a
// match, to Out.
func (j *remindJob) dryRun(recipients []*recipient, now time.Time) {
	slices.SortFunc(recipients, func(a, b *recipient) int { return cmp.Or(cmp.Compare(a.label, b.label), cmp.Compare(a.id, b.id)) })
	w := j.deps.Out
	fmt.Fprintf(w, "Dry run for %s: nothing is sent, and DMs are not checked for a reminder already sent today.\n", j.sum.Date)
	for _, r := range recipients {
		fmt.Fprintln(w)
		io.WriteString(w, blocks.ReminderText(j.reminder(r, now)))
		j.sum.Reminded++
		j.sum.Actions += len(r.actions)
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

// sendAll reminds every recipient, cfg.Concurrency at once, logging
// progress on long runs.
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

// logProgress logs how far the run has got every progressEvery until the
// returned stop is called.
func (j *remindJob) logProgress(ctx context.Context, total int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				j.mu.Lock()
				n, s := j.done, j.sum
				j.mu.Unlock()
				j.log.InfoContext(ctx, "remind: progress", "done", n, "total", total,
					"reminded", s.Reminded, "skipped", s.Skipped, "failed", len(s.Failed))
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// remindOne sends r's reminder unless today's is already in their DM, and
// records the outcome.
func (j *remindJob) remindOne(ctx context.Context, r *recipient, now time.Time) {
	outcome, err := j.send(ctx, r, now)
	j.count(outcome)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.done++
	switch outcome {
	case "sent":
		j.sum.Reminded++
		j.sum.Actions += len(r.actions)
		j.log.DebugContext(ctx, "remind: sent", "user", r.id, "actions", len(r.actions))
	case "skipped":
		j.sum.Skipped++
		j.log.DebugContext(ctx, "remind: already reminded today", "user", r.id)
	default:
		j.sum.Failed = append(j.sum.Failed, RemindFailure{Who: r.id, Err: err})
		j.log.ErrorContext(ctx, "remind: reminder failed", "user", r.id, "actions", len(r.actions), "error", err)
	}
}

// send does remindOne's Slack calls; the outcome is "sent", "skipped" or
// "failed".
func (j *remindJob) send(ctx context.Context, r *recipient, now time.Time) (string, error) {
	var channel string
	err := j.call(ctx, "conversations.open", "conversations.open", 0, func(ctx context.Context) error {
		ch, _, _, err := j.deps.Slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{r.id}})
		if err == nil {
			channel = ch.ID
		}
		return err
	})
	if err != nil {
		return "failed", fmt.Errorf("open DM with %s: %w", r.id, err)
	}
	// Without the check a rerun would send duplicates, so a failed check
	// fails the reminder; the next run tries again.
	sent, err := j.sentToday(ctx, channel, ReminderEventType)
	if err != nil {
		return "failed", err
	}
	if sent {
		return "skipped", nil
	}
	msg := blocks.ReminderMessage(j.reminder(r, now))
	ids := make([]string, 0, min(len(r.actions), maxMetadataIDs))
	for _, a := range r.actions[:min(len(r.actions), maxMetadataIDs)] {
		ids = append(ids, a.ID)
	}
	err = j.post(ctx, channel,
		slack.MsgOptionText(msg.Text, false),
		slack.MsgOptionBlocks(msg.Blocks...),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReminderEventType, EventPayload: map[string]any{
			"date": j.sum.Date, "action_ids": ids, "action_count": len(r.actions),
		}}))
	if err != nil {
		return "failed", err
	}
	return "sent", nil
}

// sentToday reports whether the latest messages of channel include one of
// the bot's with metadata eventType for today.
func (j *remindJob) sentToday(ctx context.Context, channel, eventType string) (bool, error) {
	var msgs []slack.Message
	err := j.call(ctx, "conversations.history", "conversations.history", 0, func(ctx context.Context) error {
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
		if m.Metadata.EventType == eventType && m.Metadata.EventPayload["date"] == j.sum.Date {
			return true, nil
		}
	}
	return false, nil
}

// post sends a message to channel, no sooner than a second after the last
// one this run sent there.
func (j *remindJob) post(ctx context.Context, channel string, opts ...slack.MsgOption) error {
	err := j.call(ctx, "chat.postMessage", "chat.postMessage "+channel, channelInterval, func(ctx context.Context) error {
		_, _, err := j.deps.Slack.PostMessageContext(ctx, channel, opts...)
		return err
	})
	if err != nil {
		return fmt.Errorf("post to %s: %w", channel, err)
	}
	return nil
}

// report posts the unmatched assignees to cfg.ReportChannel, once a day.
func (j *remindJob) report(ctx context.Context) {
	channel := j.cfg.ReportChannel
	if channel == "" || len(j.sum.Unmatched) == 0 || ctx.Err() != nil {
		return
	}
	sent, err := j.sentToday(ctx, channel, ReportEventType)
	switch {
	case err != nil:
		// Reading a channel's history needs channels:history (or
		// groups:history); without it, a repeated report beats a lost one.
		j.log.WarnContext(ctx, "remind: cannot check the report channel for today's report; posting it anyway", "channel", channel, "error", err)
	case sent:
		j.log.InfoContext(ctx, "remind: today's report of unmatched assignees is already posted", "channel", channel)
		return
	}
	err = j.post(ctx, channel,
		slack.MsgOptionText(reportText(j.sum.Date, j.sum.Unmatched), false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReportEventType, EventPayload: map[string]any{
			"date": j.sum.Date, "unmatched": len(j.sum.Unmatched),
		}}))
	if err != nil {
		j.log.ErrorContext(ctx, "remind: report of unmatched assignees failed", "channel", channel, "error", err)
		j.sum.Failed = append(j.sum.Failed, RemindFailure{Who: "report to " + channel, Err: err})
	}
}

// reportText is the message listing assignees whom no Slack user matches.
func reportText(date string, unmatched []UnmatchedAssignee) string {
	var b strings.Builder
	fmt.Fprintf(&b, ":bust_in_silhouette: *Action reminders %s:* %s with due actions %s no Slack user, so %s not reminded. "+
		"Add them to `USER_MAP` (`assignee=SLACKID`) or correct their email in the records.\n",
		date, plural(len(unmatched), "assignee", "assignees"), pick(len(unmatched) == 1, "matches", "match"), pick(len(unmatched) == 1, "was", "were"))
	for i, u := range unmatched {
		if i == maxReportNames {
			fmt.Fprintf(&b, "…and %d more (see the job's log).\n", len(unmatched)-i)
			break
		}
		fmt.Fprintf(&b, "• %s: %s\n", blocks.Escape(u.Assignee), plural(u.Actions, "action", "actions"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// call runs f for Slack method, first waiting for the slot key allows
// (callers under one key are spaced interval apart, and all wait while
// Slack has asked that key to), and answers a 429 by holding key for the
// Retry-After and trying again, up to remindRetries times.
func (j *remindJob) call(ctx context.Context, method, key string, interval time.Duration, f func(context.Context) error) error {
	for attempt := 0; ; attempt++ {
		if err := sleepCtx(ctx, j.gate.reserve(key, interval)); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		err := f(ctx)
		if interval > 0 {
			// Slack counts arrivals; spacing from the end of this call
			// keeps the next one an interval behind however long this
			// one took to arrive.
			j.gate.hold(key, time.Now().Add(interval))
		}
		var rl *slack.RateLimitedError
		if err == nil || !errors.As(err, &rl) || attempt == remindRetries {
			return err
		}
		wait := max(rl.RetryAfter, time.Second)
		j.gate.hold(key, time.Now().Add(wait))
		j.deps.Metrics.slackWait(method)
		j.log.InfoContext(ctx, "remind: rate limited by Slack, waiting", "method", method, "retry_after", wait, "attempt", attempt+1)
	}
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// slackGate spaces Slack calls by key: a channel's posts, or every call of
// a method that Slack has rate limited.
type slackGate struct {
	mu   sync.Mutex
	next map[string]time.Time // the earliest time the next call under key may start
}

// reserve books the next slot under key and returns how long until it
// comes; the slot after it is interval later.
func (g *slackGate) reserve(key string, interval time.Duration) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	at := now
	if n := g.next[key]; n.After(now) {
		at = n
	}
	if interval > 0 {
		g.next[key] = at.Add(interval)
	}
	return at.Sub(now)
}

// hold makes calls under key wait until t.
func (g *slackGate) hold(key string, t time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.After(g.next[key]) {
		g.next[key] = t
	}
}
