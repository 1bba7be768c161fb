package follows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// Store is what the follow domain keeps. *store.Store implements it; the
// bot hands in its own wrapper, which also writes the audit trail.
type Store interface {
	Follow(ctx context.Context, f store.Follow) (existed bool, err error)
	Unfollow(ctx context.Context, channelID, committeeKey string) (existed bool, err error)
	FollowsInChannel(ctx context.Context, channelID string) ([]store.Follow, error)
	// SetFollowChoice sets whether a follow hears what (store.Hearable),
	// one field in one statement.
	SetFollowChoice(ctx context.Context, channelID, committeeKey, what string, on bool) (bool, error)
	// SetDigestChoice records a follow's weekly digest schedule and
	// mentions.
	SetDigestChoice(ctx context.Context, channelID, committeeKey string, schedule *clocktime.Weekly, mentions bool) error
	// Digest returns a follow's digest choice (and what the last saw).
	Digest(ctx context.Context, channelID, committeeKey string) (store.Digest, error)
	// SetFollowLanguage sets the language code a follow's channel posts
	// are written in ("" for ORG_LANGUAGE).
	SetFollowLanguage(ctx context.Context, channelID, committeeKey, code string) (bool, error)
}

// Meetings reads the records' meetings list a page at a time;
// *minutes.Service implements it (the bot reads records only through the
// domain services).
type Meetings interface {
	Meetings(ctx context.Context, next string) (*apiclient.MeetingPage, error)
}

// Deps are what a Service works with.
type Deps struct {
	Store    Store
	Meetings Meetings
	// Baseline, when set, takes a new follow's baseline at once, so that
	// "from now on" starts when the channel follows; nil leaves it to the
	// watcher's next poll.
	Baseline func(ctx context.Context, f store.Follow) error
	// Changer is who a Slack user is, for MayChange: whether they hold
	// admin powers by the action domain's one rule (which fails closed
	// while Slack cannot say who they are) and whether Slack says they
	// are a guest (users.info, cached). Nil: nobody is an admin.
	Changer func(ctx context.Context, userID string) Changer
	Log     *slog.Logger // nil discards
}

// Service is the follow domain over its store and the records' meetings.
type Service struct {
	rules Rules
	deps  Deps
	log   *slog.Logger
}

// New returns the follow domain with rules over deps.
func New(rules Rules, deps Deps) *Service {
	log := deps.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{rules: rules, deps: deps, log: log}
}

// WithStore returns the service with its rules and collaborators over st
// instead: the bot hands in its store wrapped to write the audit trail.
func (s *Service) WithStore(st Store) *Service {
	c := *s
	c.deps.Store = st
	return &c
}

// Rules are the organisation's settings the service applies.
func (s *Service) Rules() Rules { return s.rules }

// MayChange applies Rules.MayChange to userID as Deps.Changer reads them.
// Errors: as Rules.MayChange.
func (s *Service) MayChange(ctx context.Context, userID string) error {
	var c Changer
	if s.deps.Changer != nil {
		c = s.deps.Changer(ctx, userID)
	}
	return s.rules.MayChange(c)
}

// ErrNotFollowed: the channel does not follow that committee (it was
// unfollowed meanwhile).
var ErrNotFollowed = errors.New("not followed")

// committeePages bounds the meetings list pages read for the committees
// a follow may name: as many as /minutes reads.
const committeePages = 10

