package actions

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Config is the domain's behaviour. The zero value of every field means
// its documented default.
type Config struct {
	// Admins are the Slack user IDs who may change any action.
	Admins []string
	// UserMap is USER_MAP.
	UserMap UserMap
	// CacheTTL is how long the shared action list is reused. Default 5 s;
	// negative turns the cache off.
	CacheTTL time.Duration
	// ProfileTTL is how long a Slack profile is reused. Default 10 min.
	ProfileTTL time.Duration
	// Zone is the organisation's time zone (RECORDS_TIMEZONE): a date-only
	// deadline ends at midnight there. Default UTC.
	Zone *time.Location
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Language is ORG_LANGUAGE: the language of people whose Slack
	// locale recordsbot does not ship (ReaderLanguage). Default English.
	Language lang.Lang
	// Visibility is ACTIONS_VISIBILITY: whose actions members may see
	// (see CanSee). Default VisibleOwn.
	Visibility Visibility
	// PublicURL is the bot's public base URL (PUBLIC_URL); a trailing
	// slash is ignored. Empty: actions have no link of their own (Link).
	PublicURL string
	// Trail keeps the audit trail of status changes (the store); nil
	// records nothing (the demo, tests that are not about it). With one,
	// a change is sent only once it is recorded (SetStatus).
	Trail Trail
}

// Trail is where the audit trail is kept; *store.Store implements it.
type Trail interface {
	// AppendAudit appends e to the trail, which gives it its place in the
	// chain, and returns it as kept.
	AppendAudit(ctx context.Context, e audit.Entry) (audit.Entry, error)
}

// Service is the action domain. It is safe for concurrent use.
type Service struct {
	// links keeps each action's own link (Link).
	links    links
	cfg      Config
	records  Records
	list     *sharedList
	dir      *directory
	changes  inflight
	assigned assigneeIndex
}

