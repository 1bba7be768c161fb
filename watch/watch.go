package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// lockName is the store lock that keeps polls one at a time.
const lockName = "watch"

// State names in the store.
const (
	stateHorizon   = "meetings_horizon"  // RFC 3339: the oldest meeting date the next poll reads
	stateBaselined = "actions_baselined" // RFC 3339: when the actions baseline was taken
	// stateFollowsRead is RFC 3339: the start of the last poll that read
	// every follow; a follow made since needs the whole lookback read.
	stateFollowsRead = "follows_read_at"
)

// Config is the watcher's behaviour. The zero value of every field means
// its documented default.
type Config struct {
	// Owner names this worker in the lock and the ledger; it must be unique
	// per process. Default: hostname, pid and a random suffix.
	Owner string
	// Follows are the organisation's follow settings (FOLLOW_DEFAULTS:
	// what a follow hears where its channel has not chosen;
	// DIGEST_DEFAULT: the weekly digest's slot, in the organisation's time
	// zone, Deps.Actions.Zone), the bot's own: the zero value hears
	// everything and has the digest at follows.DefaultDigest.
	Follows follows.Settings
	// Notify are the organisation's notification defaults
	// (ASSIGN_DMS_DEFAULT, …); a person's own setting wins. The zero value
	// sends assignment DMs.
	Notify store.Defaults
	// Lookback is how far back meetings are read at most. Default 60 days.
	Lookback time.Duration
	// Backfill is how long after its date a meeting may first appear in
	// the records and still be announced: the horizon never comes closer
	// to today than this. Default 14 days.
	Backfill time.Duration
	// MaxMeetingPages bounds the meeting pages one poll reads. Default 20.
	MaxMeetingPages int
	// Lease is how long one announcement or DM is claimed. It must exceed
	// the time a post takes, Slack's retries included. Default 2 minutes.
	Lease time.Duration
	// LockTTL is how long the poll lock lasts without renewal: a poll
	// renews it every Heartbeat while it runs, so a poller that dies is
	// replaced within LockTTL. Default 1 minute.
	LockTTL time.Duration
	// Heartbeat is how often a running poll renews its lock (real time).
	// Default LockTTL/3. A negative value never renews, which only a test
	// of a frozen poller wants.
	Heartbeat time.Duration
	// Retention is how long the store keeps what it no longer needs (done
	// ledger entries, seen actions, old announcements): once a day a poll
	// prunes what is older (store.PruneDaily). Default
	// store.DefaultRetention (90 days); never under store.MinRetention.
	Retention time.Duration
	// HistoryDepth is how many of a conversation's latest messages are
	// searched for a post whose recording was lost. Default 200.
	HistoryDepth int
	// BriefLead is how long before a followed committee's meeting its
	// brief is posted (BRIEF_LEAD). Default 24 hours.
	BriefLead time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Language is what channel posts (announcements, digests, briefs) and
	// assignment DMs are written in: ORG_LANGUAGE. The zero value is
	// English.
	Language lang.Lang
	// Admins are ADMIN_USER_IDS: each is DMed when minutes change after
	// their approval.
	Admins []string
}

