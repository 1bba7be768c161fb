package remind

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

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/store"
)

// Message metadata event types. A reminder DM carries ReminderEventType
// with the payload {"key": "remind:U123:2026-11-22", "date": "2026-11-22",
// "action_ids": "A-1,A-2", "action_count": 2}; the list of unmatched
// assignees carries ReportEventType with {"key": "report:C123:2026-11-22",
// "date": ..., "unmatched": n}. Every payload value is a string or a
// number: Slack drops metadata whose payload holds an array of strings
// (see slackfake.InvalidMetadataSchema), which would silently break the
// once-a-day rule. The job reads the key back to send each at most once.
const (
	ReminderEventType = "action_reminder"
	ReportEventType   = "action_reminder_report"
)

// Tuning of the reminder job.
const (
	// remindConcurrency is how many users are handled at once by default.
	// The job paces every Slack method to its budget (slackapi.Pacer), so
	// concurrency only hides each call's latency.
	remindConcurrency = 8
	// remindRetries is how many times one Slack call is retried after a
	// 429; a call still limited after that fails, and so does its reminder.
	remindRetries = 8
	// historyDepth is how many of a DM's latest messages are searched for
	// today's reminder. A bot DM rarely holds more than a few messages a
	// day, and 100 is what Slack answers in one page by default.
	historyDepth = 100
	// maxReportNames caps the assignees listed in the report message.
	maxReportNames = 50
	// progressEvery is how often a long run logs how far it has got.
	progressEvery = 10 * time.Second
	// defaultLease is how long a claim on a reminder lasts: far longer than
	// sending one takes, far shorter than the hour between runs.
	defaultLease = 10 * time.Minute
	// weekDays is the window of a weekly summary and a catch-up: what is
	// overdue or due within the next week.
	weekDays = 7
	// usersPage is the users.list page size: Slack recommends no more than
	// 200, so 10,000 people take 50 Tier 2 calls (2.5 minutes).
	usersPage = 200
)

// ErrRemindersFailed is wrapped by the error [Run] returns when one or
// more reminders (or the report of unmatched assignees) could not be sent.
var ErrRemindersFailed = errors.New("some reminders failed")

// Config is what one run of the reminder job does. The zero value
// reminds of overdue actions and those due today, from 09:00 local time.
// The organisation's time zone and USER_MAP are not here: they are the
// action domain's (Deps.Actions), which serve and the watcher share.
type Config struct {
	// Days is the due-soon window: an open or in-progress action is included
	// when it is overdue or due by the end of the reader's day Days days
	// after their today. A negative value counts as 0. `recordsbot remind`
	// passes REMIND_DAYS (default 3).
	Days int
	// ReportChannel, when set, is the channel ID that gets one message a
	// day listing the assignees who match no Slack user. The bot must be in
	// the channel. The day's report is posted exactly once (internal/once):
	// after a run that died mid-post, telling that it is already posted
	// takes channels:history (groups:history for a private channel), which
	// manifest.yaml declares.
	ReportChannel string
	// SkipWeekends sends nobody a reminder on their own Saturday or Sunday.
	SkipWeekends bool
	// Holidays are the organisation's closed days (REMIND_HOLIDAYS):
	// nobody is reminded on one, in their own zone. The zero Calendar
	// has none.
	Holidays workdays.Calendar
	// DryRun writes each reminder as text to Deps.Out and sends
	// nothing. It still reads the records and the Slack directory, so it
	// shows what a first run would send to those whose morning it is.
	DryRun bool
	// Concurrency is how many users are handled at once. Default 8.
	Concurrency int
	// Now is the moment the run is for. Zero means the Clock's now.
	Now time.Time
	// RemindAt is the local time of day from which a person is reminded
	// (REMIND_AT); a run before it in their zone leaves them for a later
	// run. The zero Time means store.DefaultRemindAt, 09:00.
	RemindAt clocktime.Time
	// Owner names this run in the ledger's claims. "" means one made from
	// the start time.
	Owner string
	// Lease is how long a claim in the ledger lasts. Default 10 minutes.
	Lease time.Duration
	// Language is ORG_LANGUAGE: the language of the reminders of people
	// whose Slack locale (from users.list) is not one recordsbot ships,
	// and of the report of unmatched assignees. The zero value is English.
	Language lang.Lang
	// Retention is how long the store keeps what it no longer needs: once
	// a day the first job to run (this one or the watcher) prunes what is
	// older (store.PruneDaily). Default store.DefaultRetention (90 days).
	Retention time.Duration
}

// Actions is the action domain the job shares with serve and the
// watcher. The job reads the actions still to do through it, the
// organisation's time zone (RECORDS_TIMEZONE: a date-only deadline ends
// at midnight there, and it is the zone of people whose Slack profile has
// none) and USER_MAP (which Slack user an assignee is), and keeps no
// copy. *actions.Service implements it; `recordsbot remind` is a process
// of its own, so its list is read afresh.
type Actions interface {
	// List reads the actions still to do (st ""): the job reads the
	// records through the domain, which says which those are.
	List(ctx context.Context, st apiclient.Status) (*apiclient.ActionList, error)
	Zone() *time.Location
	UserMap() actions.UserMap
	// ReaderLanguage is the language a person reads, from their locale
	// (ORG_LANGUAGE when it is not shipped or unknown).
	ReaderLanguage(locale string) lang.Lang
	// Link is an action's own link, on its row's title.
	Link(id string) string
}