// Committees lists the committees of recent meetings, each once under
// its newest spelling, sorted by name. Future meetings count: a new
// committee may be followed before it meets. The walk stops at the page
// where a committee named exactly stop (ignoring case) appears: a prefix
// needs every page, to know it names one committee only, but a whole name
// does not.
func (s *Service) Committees(ctx context.Context, stop string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	next := ""
	for range committeePages {
		p, err := s.deps.Meetings.Meetings(ctx, next)
		if err != nil {
			return nil, fmt.Errorf("list committees: %w", err)
		}
		for _, m := range p.Meetings {
			key := minutes.CommitteeKey(m.Committee)
			if key != "" && !seen[key] {
				seen[key] = true
				out = append(out, strings.TrimSpace(m.Committee))
			}
		}
		if next = p.Next; next == "" || seen[minutes.CommitteeKey(stop)] {
			break
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out, nil
}

// Resolve finds the committee typed among those of recent meetings, as
// /minutes does (case-insensitive, a prefix is enough; minutes.
// MatchCommittee), and returns its name as the records spell it, or ""
// with the committees known.
func (s *Service) Resolve(ctx context.Context, typed string) (name string, known []string, err error) {
	known, err = s.Committees(ctx, typed)
	if err != nil {
		return "", nil, err
	}
	name, _ = minutes.MatchCommittee(known, typed)
	return name, known, nil
}

// Follow makes channelID follow committee (as the records spell it) on
// behalf of by, and reports whether it already did. A new follow's
// baseline is taken at once when Deps.Baseline is set; should that fail,
// the watcher's next poll takes it.
func (s *Service) Follow(ctx context.Context, channelID, committee, by string) (store.Follow, bool, error) {
	f := store.Follow{ChannelID: channelID, Committee: committee, CommitteeKey: minutes.CommitteeKey(committee), By: by}
	existed, err := s.deps.Store.Follow(ctx, f)
	if err != nil {
		return f, false, fmt.Errorf("follow: %w", err)
	}
	if !existed && s.deps.Baseline != nil {
		// "From now on" starts here: what is visible now is old news, and
		// anything published after this is announced.
		if err := s.deps.Baseline(ctx, f); err != nil {
			s.log.WarnContext(ctx, "follow: baseline not taken; the watcher's next poll takes it", "channel", channelID,
				"committee", committee, "error", err)
		}
	}
	return f, existed, nil
}

// UnfollowOutcome is what Unfollow found.
type UnfollowOutcome int

// What Unfollow did.
const (
	// Unfollowed: the channel no longer follows Committee.
	Unfollowed UnfollowOutcome = iota
	// NothingFollowed: the channel follows no committee.
	NothingFollowed
	// Ambiguous: what was typed starts several followed names
	// (Candidates).
	Ambiguous
	// NotFollowed: what was typed matches none of the channel's follows
	// (Candidates: what it follows).
	NotFollowed
	// AlreadyGone: the follow went between reading and removing it.
	AlreadyGone
)

// Unfollow is what Unfollow did.
type Unfollow struct {
	Outcome    UnfollowOutcome
	Committee  string   // the follow matched, as its channel followed it
	Candidates []string // Ambiguous: the names meant; NotFollowed: every follow's
}

// Unfollow stops channelID following the committee typed. The name is
// matched against what the channel follows rather than the records, so a
// committee the records no longer list can still be unfollowed.
func (s *Service) Unfollow(ctx context.Context, channelID, typed string) (Unfollow, error) {
	follows, err := s.deps.Store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return Unfollow{}, fmt.Errorf("unfollow: %w", err)
	}
	var names []string
	for _, f := range follows {
		names = append(names, f.Committee)
	}
	committee, ambiguous := minutes.MatchCommittee(names, typed)
	switch {
	case len(follows) == 0:
		return Unfollow{Outcome: NothingFollowed}, nil
	case len(ambiguous) > 1:
		return Unfollow{Outcome: Ambiguous, Candidates: ambiguous}, nil
	case committee == "":
		return Unfollow{Outcome: NotFollowed, Candidates: names}, nil
	}
	existed, err := s.deps.Store.Unfollow(ctx, channelID, minutes.CommitteeKey(committee))
	if err != nil {
		return Unfollow{}, fmt.Errorf("unfollow: %w", err)
	}
	if !existed {
		return Unfollow{Outcome: AlreadyGone, Committee: committee}, nil
	}
	return Unfollow{Outcome: Unfollowed, Committee: committee}, nil
}

// Listed is one follow of a channel as /minutes following shows it.
type Listed struct {
	store.Follow
	// Digest is the follow's digest row; zero when it could not be read.
	Digest store.Digest
	// Hears is what the channel hears of it, by store.Hearable name: the
	// digest only when its box is ticked and it has a slot (HearsDigest).
	Hears map[string]bool
	// Language is what its posts are written in.
	Language lang.Lang
	// LanguageChosen is set when Language is the follow's own choice
	// (`language de`), not ORG_LANGUAGE.
	LanguageChosen bool
}

// InChannel lists the follows of channelID, ordered by committee, each
// with what the channel hears of it. A digest row that cannot be read
// only leaves the follow's own schedule out.
func (s *Service) InChannel(ctx context.Context, channelID string) ([]Listed, error) {
	follows, err := s.deps.Store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return nil, fmt.Errorf("list follows: %w", err)
	}
	out := make([]Listed, 0, len(follows))
	for _, f := range follows {
		d, err := s.deps.Store.Digest(ctx, channelID, f.CommitteeKey)
		if err != nil {
			d = store.Digest{}
		}
		l := Listed{Follow: f, Digest: d, Hears: map[string]bool{}, Language: s.rules.Language(f)}
		_, l.LanguageChosen = ownLanguage(f)
		for _, what := range store.Hearable() {
			l.Hears[what] = s.rules.Hears(f, what)
		}
		l.Hears[store.HearDigest] = s.rules.HearsDigest(f, d)
		out = append(out, l)
	}
	return out, nil
}