func (c *Config) setDefaults() {
	if c.Owner == "" {
		c.Owner = DefaultOwner()
	}
	if c.Lookback <= 0 {
		c.Lookback = 60 * 24 * time.Hour
	}
	if c.Backfill <= 0 {
		c.Backfill = 14 * 24 * time.Hour
	}
	if c.MaxMeetingPages <= 0 {
		c.MaxMeetingPages = 20
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.LockTTL <= 0 {
		c.LockTTL = time.Minute
	}
	if c.Heartbeat == 0 {
		c.Heartbeat = c.LockTTL / 3
	}
	if c.Retention <= 0 {
		c.Retention = store.DefaultRetention
	}
	if c.HistoryDepth <= 0 {
		c.HistoryDepth = 200
	}
	if c.BriefLead <= 0 {
		c.BriefLead = 24 * time.Hour
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// DefaultOwner is a worker name unique to this process: hostname, pid and
// a random suffix, so that two pods with one hostname still differ.
func DefaultOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "recordsbot" // the pid and the random suffix still tell workers apart
	}
	return fmt.Sprintf("%s-%d-%08x", host, os.Getpid(), rand.Uint32())
}

// Actions is the action domain the watcher shares with serve and the
// reminders: the shared list of actions still to do, the organisation's
// time zone (RECORDS_TIMEZONE: when a meeting starts, what is overdue, the
// digest's slot) and USER_MAP (who an assignee is in Slack). The watcher
// keeps no copy of either setting. *actions.Service implements it.
type Actions interface {
	List(ctx context.Context, st apiclient.Status) (*apiclient.ActionList, error)
	Zone() *time.Location
	UserMap() actions.UserMap
	// Link is an action's own link, on its title in an assignment DM, a
	// digest and a brief.
	Link(id string) string
	// Who is a member's profile (users.info with include_locale,
	// cached): an assignment DM is written in its locale.
	Who(ctx context.Context, id string) (actions.Member, error)
	// ReaderLanguage is the language a person reads, from their locale
	// (ORG_LANGUAGE when it is not shipped or unknown).
	ReaderLanguage(locale string) lang.Lang
	// ChannelMayName is whether a digest or brief may list people's
	// actions in a channel, or only count them (ACTIONS_VISIBILITY).
	ChannelMayName() bool
	// Admin is the one rule for admin powers: listed in ADMIN_USER_IDS,
	// known to Slack and not a guest (it fails closed).
	Admin(viewer actions.Member) bool
}

// Slack is the part of the Web API a poll calls; *slack.Client implements
// it.
type Slack interface {
	PostMessageContext(ctx context.Context, channel string, options ...slack.MsgOption) (string, string, error)
	UpdateMessageContext(ctx context.Context, channel, ts string, options ...slack.MsgOption) (string, string, string, error)
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
	OpenConversationContext(ctx context.Context, params *slack.OpenConversationParameters) (*slack.Channel, bool, bool, error)
	GetUserByEmailContext(ctx context.Context, email string) (*slack.User, error)
}

// Deps are the watcher's collaborators. All are required but Logger
// (default: discard).
type Deps struct {
	Store *store.Store
	// Actions is the action domain serve builds once and shares: the
	// actions still to do, the organisation's zone and USER_MAP. Baseline
	// does without it.
	Actions Actions
	// Minutes is the minutes domain, the one way to the records' meetings
	// and minutes (read afresh each poll: Meetings, Meeting, MinutesOf;
	// through its cache for a digest: Get), how an announcement shows
	// minutes and where it links to (the record's URL, else the bot's
	// public page).
	Minutes *minutes.Service
	// Calendar gives a brief its "Add to calendar" link (the public
	// calendar's one-event feed); nil: none.
	Calendar *calendar.Service
	Slack    Slack
	// Pacer paces every Slack call of the poll to its tier and spaces posts
	// to one channel (slackapi.Pacer, as the reminders' are). A process
	// that polls again and again (serve) passes one for all its polls, so
	// the spacing holds from one poll to the next. Default: a new one on
	// the wall clock for this poll.
	Pacer  *slackapi.Pacer
	Logger *slog.Logger
}

// Summary is what one poll did.
type Summary struct {
	// Busy is set when another poll held the lock: this one did nothing.
	Busy bool
	// MeetingPages, Meetings and Minutes count the records read.
	MeetingPages, Meetings, Minutes int
	// Actions is the number of active actions read; 0 with no follows and
	// no actions.
	Actions int
	// Announced counts new channel posts; Approved, drafts updated in
	// place on approval; Baselined, follows whose baseline was taken.
	Announced, Approved, Baselined int
	// DMs counts new-assignment DMs sent; DMsOff, those not sent because
	// the person turned them off; DMsHeld, those held for the catch-up
	// DM of someone away (remind sends it); Unmatched, assignees with no
	// Slack user.
	DMs, DMsOff, DMsHeld, Unmatched int
	// Digests counts weekly digests posted.
	Digests int
	// Upcoming counts the meetings read dated in the future; Briefs,
	// pre-meeting briefs posted; BriefsUpdated, briefs of moved meetings
	// updated in place.
	Upcoming, Briefs, BriefsUpdated int
	// Indexed counts minutes indexed for search (new or read again).
	Indexed int
	// Edits counts posts telling of minutes changed after approval.
	Edits int
	// TopicWatches counts the topic watches matched; TopicsScreened, the
	// watches confirmed against the index (those the in-memory screen
	// let through); TopicPosts, topic matches told.
	TopicWatches, TopicsScreened, TopicPosts int
	// Recovered counts posts found in Slack's history after an earlier
	// worker stopped between posting and recording them.
	Recovered int
	// ActionsBaseline is set on the poll that took the actions baseline.
	ActionsBaseline bool
	// Failed counts announcements and DMs that did not go out; the next
	// poll retries them.
	Failed int
	// Undeliverable counts posts Slack refused for good (the bot is not in
	// the channel, the channel was archived); retried each poll, not
	// counted as failures.
	Undeliverable int
	// Since is how far back this poll read meetings for announcements: the
	// whole lookback when a follow is new since the last poll, else the
	// last poll's horizon. Zero when no channel follows a committee.
	Since time.Time
	// Horizon is the meetings horizon the next poll reads back to.
	Horizon time.Time
	// Pruned is what the day's prune deleted, on the poll that ran it
	// (the first of the day, across replicas and jobs).
	Pruned *store.Pruned
}

// String is the summary as one line for the job's output.
func (s Summary) String() string {
	if s.Busy {
		return "watch: another poll is running; nothing done"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "watch: read %s (%s), %d minutes, %s; announced %d, approved %d, baselined %s; %s",
		words.Count(s.Meetings, "meeting", "meetings"), words.Count(s.MeetingPages, "page", "pages"), s.Minutes, words.Count(s.Actions, "action", "actions"),
		s.Announced, s.Approved, words.Count(s.Baselined, "follow", "follows"), words.Count(s.DMs, "assignment DM", "assignment DMs"))
	// The DMs' own details stay beside their count.
	if s.DMsOff > 0 {
		fmt.Fprintf(&b, " (%d off by choice)", s.DMsOff)
	}
	if s.DMsHeld > 0 {
		fmt.Fprintf(&b, " (%d held for someone away)", s.DMsHeld)
	}
	if s.ActionsBaseline {
		b.WriteString(" (actions baseline taken)")
	}
	if s.Digests > 0 {
		fmt.Fprintf(&b, "; posted %s", words.Count(s.Digests, "weekly digest", "weekly digests"))
	}
	if s.Briefs > 0 || s.BriefsUpdated > 0 {
		fmt.Fprintf(&b, "; posted %s, updated %d", words.Count(s.Briefs, "pre-meeting brief", "pre-meeting briefs"), s.BriefsUpdated)
	}
	if s.Indexed > 0 {
		fmt.Fprintf(&b, "; indexed %d minutes for search", s.Indexed)
	}
	if s.Edits > 0 {
		fmt.Fprintf(&b, "; told %s", words.Count(s.Edits, "edit after approval", "edits after approval"))
	}
	if s.TopicPosts > 0 {
		fmt.Fprintf(&b, "; told %s", words.Count(s.TopicPosts, "topic match", "topic matches"))
	}
	if s.Unmatched > 0 {
		fmt.Fprintf(&b, "; %s no Slack user", words.Count(s.Unmatched, "assignee matches", "assignees match"))
	}
	if s.Recovered > 0 {
		fmt.Fprintf(&b, "; %d found already posted", s.Recovered)
	}
	if s.Undeliverable > 0 {
		fmt.Fprintf(&b, "; %d refused by Slack (bot not in the channel?)", s.Undeliverable)
	}
	if s.Failed > 0 {
		fmt.Fprintf(&b, "; %d failed (retried next poll)", s.Failed)
	}
	if s.Pruned != nil {
		b.WriteString("; " + s.Pruned.String())
	}
	return b.String()
}

// ErrPartial is returned (wrapped) by Poll when some announcements or DMs
// failed; everything else was done, and the next poll retries them.
var ErrPartial = errors.New("some announcements or DMs failed")

// Poll runs one poll: announcements of newly visible minutes, then
// new-assignment DMs. It returns Summary.Busy and no error when another
// poll holds the lock. Errors: the store's (ErrUnavailable when it is
// down), the records service's when the meetings or actions cannot be
// read (that half of the poll is skipped, the other still runs), and
// ErrPartial when some posts failed.
func Poll(ctx context.Context, cfg Config, deps Deps) (Summary, error) {
	cfg.setDefaults()
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	p := newPoll(cfg, deps)
	got, err := deps.Store.TryLock(ctx, lockName, cfg.Owner, cfg.LockTTL)
	if err != nil {
		return p.sum, fmt.Errorf("watch lock: %w", err)
	}
	if !got {
		p.sum.Busy = true
		p.log.InfoContext(ctx, "watch: another poll holds the lock; skipping")
		return p.sum, nil
	}
	ctx, stopHeartbeat := p.heartbeat(ctx)
	defer func() {
		stopHeartbeat()
		// Unlock even when ctx ended, so the next poll need not wait for
		// the ttl.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := deps.Store.Unlock(uctx, lockName, cfg.Owner); err != nil {
			p.log.WarnContext(ctx, "watch: could not release the lock; it lapses with its ttl", "error", err)
		}
	}()

	err = p.phases(ctx)
	// Housekeeping, once a day across every replica and job: a failure
	// is logged and retried by a later poll, and fails nothing else.
	if pruned, ran, perr := deps.Store.PruneDaily(ctx, cfg.Owner, cfg.Retention); perr != nil {
		p.log.WarnContext(ctx, "watch: the daily prune failed; a later poll tries again", "error", perr)
	} else if ran {
		p.sum.Pruned = &pruned
		p.log.InfoContext(ctx, "watch: daily prune", "retention", cfg.Retention, "pruned", pruned.String())
	}
	if err == nil && p.sum.Failed > 0 {
		err = fmt.Errorf("%d posts: %w", p.sum.Failed, ErrPartial)
	}
	p.log.InfoContext(ctx, "watch: poll done", "summary", p.sum.String())
	return p.sum, err
}