// Deps are the reminder job's collaborators.
type Deps struct {
	// Actions is the action domain `recordsbot remind` builds once from
	// the settings. Required.
	Actions Actions
	// Slack is called with users.list, users.lookupByEmail (for assignees
	// missing from the list), chat.postMessage and, after an expired
	// claim, conversations.open (the person's DM) and
	// conversations.history.
	// Required; a *slack.Client.
	Slack Slack
	// Store holds the ledger that records who has been reminded on which
	// local day, exactly once, shared by every run and replica
	// (internal/once). Required.
	Store *store.Store
	// Settings gives people's own reminder settings; nil means everyone
	// has the organisation's.
	Settings Settings
	// Clock paces the job and is its "now"; nil means the wall clock.
	Clock Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Out receives the dry run's text. Default io.Discard.
	Out io.Writer
}

// Slack is the part of Slack's Web API the reminder job uses.
// *slack.Client implements it.
type Slack interface {
	GetUsersPaginated(options ...slack.GetUsersOption) slack.UserPagination
	GetUserByEmailContext(ctx context.Context, email string) (*slack.User, error)
	PostMessageContext(ctx context.Context, channelID string, options ...slack.MsgOption) (string, string, error)
	OpenConversationContext(ctx context.Context, params *slack.OpenConversationParameters) (*slack.Channel, bool, bool, error)
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
}

// Remind is the reminder job (`recordsbot remind`): it reads the open and
// in-progress actions and sends each assignee one DM a day, in their own
// morning, listing those that are overdue or due within cfg.Days for them
// (see [Due]), each row with the status buttons of /actions.
//
// It is meant to run every hour. A person is reminded by the first run at
// or after their reminder time (cfg.RemindAt or their own setting) on
// their local day, unless it is their weekend and weekends are skipped.
// Who is who comes from users.list, a few Tier 2 calls for the whole
// workspace; users.lookupByEmail is asked only about assignees missing from
// it. Reminders are posted to the user ID, which Slack delivers in the
// bot's DM with them, with no conversations.open. Each reminder is
// posted exactly once under remind:<user>:<local date> (internal/once),
// so reruns, replicas and restarts send nobody anything twice.
// Every Slack method is paced to its rate-limit tier, and a 429 holds the
// method for every worker until its Retry-After has passed.
//
// The summary is complete whatever the error. The error is nil when every
// reminder due went out; it wraps ErrRemindersFailed when some failed, the
// records error when the actions could not be read (nothing is sent then),
// and ctx's error when the run was cancelled.
func Run(ctx context.Context, cfg Config, deps Deps) (Summary, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = remindConcurrency
	}
	cfg.Days = max(cfg.Days, 0)
	if cfg.Lease <= 0 {
		cfg.Lease = defaultLease
	}
	if deps.Clock == nil {
		deps.Clock = slackapi.WallClock{}
	}
	if cfg.Now.IsZero() {
		cfg.Now = deps.Clock.Now()
	}
	if cfg.Owner == "" {
		cfg.Owner = "remind@" + deps.Clock.Now().UTC().Format(time.RFC3339Nano)
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Out == nil {
		deps.Out = io.Discard
	}
	if deps.Actions == nil {
		return Summary{DryRun: cfg.DryRun}, errors.New("remind: no action domain for the time zone and USER_MAP (Deps.Actions)")
	}
	zone := deps.Actions.Zone()
	sum := Summary{Date: cfg.Now.In(zone).Format(time.DateOnly), DryRun: cfg.DryRun}
	if deps.Store == nil && !cfg.DryRun {
		return sum, errors.New("remind: no store for the ledger (Deps.Store)")
	}
	j := &remindJob{
		cfg:      cfg,
		deps:     deps,
		zone:     zone,
		log:      deps.Logger,
		remindAt: cfg.RemindAt.Or(store.DefaultRemindAt),
		slack:    newPacer(deps.Clock, deps.Logger),
		sum:      sum,
	}
	j.people = actions.NewAssignees(deps.Actions.UserMap(), slackusers.ByEmail(func(ctx context.Context, email string) (u *slack.User, err error) {
		err = j.slack.Call(ctx, "users.lookupByEmail", "", func(ctx context.Context) error {
			u, err = deps.Slack.GetUserByEmailContext(ctx, email)
			return err
		})
		return u, err
	}))
	j.poster = &once.Poster{Ledger: deps.Store, Slack: deps.Slack, Owner: cfg.Owner, Lease: cfg.Lease,
		HistoryDepth: historyDepth, Call: j.slack.Call, Log: deps.Logger}
	start := deps.Clock.Now()
	err := j.run(ctx)
	j.sum.Elapsed = deps.Clock.Now().Sub(start)
	return j.sum, err
}