// Chosen is what Choose made of a follow.
type Chosen struct {
	Committee string
	// Hears are what the channel now hears, in store.Hearable's order.
	Hears []string
	// DigestNeedsTime is set when the Weekly digest box was ticked but
	// has no slot (no schedule of its own and DIGEST_DEFAULT off): it
	// stays unticked and the channel must choose a time.
	DigestNeedsTime bool
}

// Choose makes what the follow of key in channelID hears exactly the
// names ticked (of store.Hearable): Slack sends every box still ticked,
// not the one clicked, so two quick clicks each land whole. Only what
// differs from what the boxes showed is written. A digest ticked back on
// comes at its next slot, not at once for the slot it missed (the store
// marks it resumed, which the watcher honours). Errors: ErrNotFollowed,
// or the store's, wrapped.
func (s *Service) Choose(ctx context.Context, channelID, key string, ticked map[string]bool) (Chosen, error) {
	follows, err := s.deps.Store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return Chosen{}, fmt.Errorf("follow choices: %w", err)
	}
	i := slices.IndexFunc(follows, func(f store.Follow) bool { return f.CommitteeKey == key })
	if i < 0 {
		return Chosen{}, ErrNotFollowed
	}
	f := follows[i]
	d, err := s.deps.Store.Digest(ctx, channelID, key)
	if err != nil {
		return Chosen{}, fmt.Errorf("follow choices: %w", err)
	}
	out := Chosen{Committee: f.Committee}
	for _, what := range store.Hearable() {
		was := s.rules.Hears(f, what)
		if what == store.HearDigest {
			// As the box showed it: on only when it has a slot too.
			was = s.rules.HearsDigest(f, d)
			if ticked[what] && !was {
				ready, err := s.resumeDigest(ctx, channelID, key, d)
				if err != nil {
					return Chosen{}, fmt.Errorf("follow choices: %w", err)
				}
				if !ready {
					out.DigestNeedsTime = true
					continue
				}
			}
		}
		if ticked[what] {
			out.Hears = append(out.Hears, what)
		}
		if ticked[what] == was {
			continue
		}
		if _, err := s.deps.Store.SetFollowChoice(ctx, channelID, key, what, ticked[what]); err != nil {
			return Chosen{}, fmt.Errorf("follow choices: %w", err)
		}
	}
	return out, nil
}

// resumeDigest makes ready a digest whose box is being ticked, d being
// its row, and reports whether it has a slot to come at. A schedule kept
// as "off" (before `digest off` became the box) gives way to the
// organisation's. With no slot at all (no schedule of its own and
// DIGEST_DEFAULT off) nothing is changed.
func (s *Service) resumeDigest(ctx context.Context, channelID, key string, d store.Digest) (bool, error) {
	own := d.Schedule != nil && d.Schedule.On
	if !own && !s.rules.Usual().On {
		return false, nil
	}
	if d.Schedule != nil && !d.Schedule.On {
		// Also marks it resumed: no back-dated digest.
		if err := s.deps.Store.SetDigestChoice(ctx, channelID, key, nil, d.Mentions); err != nil {
			return false, fmt.Errorf("clear digest off: %w", err)
		}
	}
	return true, nil
}

// DigestChoice is what a channel asks of its weekly digest.
type DigestChoice struct {
	// Schedule is nil for the organisation's slot (DIGEST_DEFAULT), else
	// the channel's own day and time, or off.
	Schedule *clocktime.Weekly
	// Mentions mentions the assignees (a ping) instead of naming them.
	Mentions bool
}

// DigestOutcome is what SetDigest did.
type DigestOutcome int

