// Package publicgate is the one admission step of every public lookup.
// The public routes need no login, so anyone may name any meeting,
// committee, archive cursor or private calendar token in an address. Each
// public handler (bot/minutespage's pages, archive and feed, and
// bot/calendarfeed's feeds; any public route added later) asks the Gate
// about what the reader named before it reads anything for it, and reads
// with the context the Gate gives back:
//
//   - a lookup the bot can tell can only fail, from what it already holds
//     (the meetings list's first pages, read once a minute for every
//     caller: minutes.Service.KnownMeeting and KnownCommittee; a cursor's
//     or a token's signature), is ErrNotFound at once: no records call;
//     one of a meeting or committee the calendar holds in memory goes
//     ahead without that list being read; and a calendar feed's lookup
//     (FeedMeeting, FeedCommittee) of one not in the window the calendar
//     holds is ErrNotFound at once, as the feed holds nothing else;
//   - a lookup the bot cannot vouch for (not among the meetings it holds,
//     but that list is not the whole history, or could not be read) goes
//     ahead on the unheld budget (Config.Unheld): a small budget of its
//     own, so made-up names cannot spend the records calls readers of
//     real minutes need; if it finds nothing (Lookup.Missed), the next ask
//     of the same name is ErrNotFound for MissTTL, with no records call;
//   - any other lookup goes ahead on the context it came with: the readers'
//     budget the public guard (bot/public.go) lends every public request.
//
// docs/public-routes.md lists, per route, what it costs at most.
package publicgate

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/recordsbot/recordsbot/internal/cache"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/minutes"
)

// ErrNotFound is what the Gate answers for a lookup that can only fail:
// the caller answers 404 without reading anything.
var ErrNotFound = errors.New("publicgate: nothing by that name")

// MissTTL is how long an unheld lookup that found nothing is answered
// ErrNotFound from memory: as long as the minutes domain keeps a page
// that shows nothing (minutes.HiddenTTL), so a name that starts to exist
// is found as soon as its page would be.
const MissTTL = minutes.HiddenTTL

// Held is what the bot holds of the records, asked before any records
// call; *minutes.Service implements it.
type Held interface {
	KnownMeeting(ctx context.Context, id string) (minutes.Known, error)
	KnownCommittee(ctx context.Context, typed string) (minutes.Known, error)
	ArchiveCursor(committee, cursor string) bool
}

// Calendar is what the calendar holds in memory, asked first and without
// reading anything: the meetings of its window (a feed's subscribers keep
// it fresh, and a lookup it answers needs no list of the minutes
// domain's), and whether a private token may be one it made;
// *calendar.Service implements it.
type Calendar interface {
	HoldsMeeting(id string) bool
	HoldsCommittee(typed string) bool
	// HoldsWindow reports whether the calendar holds the meetings of its
	// window now: then what it does not hold is in no feed of its.
	HoldsWindow() bool
	TokenMayOpen(tok string) bool
}

// Config is the Gate's dependencies.
type Config struct {
	// Held answers what the bot holds. Required.
	Held Held
	// Calendar is asked first; nil: no calendar, and every private
	// token is ErrNotFound.
	Calendar Calendar
	// Unheld returns ctx with the budget for lookups of names the bot
	// does not hold (the unheld budget) in place of the readers' (bot's
	// publicGuard.unheldContext). Nil: ctx as it is (a site without a
	// public guard, such as a test's).
	Unheld func(ctx context.Context) context.Context
	// Metrics counts the lookups answered from memory
	// (PublicRefused("unknown")); nil counts nothing.
	Metrics *metrics.Set
	// Log gets a debug line per lookup refused; nil discards.
	Log *slog.Logger
	// Now is the clock of the misses kept. Default time.Now.
	Now func() time.Time
}

// Gate admits public lookups; see the package comment. Safe for
// concurrent use; build one with New and share it among every public
// route.
type Gate struct {
	cfg Config
	// misses are the unheld lookups that found nothing, by kind and name.
	misses *cache.TTL[struct{}]
}