// New returns the domain over the records service and Slack's directory
// of users.
func New(records Records, profiles Directory, cfg Config) *Service {
	if cfg.CacheTTL == 0 {
		cfg.CacheTTL = 5 * time.Second
	}
	if cfg.ProfileTTL <= 0 {
		cfg.ProfileTTL = 10 * time.Minute
	}
	if cfg.Zone == nil {
		cfg.Zone = time.UTC
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Visibility == "" {
		cfg.Visibility = VisibleOwn
	}
	return &Service{
		cfg:     cfg,
		records: records,
		list:    newSharedList(records, cfg.CacheTTL, cfg.Now),
		dir:     newDirectory(profiles, cfg.UserMap, cfg.ProfileTTL, cfg.Now),
	}
}

// Wait blocks until the shared list's background refreshes are over, so
// a stopping process (or a test) leaves nothing running.
func (s *Service) Wait() { s.list.wait() }

// Zone is the organisation's time zone (Config.Zone, default UTC): the
// jobs handed this Service read it here rather than keep a copy.
func (s *Service) Zone() *time.Location { return s.cfg.Zone }

// UserMap is USER_MAP (Config.UserMap; the zero UserMap maps no one): the
// jobs handed this Service match assignees to Slack users with it.
func (s *Service) UserMap() UserMap { return s.cfg.UserMap }

// Caches reports whether the shared action list is cached (CacheTTL not
// negative). Without the cache every read goes to the records service
// (ListCached is never ok), and a version of the list lasts only while the
// records service sends the same bytes: what was drawn from it must be
// checked against anything else it shows that may have changed meanwhile.
func (s *Service) Caches() bool { return !s.list.off }

// Who returns Slack user id as a Member. When Slack cannot be asked the
// Member still carries what USER_MAP says, and the error says why.
func (s *Service) Who(ctx context.Context, id string) (Member, error) { return s.dir.who(ctx, id) }

// IsAdmin reports whether Slack user id is listed in ADMIN_USER_IDS. The
// list alone grants nothing over actions: Admin decides whether a person
// holds admin powers now.
func (s *Service) IsAdmin(id string) bool { return slices.Contains(s.cfg.Admins, id) }

// Admin is the one rule for admin powers over actions (changing and
// seeing anyone's): viewer is listed in ADMIN_USER_IDS, Slack has said who
// they are (users.info answered), and they are not a Slack guest. Powers
// fail closed: a profile Slack could not give (an error, a timeout) might
// be a guest's, so until Slack answers the viewer has member powers at
// most. The failed lookup is not cached (directory.who), so powers come
// back with the first users.info that answers.
func (s *Service) Admin(viewer Member) bool {
	return viewer.profiled && !viewer.Guest && s.IsAdmin(viewer.ID)
}

// CanChange is the one rule for who may change an action: its assignee or
// an admin (Admin: not a guest, nor someone whose profile Slack could not
// give), so whoever may change an action may also see it (CanSee).
func (s *Service) CanChange(viewer Member, a *apiclient.Action) bool {
	return viewer.Owns(a.Assignee) || s.Admin(viewer)
}

// WhoCached returns Slack user id as a Member when their profile is cached
// and fresh, without asking Slack; ok is false otherwise (Who would ask).
func (s *Service) WhoCached(id string) (m Member, ok bool) { return s.dir.profiles.Peek(id) }

// ReaderLanguage is the one rule for the language a person reads, from
// their Slack locale (Member.Locale, Assignees.Locale): that language when
// recordsbot ships it, else ORG_LANGUAGE (Config.Language).
func (s *Service) ReaderLanguage(locale string) lang.Lang {
	return lang.ForLocale(locale, s.cfg.Language)
}

// Forget drops user id's cached profile, so the next lookup asks Slack
// (users.info) again: someone who has just changed their Slack language
// or name is read afresh rather than when the cache expires.
func (s *Service) Forget(id string) { s.dir.profiles.Forget(id) }

// ListCached returns the list List would return for st when it is cached and
// fresh, without reading the records service; ok is false otherwise (List
// would read it, or refresh it). With the cache off it never is.
func (s *Service) ListCached(st apiclient.Status) (list *apiclient.ActionList, ok bool) {
	return s.list.peek(st)
}

// List returns the actions in status st ("" for those still to do, All for
// every one); see sharedList. The list is shared: do not modify it.
func (s *Service) List(ctx context.Context, st apiclient.Status) (*apiclient.ActionList, error) {
	return s.list.get(ctx, st)
}

// ListWithin returns the actions still to do, as a list up to maxAge old
// when the domain holds one (with the bot's own changes written into it),
// else as List does: for a reader that polls and is content with an older
// list, such as the private calendar feeds rebuilt every quarter of an
// hour, so a hundred people's feeds cost one list without a second cache.
// The list is shared: do not modify it.
func (s *Service) ListWithin(ctx context.Context, maxAge time.Duration) (*apiclient.ActionList, error) {
	return s.list.within(ctx, maxAge)
}

// Find returns action id as SetStatus finds it (the shared list, then
// the other statuses); found is false when the records have no such
// action. Errors: apiclient's.
func (s *Service) Find(ctx context.Context, id string) (a apiclient.Action, found bool, err error) {
	return s.list.find(ctx, id)
}

// Due says where a stands against its deadline for a reader in zone
// reader (nil: the organisation's) now, with a window of days; see Due.
func (s *Service) Due(a *apiclient.Action, now time.Time, reader *time.Location, days int) DueStatus {
	return Due(a, now, s.cfg.Zone, reader, days)
}

// Outcome is how a status change ended, other than with an error.
type Outcome int

// The outcomes of SetStatus.
const (
	Changed   Outcome = iota // the records service accepted the new status
	Unchanged                // the action already had it; nothing was sent
	Forbidden                // the actor is neither the assignee nor an admin
	Gone                     // no such action
	Duplicate                // the same change was already under way (a double click)
)

// ErrProfileLookup is returned (wrapped) by SetStatus when Slack could not
// say who the actor is and USER_MAP does not either: nothing was changed.
var ErrProfileLookup = errors.New("slack profile lookup failed")

// ErrNotRecorded is returned (wrapped) by SetStatus when the change could
// not be written to the audit trail (the store is down): nothing was sent
// to the records service. Accountability is chosen over availability: a
// change nobody could later account for is not made.
var ErrNotRecorded = errors.New("change not recorded in the audit trail")

// ErrUnconfirmed marks a status change that was sent but whose answer
// never arrived or could not be read: the records may or may not hold it.
var ErrUnconfirmed = errors.New("status change unconfirmed")

// SetStatus changes action id to status to on behalf of Slack user actor.
// The action is re-read (through the shared list) and the actor's right to
// change it checked before anything is sent: a button's value is never
// trusted alone. Identical changes that arrive together (a double click)
// are sent once; the others report Duplicate. The returned action is the
// one after the change, or as found.
//
// With a Trail, every decision is recorded, on the surface ctx carries
// (audit.WithSurface): a refusal (not yours, no such action) or an
// unchanged status as one entry; a change as an entry "requested" before
// the PUT, which is sent only once that entry is kept, and an entry with
// the records service's answer after it. A refusal or answer that cannot
// be recorded does not change what happened.
//
// Errors: apiclient's, ErrProfileLookup, ErrNotRecorded (nothing was
// sent), ErrUnconfirmed (then the cached list is dropped, as the records
// may hold the change).
func (s *Service) SetStatus(ctx context.Context, actor, id string, to apiclient.Status) (apiclient.Action, Outcome, error) {
	if !to.Valid() {
		return apiclient.Action{}, Gone, fmt.Errorf("set status %q: %w", to, apiclient.ErrInvalidStatus)
	}
	a, found, err := s.list.find(ctx, id)
	if err != nil {
		return a, Gone, err
	}
	if !found {
		// Who the actor is, as far as is known without asking Slack:
		// recording a refusal costs no call.
		me, ok := s.WhoCached(actor)
		if !ok {
			me = Member{ID: actor}
		}
		s.recorder(ctx, me, id, "", to).write(audit.Refused(audit.ReasonGone))
		return a, Gone, nil
	}
	me, meErr := s.Who(ctx, actor)
	rec := s.recorder(ctx, me, id, a.Status, to)
	if !s.CanChange(me, &a) {
		if meErr != nil && (!me.Mapped() || s.IsAdmin(actor)) {
			// Slack could not be asked who the actor is; say so rather
			// than refuse someone who may be the assignee, or an admin
			// whose powers wait for Slack to say they are not a guest.
			return a, Gone, fmt.Errorf("identify %s: %w", actor, ErrProfileLookup)
		}
		rec.write(audit.Refused(audit.ReasonNotYours))
		return a, Forbidden, nil
	}
	if a.Status == to {
		rec.write(audit.Unchanged)
		return a, Unchanged, nil
	}
	leader, done := s.changes.join(ctx, id+"\x00"+string(to))
	if !leader {
		return a, Duplicate, nil
	}
	defer done()
	if err := rec.write(audit.Requested); err != nil {
		return a, Gone, fmt.Errorf("update action %s: %w: %w", id, ErrNotRecorded, err)
	}
	updated, err := s.records.UpdateActionStatus(ctx, id, to)
	if err != nil {
		rec.write(answerOutcome(err))
		if errors.Is(err, apiclient.ErrNotFound) {
			return a, Gone, nil
		}
		err = fmt.Errorf("update action %s: %w", id, err)
		if writeUnconfirmed(err) {
			s.list.invalidate()
			err = fmt.Errorf("%w: %w", ErrUnconfirmed, err)
		}
		return a, Gone, err
	}
	rec.write(audit.Done)
	merged := fillGaps(*updated, a, to)
	s.list.put(merged)
	return merged, Changed, nil
}

// statusRecorder writes the entries of one status change.
type statusRecorder struct {
	trail Trail
	ctx   context.Context
	e     audit.Entry
}

func (s *Service) recorder(ctx context.Context, me Member, id string, from, to apiclient.Status) statusRecorder {
	if s.cfg.Trail == nil {
		return statusRecorder{}
	}
	e := audit.New(ctx, s.cfg.Now(), me.ID, audit.ActionStatus, id)
	e.ActorRecords, e.From, e.To = me.RecordsName(), string(from), string(to)
	return statusRecorder{trail: s.cfg.Trail, ctx: ctx, e: e}
}

// write appends the change with outcome o (nothing without a Trail).
func (r statusRecorder) write(o audit.Outcome) error {
	if r.trail == nil {
		return nil
	}
	r.e.Outcome = o
	_, err := r.trail.AppendAudit(r.ctx, r.e)
	return err
}

// answerOutcome is the records service's answer to a PUT that failed, as
// the trail says it.
func answerOutcome(err error) audit.Outcome {
	var ae *apiclient.Error
	switch {
	case writeUnconfirmed(err):
		return audit.Unconfirmed
	case errors.Is(err, apiclient.ErrNotFound):
		return audit.Refused(audit.ReasonGone)
	case errors.As(err, &ae) && ae.StatusCode >= 400 && ae.StatusCode < 500:
		return audit.Refused(fmt.Sprintf("%s (HTTP %d)", audit.ReasonRecords, ae.StatusCode))
	}
	return audit.Failed
}

// fillGaps completes a PUT answer from the action as it was before: some
// services answer with a partial row (only the status, say), and the row
// shown after a click must still say what the action is. This is the one
// place that is done.
func fillGaps(got, was apiclient.Action, to apiclient.Status) apiclient.Action {
	if got.ID == "" {
		got.ID = was.ID
	}
	if got.Title == "" {
		got.Title = was.Title
	}
	if got.Assignee.IsZero() {
		got.Assignee = was.Assignee
	}
	if got.Deadline.IsZero() {
		got.Deadline, got.DeadlineHasTime = was.Deadline, was.DeadlineHasTime
	}
	if got.MeetingID == "" {
		got.MeetingID, got.MeetingTitle = was.MeetingID, was.MeetingTitle
	}
	if got.Committee == "" {
		got.Committee = was.Committee
	}
	if got.Status == "" {
		got.Status = to
	}
	return got
}

// writeUnconfirmed reports whether a failed update may still have been
// applied: the request went out but no readable answer came back (a
// timeout, a connection dropped mid-answer, a 2xx answer that does not
// decode or is over the size cap). An answer with an error status is taken
// at its word, and a request that never connected changed nothing. The
// client retries, and only the last attempt's error is judged: an earlier
// attempt cut off mid-answer, then one that could not connect, reads as
// "nothing changed". That needs the service to go down between two
// attempts a fraction of a second apart, which is rare enough to accept.
func writeUnconfirmed(err error) bool {
	var ae *apiclient.Error
	if !errors.As(err, &ae) {
		return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
	}
	if ae.StatusCode >= 200 && ae.StatusCode < 300 {
		return true
	}
	var op *net.OpError
	return ae.StatusCode == 0 && errors.Is(ae.Kind, apiclient.ErrUnavailable) && !(errors.As(err, &op) && op.Op == "dial")
}

// inflight collapses identical status changes that arrive together (double
// clicks, two people clicking at once): the first does the PUT, the others
// wait for it and report a duplicate, so the records service sees one write
// and the message is updated once.
type inflight struct {
	mu    sync.Mutex
	calls map[string]chan struct{}
}

// join returns leader=true and a done func for the first caller with key;
// later callers block until the leader is done and get leader=false.
func (f *inflight) join(ctx context.Context, key string) (leader bool, done func()) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]chan struct{}{}
	}
	if ch, ok := f.calls[key]; ok {
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		return false, func() {}
	}
	ch := make(chan struct{})
	f.calls[key] = ch
	f.mu.Unlock()
	return true, func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(ch)
	}
}