// What SetDigest did.
const (
	// DigestComes: the digest comes at When.
	DigestComes DigestOutcome = iota
	// DigestOff: the Weekly digest box is unticked; When, if on, is the
	// channel's own slot, kept for when the box is ticked again.
	DigestOff
	// DigestNoSlot: the channel asked for the organisation's slot and
	// DIGEST_DEFAULT is off, so no digest comes.
	DigestNoSlot
)

// DigestSet is what SetDigest did.
type DigestSet struct {
	Outcome DigestOutcome
	When    clocktime.Weekly
	// Usual: When is the organisation's slot.
	Usual    bool
	Mentions bool
	// Ticked: the Weekly digest box was unticked and is ticked again.
	Ticked bool
	// TickFailed: it is unticked and could not be ticked; the channel
	// must tick it in /minutes following.
	TickFailed bool
}

// SetDigest records the digest choice c of the follow of key in
// channelID. Off unticks the follow's Weekly digest box, its one switch,
// and keeps the channel's own day and time (and mentions), so that
// ticking the box again resumes it as it was, at its next slot. A time
// (or the usual one) ticks the box: asking for a time is asking for the
// digest. Errors: the store's, wrapped.
func (s *Service) SetDigest(ctx context.Context, channelID, key string, c DigestChoice) (DigestSet, error) {
	if c.Schedule != nil && !c.Schedule.On {
		if _, err := s.deps.Store.SetFollowChoice(ctx, channelID, key, store.HearDigest, false); err != nil {
			return DigestSet{}, fmt.Errorf("set digest choice: %w", err)
		}
		out := DigestSet{Outcome: DigestOff}
		if d, err := s.deps.Store.Digest(ctx, channelID, key); err == nil && d.Schedule != nil && d.Schedule.On {
			out.When = *d.Schedule
		}
		return out, nil
	}
	if err := s.deps.Store.SetDigestChoice(ctx, channelID, key, c.Schedule, c.Mentions); err != nil {
		return DigestSet{}, fmt.Errorf("set digest choice: %w", err)
	}
	out := DigestSet{Outcome: DigestComes, When: s.rules.Usual(), Usual: true, Mentions: c.Mentions}
	switch {
	case c.Schedule == nil && !out.When.On:
		return DigestSet{Outcome: DigestNoSlot}, nil
	case c.Schedule != nil:
		out.When, out.Usual = *c.Schedule, false
	}
	ticked, err := s.tickDigest(ctx, channelID, key)
	if err != nil {
		s.log.WarnContext(ctx, "follow: could not tick the weekly digest", "channel", channelID, "committee", key, "error", err)
		out.TickFailed = true
	}
	out.Ticked = ticked
	return out, nil
}

// tickDigest turns the weekly digest on for the follow of key in
// channelID when its box is off, and reports whether it did. It leaves a
// digest that is on alone: turning it on marks it resumed, which would
// skip a slot due but not yet posted.
func (s *Service) tickDigest(ctx context.Context, channelID, key string) (bool, error) {
	follows, err := s.deps.Store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return false, fmt.Errorf("read follows: %w", err)
	}
	i := slices.IndexFunc(follows, func(f store.Follow) bool { return f.CommitteeKey == key })
	if i < 0 || s.rules.Hears(follows[i], store.HearDigest) {
		return false, nil
	}
	if _, err := s.deps.Store.SetFollowChoice(ctx, channelID, key, store.HearDigest, true); err != nil {
		return false, fmt.Errorf("tick digest: %w", err)
	}
	return true, nil
}

// SetLanguage makes the posts of the follow of key in channelID be
// written in l (announcements, digests, briefs). Errors: ErrNotFollowed,
// or the store's, wrapped.
func (s *Service) SetLanguage(ctx context.Context, channelID, key string, l lang.Lang) error {
	return s.setLanguage(ctx, channelID, key, l.Code())
}

// UseOrgLanguage takes the follow of key in channelID's own language
// away: its posts are written in ORG_LANGUAGE again (Rules.Language).
// Errors: as SetLanguage's.
func (s *Service) UseOrgLanguage(ctx context.Context, channelID, key string) error {
	return s.setLanguage(ctx, channelID, key, "")
}

// setLanguage keeps code ("" for ORG_LANGUAGE) with the follow.
func (s *Service) setLanguage(ctx context.Context, channelID, key, code string) error {
	found, err := s.deps.Store.SetFollowLanguage(ctx, channelID, key, code)
	if err != nil {
		return fmt.Errorf("set follow language: %w", err)
	}
	if !found {
		return ErrNotFollowed
	}
	return nil
}