// phase is one part of a poll, named for its error.
type phase struct {
	name string
	run  func(context.Context) error
}

// phases runs a poll's parts in order and joins their errors, each named:
// they are independent (the records failing for meetings does not hold up
// DMs, and the other way round), but each reads what those before it read.
func (p *poll) phases(ctx context.Context) error {
	var errs []error
	for _, ph := range []phase{
		{"announcements", p.announce},
		// The search index after the announcements, which it shares
		// reads with: what they read is indexed already.
		{"search index", p.index},
		// Searches check their hits again on answers read after this
		// poll began (minutes.ServedSearch): what it cannot see, approved
		// minutes withdrawn that it does not read again, leaves search
		// all the same.
		{"", p.markRecheck},
		{"assignment DMs", p.assignments},
		// The weekly digests after the DMs, on the list they read.
		{"digests", func(ctx context.Context) error { return p.digests(ctx, p.list) }},
		// The pre-meeting briefs, on the pages and the list read above.
		{"briefs", p.briefs},
		// Minutes changed after their approval, from the versions kept.
		{"edits after approval", p.edits},
		// Topic watches last: the minutes the index came to hold, and
		// the agendas the briefs read.
		{"topic watches", p.topics},
	} {
		if err := ph.run(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ph.name, err))
		}
	}
	return errors.Join(errs...)
}