// New returns the gate over cfg. It panics without cfg.Held: a wiring
// mistake.
func New(cfg Config) *Gate {
	if cfg.Held == nil {
		panic("publicgate.New: Config.Held is required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Gate{cfg: cfg, misses: cache.New[struct{}](MissTTL, cfg.Now)}
}

// Lookup is a lookup the Gate let through: read with its Context, and say
// Missed when it found nothing.
type Lookup struct {
	ctx context.Context
	g   *Gate
	// miss is the key an unheld lookup's miss is kept under; "" for a
	// lookup of something the bot holds.
	miss string
}

// Context is the context to read with: on the unheld budget for a
// lookup the bot cannot vouch for, else the one the lookup came with.
func (l Lookup) Context() context.Context { return l.ctx }

// Unheld reports whether the lookup is of a name the bot does not hold,
// and so reads on the unheld budget.
func (l Lookup) Unheld() bool { return l.miss != "" }

// Missed records that the lookup found nothing (the meeting, its minutes
// or the committee's are not there): an unheld lookup of the same name is
// then ErrNotFound for MissTTL. A lookup of something held records
// nothing: the domain's own caches keep what it found.
func (l Lookup) Missed() {
	if l.miss != "" {
		l.g.misses.Put(l.miss, struct{}{})
	}
}

// Meeting admits a lookup of meeting id (its ID or reference): ErrNotFound
// when the whole meetings list is held and has no such meeting, or an
// unheld lookup of it found nothing within MissTTL.
func (g *Gate) Meeting(ctx context.Context, id string) (Lookup, error) {
	if g.cfg.Calendar != nil && g.cfg.Calendar.HoldsMeeting(id) {
		return Lookup{ctx: ctx, g: g}, nil
	}
	known, err := g.cfg.Held.KnownMeeting(ctx, id)
	return g.admit(ctx, "meeting", "meeting\x00"+id, known, err)
}

// Committee admits a lookup of the committee typed names (a name or the
// start of one, minutes.MatchCommittee's rule; the caller resolves it
// among the committees it shows): ErrNotFound when the whole meetings
// list is held and no committee in it matches, or an unheld lookup of it
// found nothing within MissTTL.
func (g *Gate) Committee(ctx context.Context, typed string) (Lookup, error) {
	if g.cfg.Calendar != nil && g.cfg.Calendar.HoldsCommittee(typed) {
		return Lookup{ctx: ctx, g: g}, nil
	}
	known, err := g.cfg.Held.KnownCommittee(ctx, typed)
	return g.admit(ctx, "committee", "committee\x00"+minutes.CommitteeKey(typed), known, err)
}

// FeedMeeting admits a lookup of meeting id's one-event calendar: as
// Meeting, except that while the calendar holds its window, a meeting not
// in it is ErrNotFound at once, with no records call (the feed holds only
// the window's meetings, whatever older ones the records list).
func (g *Gate) FeedMeeting(ctx context.Context, id string) (Lookup, error) {
	if g.cfg.Calendar != nil && g.cfg.Calendar.HoldsWindow() && !g.cfg.Calendar.HoldsMeeting(id) {
		return g.refuse(ctx, "meeting")
	}
	return g.Meeting(ctx, id)
}

// FeedCommittee admits a lookup of the committee feed typed names: as
// Committee, except that while the calendar holds its window, a name no
// committee in it matches is ErrNotFound at once, with no records call
// (the feed of a committee without a meeting in the window is a 404,
// however many older meetings the records list).
func (g *Gate) FeedCommittee(ctx context.Context, typed string) (Lookup, error) {
	if g.cfg.Calendar != nil && g.cfg.Calendar.HoldsWindow() && !g.cfg.Calendar.HoldsCommittee(typed) {
		return g.refuse(ctx, "committee")
	}
	return g.Committee(ctx, typed)
}

// admit turns what the bot holds of a name into a Lookup or ErrNotFound.
func (g *Gate) admit(ctx context.Context, kind, key string, known minutes.Known, err error) (Lookup, error) {
	if err != nil {
		// Then KnownMaybe: the read itself says whether it is there, and
		// logs the outage if the records are down.
		g.cfg.Log.DebugContext(ctx, "public gate: meetings list unreadable", "kind", kind, "error", err)
	}
	switch known {
	case minutes.KnownYes:
		return Lookup{ctx: ctx, g: g}, nil
	case minutes.KnownNo:
		return g.refuse(ctx, kind)
	}
	if _, missed := g.misses.Peek(key); missed {
		return g.refuse(ctx, kind)
	}
	if g.cfg.Unheld != nil {
		ctx = g.cfg.Unheld(ctx)
	}
	return Lookup{ctx: ctx, g: g, miss: key}, nil
}

// Cursor admits an archive cursor for the list of committee ("" for all):
// ErrNotFound for one the archive did not make or no longer honours.
// Deciding costs nothing.
func (g *Gate) Cursor(ctx context.Context, committee, cursor string) error {
	if g.cfg.Held.ArchiveCursor(committee, cursor) {
		return nil
	}
	_, err := g.refuse(ctx, "cursor")
	return err
}

// Token admits a private calendar token: ErrNotFound for one the bot
// cannot have made (or when there are no private feeds). Deciding costs
// nothing; whether the token is still valid is the store's to say.
func (g *Gate) Token(ctx context.Context, tok string) error {
	if g.cfg.Calendar != nil && g.cfg.Calendar.TokenMayOpen(tok) {
		return nil
	}
	_, err := g.refuse(ctx, "token")
	return err
}

// refuse answers a lookup that can only fail.
func (g *Gate) refuse(ctx context.Context, kind string) (Lookup, error) {
	g.cfg.Metrics.PublicRefused("unknown")
	g.cfg.Log.DebugContext(ctx, "public gate: nothing by that name", "kind", kind)
	return Lookup{}, ErrNotFound
}