// remindJob is one run of Remind.
type remindJob struct {
	cfg      Config
	deps     Deps
	zone     *time.Location // the organisation's, the action domain's
	log      *slog.Logger
	remindAt clocktime.Time // the organisation's reminder time
	slack    *slackapi.Pacer
	people   *actions.Assignees // who each assignee is in Slack; users.list read once per run
	poster   *once.Poster       // posts each reminder and report exactly once

	mu   sync.Mutex
	sum  Summary // guarded by mu while workers run
	done int     // users handled so far; guarded by mu
}

// recipient is one Slack user and the actions that may be due for them.
type recipient struct {
	id      string // Slack user ID
	label   string // how the records name them, for logs and the dry run
	zone    *time.Location
	lang    lang.Lang // their Slack locale's language, else Config.Language
	actions []*apiclient.Action
}

// pendingAssignee is a records assignee with due actions, before matching.
type pendingAssignee struct {
	person  apiclient.Person
	actions []*apiclient.Action
	dueSoon int // of actions, those due within Config.Days somewhere
}

func (j *remindJob) run(ctx context.Context) error {
	now := j.cfg.Now
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
		j.dryRun(ctx, recipients, now)
	} else {
		j.sendAll(ctx, recipients, now)
		j.report(ctx)
		j.prune(ctx)
	}
	j.log.InfoContext(ctx, "remind: done", "date", j.sum.Date, "reminded", j.sum.Reminded, "actions", j.sum.Actions,
		"skipped", j.sum.Skipped, "recovered", j.sum.Recovered, "busy", j.sum.Busy, "not_yet", j.sum.NotYet, "weekend", j.sum.Weekend,
		"unmatched", len(j.sum.Unmatched), "failed", len(j.sum.Failed), "not_attempted", j.sum.NotAttempted)
	if j.sum.NotAttempted > 0 {
		return fmt.Errorf("remind interrupted with %d users left: %w", j.sum.NotAttempted, context.Cause(ctx))
	}
	if n := len(j.sum.Failed); n > 0 {
		return fmt.Errorf("%d reminders not sent: %w", n, ErrRemindersFailed)
	}
	return nil
}

// dueActions reads the actions still to do and keeps those that
// may be due for someone somewhere, grouped by assignee in a stable order.
// Each person's own window is applied later, in their zone.
func (j *remindJob) dueActions(ctx context.Context, now time.Time) ([]pendingAssignee, error) {
	list, err := j.deps.Actions.List(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("read actions: %w", err)
	}
	all := list.Actions
	j.sum.Truncated = list.Truncated
	if j.sum.Truncated {
		j.log.WarnContext(ctx, "remind: the records service has more actions than recordsbot reads; some may be left out")
	}
	// The earliest zone on Earth is 14 hours ahead of UTC: whoever is
	// furthest ahead sees at most this window.
	widest := time.FixedZone("UTC+14", 14*3600)
	// What was assigned to someone while away is in their catch-up,
	// however far off its deadline.
	var held map[string]bool
	if j.deps.Store != nil {
		var err error
		if held, err = j.deps.Store.HeldActions(ctx); err != nil {
			return nil, fmt.Errorf("read held assignments: %w", err)
		}
	}
	seen := make(map[string]bool, len(all))
	byPerson := map[apiclient.Person]*pendingAssignee{}
	unassigned := 0
	for i := range all {
		a := &all[i]
		// An action whose status changed between the two reads can be in
		// both lists.
		// A weekly summary and a catch-up look a week ahead, whatever
		// REMIND_DAYS; who has nothing due within REMIND_DAYS is only
		// reported unmatched as before (dueSoon).
		if seen[a.ID] || !held[a.ID] && actions.Due(a, now, j.zone, widest, max(j.cfg.Days, weekDays)) == actions.NotDue {
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
		if actions.Due(a, now, j.zone, widest, j.cfg.Days) != actions.NotDue {
			p.dueSoon++
		}
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

// prune runs the store's daily prune, unless another job has done today's;
// a failure is logged, and a later run tries again.
func (j *remindJob) prune(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	retention := j.cfg.Retention
	if retention <= 0 {
		retention = store.DefaultRetention
	}
	pruned, ran, err := j.deps.Store.PruneDaily(ctx, j.cfg.Owner, retention)
	switch {
	case err != nil:
		j.log.WarnContext(ctx, "remind: the daily prune failed; a later run tries again", "error", err)
	case ran:
		j.log.InfoContext(ctx, "remind: daily prune", "retention", retention, "pruned", pruned.String())
	}
}

// personLabel names an assignee for people: "Jo Bloggs <jo@example.org>",
// or whichever of the two the records give.
func personLabel(p apiclient.Person) string {
	if p.Name != "" && p.Email != "" {
		return p.Name + " <" + p.Email + ">"
	}
	return p.String()
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