// markRecheck records when this poll began, for the searches' checks; a
// failure is logged: hits are then trusted for the cache's time.
func (p *poll) markRecheck(ctx context.Context) error {
	if err := p.deps.Store.SetState(ctx, minutes.RecheckState, p.now.UTC().Format(time.RFC3339Nano)); err != nil {
		p.log.WarnContext(ctx, "watch: could not mark the poll for search; hits are trusted for the cache's time", "error", err)
	}
	return nil
}

// errLockLost is the cause of a poll cut short because its lock was taken
// over: another poller has run meanwhile, and two at once would only race
// (harmlessly, the ledger sees to that) for the same work.
var errLockLost = errors.New("the poll lock was taken over")

// heartbeat renews the poll lock every cfg.Heartbeat until stop is called,
// so a long poll keeps it while a dead one loses it within LockTTL. When a
// renewal finds the lock taken over (this process stalled past the ttl),
// the returned context is cancelled with errLockLost. A renewal that fails
// for the store is retried at the next beat; the lock lapses if none
// succeeds within the ttl.
func (p *poll) heartbeat(ctx context.Context) (context.Context, func()) {
	if p.cfg.Heartbeat < 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(p.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			held, err := p.deps.Store.TryLock(ctx, lockName, p.cfg.Owner, p.cfg.LockTTL)
			switch {
			case err != nil:
				p.log.WarnContext(ctx, "watch: could not renew the poll lock", "error", err)
			case !held:
				p.log.ErrorContext(ctx, "watch: the poll lock was taken over; stopping this poll")
				cancel(errLockLost)
				return
			}
		}
	})
	return ctx, func() {
		close(done)
		wg.Wait()
		cancel(nil)
	}
}

// newPoll is one run's state, on cfg with its defaults set.
func newPoll(cfg Config, deps Deps) *poll {
	if deps.Slack != nil { // Baseline posts nothing and has no Slack
		pacer := deps.Pacer
		if pacer == nil {
			pacer = slackapi.NewPacer(slackapi.PacerOptions{Log: deps.Logger})
		}
		// Every call of the poll, the ledger's history reads included, is
		// paced.
		deps.Slack = pacedSlack{api: deps.Slack, pacer: pacer}
	}
	p := &poll{cfg: cfg, deps: deps, log: deps.Logger, now: cfg.Now(), zone: time.UTC,
		minutes: map[string]minutesRead{}, pages: map[string]*apiclient.MeetingPage{},
		rules: follows.NewRules(cfg.Follows, cfg.Language)}
	// Baseline is handed no action domain: it reads no action and places
	// no meeting in time.
	if deps.Actions != nil {
		p.zone = deps.Actions.Zone()
	}
	if deps.Slack != nil {
		p.people = actions.NewAssignees(deps.Actions.UserMap(), slackusers.ByEmail(deps.Slack.GetUserByEmailContext))
		p.poster = &once.Poster{Ledger: deps.Store, Slack: deps.Slack, Owner: cfg.Owner, Lease: cfg.Lease,
			HistoryDepth: cfg.HistoryDepth, Log: deps.Logger}
	}
	return p
}

// poll is one run's state.
type poll struct {
	cfg  Config
	deps Deps
	log  *slog.Logger
	// rules are the follow domain's: what a channel hears, when its
	// digest comes, what language it reads.
	rules follows.Rules
	now   time.Time
	// zone is the organisation's time zone, the action domain's.
	zone *time.Location
	sum  Summary
	// people finds assignees' Slack users, users.lookupByEmail cached
	// for the poll.
	people *actions.Assignees
	// poster posts each announcement and DM exactly once.
	poster *once.Poster
	// minutes and pages keep the poll's records reads, so the
	// announcements and the search index read each once.
	minutes map[string]minutesRead
	pages   map[string]*apiclient.MeetingPage
	// list is the actions still to do, as the DMs read them; completed,
	// the complete ones, read for a digest's changes at most once.
	list, completed *apiclient.ActionList
	// agendas are the meetings' own records read for briefs, by ID.
	agendas map[string]agendaRead
	// indexErr is the last failure to write the search index.
	indexErr error
}
