// Package minutes is recordsbot's minutes domain, beside package actions:
// which minutes may be shown (approved or published_draft, nothing else),
// getting them through a short shared cache, the latest per committee, how
// they read in Slack (the view), where they can be read in full (the
// public URL) and how a committee is named in the store (CommitteeKey).
// The bot, its public pages and the watcher all ask it, so each of these
// is decided once.
package minutes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/cache"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/store"
)

// Records is what the minutes domain needs of the records service;
// *apiclient.Client implements it.
type Records interface {
	ListMeetings(ctx context.Context, opts *apiclient.ListMeetingsOptions) (*apiclient.MeetingPage, error)
	GetMeeting(ctx context.Context, id string) (*apiclient.Meeting, error)
	GetMinutes(ctx context.Context, meetingID string) (*apiclient.Minutes, error)
}

// Config is the minutes domain's behaviour. The zero value of every field
// means its documented default.
type Config struct {
	// PublicURL is the bot's public base URL (PUBLIC_URL,
	// https://bot.example.org); a trailing slash is ignored. Empty: no
	// links to the bot's own pages.
	PublicURL string
	// Public serves the public minutes pages and links to them
	// (PUBLIC_MINUTES). Off: no pages, no links to them.
	Public bool
	// CacheTTL is how long a meeting with its minutes, and the latest
	// minutes per committee, are reused. Default 1 minute.
	CacheTTL time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// History keeps the versions of minutes read while visible (Record),
	// so pages and /minutes can say what approval changed; nil keeps
	// none.
	History History
	// CursorKey signs the archive's page cursors (CursorKey of
	// RECORDS_API_KEY, so replicas accept each other's). Empty: a random
	// key, so cursors hold within this process only.
	CursorKey []byte
	// Polls is the store's named states, where the watcher marks when
	// each poll began (RecheckState): no answer read before the last
	// poll is served again, so what a poll saw leaves every surface once
	// it has run. Nil: answers live for their cache's time.
	Polls States
	// Log hears what the domain goes on without: versions of minutes
	// History could not keep or read. Nil: discarded.
	Log *slog.Logger
}

// How long Get keeps an answer that shows no minutes. The public pages
// need no login, so anyone can ask for any ID: an unknown meeting, or one
// whose minutes are not published, is kept for HiddenTTL, and a burst of
// hits on it (or a crawler walking IDs twice) costs one lookup, not one
// per hit. The price: minutes published just now appear on their page
// (and in unfurls) within HiddenTTL. A records outage is kept for
// OutageTTL, so a burst during an outage is not multiplied by the
// client's retries.
const (
	HiddenTTL = 5 * time.Minute
	OutageTTL = 5 * time.Second
)

// Entry is a meeting with its visible minutes.
type Entry struct {
	Meeting *apiclient.Meeting
	// Minutes is nil when the meeting has none that may be shown.
	Minutes *apiclient.Minutes
	// Versions are the versions of these minutes the bot has kept, oldest
	// first (Config.History); nil when none are kept.
	Versions []store.MinutesVersion
}

// Service is the minutes domain. It is safe for concurrent use; build one
// with New and share it.
type Service struct {
	records   Records
	publicURL string
	public    bool
	now       func() time.Time
	ttl       time.Duration
	pages     *cache.TTL[Entry]
	latest    *cache.TTL[[]Entry]
	archive   *cache.TTL[ArchivePage]
	// listed is the minutes of meetings the archive lists, by meeting ID;
	// nil for none.
	listed *cache.TTL[*apiclient.Minutes]
	// known is the meeting IDs of the list's first pages (KnownMeeting).
	known *cache.TTL[knownList]
	// cursors makes and opens the archive's page cursors.
	cursors cursorSealer
	// recordURLs is the records' own minutes URLs seen (MeetingOfURL).
	recordURLs recordURLs
	// polls is Config.Polls; pollMark its RecheckState, read at most
	// once per pollMarkTTL.
	polls    States
	pollMark *cache.TTL[time.Time]
	// history keeps the versions of minutes (nil: none); comparisons
	// are computed once per pair of versions.
	history     History
	comparisons *cache.TTL[comparison]
	log         *slog.Logger
}

// pollMarkTTL is how long the last poll's mark is reused: a flood of
// public requests costs the store at most five reads a second, and a
// reader who searches the moment a poll ends already sees what it saw.
const pollMarkTTL = 200 * time.Millisecond

// New returns the minutes domain over r.
func New(r Records, cfg Config) *Service {
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{
		log:       cfg.Log,
		records:   r,
		publicURL: strings.TrimRight(cfg.PublicURL, "/"),
		public:    cfg.Public,
		now:       cfg.Now,
		ttl:       cfg.CacheTTL,
		cursors:   newCursorSealer(cfg.CursorKey),
		polls:     cfg.Polls,
		pollMark:  cache.New[time.Time](pollMarkTTL, cfg.Now),
		history:   cfg.History,
		// A pair of versions never changes: an hour is only how long an
		// unread comparison holds memory.
		comparisons: cache.New[comparison](time.Hour, cfg.Now),
		known:       cache.New[knownList](cfg.CacheTTL, cfg.Now).KeepFor(keepKnownFor),
		pages:       cache.New[Entry](cfg.CacheTTL, cfg.Now).KeepFor(keepFor),
		latest:      cache.New[[]Entry](cfg.CacheTTL, cfg.Now),
		archive:     cache.New[ArchivePage](cfg.CacheTTL, cfg.Now),
		listed: cache.New[*apiclient.Minutes](cfg.CacheTTL, cfg.Now).KeepFor(func(min *apiclient.Minutes, err error) time.Duration {
			return keepFor(Entry{Meeting: &apiclient.Meeting{}, Minutes: min}, err)
		}),
	}
}

// Records returns the records service the domain reads.
func (s *Service) Records() Records { return s.records }

// Meeting returns the meeting id (its ID or reference) as the records
// service has it now, for a person's request. Errors: the client's, one
// wrapping apiclient.ErrNotFound for a meeting it does not know.
func (s *Service) Meeting(ctx context.Context, id string) (*apiclient.Meeting, error) {
	return s.records.GetMeeting(ctx, id)
}

// MinutesOf returns a meeting's minutes as the records service has them
// now, uncached: for the watcher, which must see each publication and
// approval when it happens. Errors: the client's, one wrapping
// apiclient.ErrNotFound for a meeting with no minutes it may show.
func (s *Service) MinutesOf(ctx context.Context, meetingID string) (*apiclient.Minutes, error) {
	return s.records.GetMinutes(ctx, meetingID)
}

// Meetings returns one page of meetings, newest first, from next (a page
// token; "" for the first). Errors: the client's.
func (s *Service) Meetings(ctx context.Context, next string) (*apiclient.MeetingPage, error) {
	return s.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: next})
}

// Public reports whether the public minutes pages are served
// (PUBLIC_MINUTES).
func (s *Service) Public() bool { return s.public }

// PublicURL is the bot's public base URL without a trailing slash; empty
// when not configured.
func (s *Service) PublicURL() string { return s.publicURL }

// CacheTTL is how long the domain reuses what it read (Config.CacheTTL):
// a public answer built from it may be kept downstream as long, and no
// longer.
func (s *Service) CacheTTL() time.Duration { return s.ttl }

// Visible reports whether min may be shown to anyone: approved or a
// published draft. nil is not visible.
func Visible(min *apiclient.Minutes) bool { return min != nil && min.Status.Visible() }

// Read returns a meeting and its visible minutes from the records service,
// bypassing the cache: for a person's own click, which must see what the
// records say now. Minutes is nil (and err nil) when the meeting has no
// visible minutes. A meeting the records service does not know is an
// error wrapping apiclient.ErrNotFound; any other failure is wrapped as it
// came.
func (s *Service) Read(ctx context.Context, meetingID string) (Entry, error) {
	m, err := s.records.GetMeeting(ctx, meetingID)
	if err != nil {
		return Entry{}, fmt.Errorf("get meeting %s: %w", meetingID, err)
	}
	min, err := s.records.GetMinutes(ctx, m.ID)
	if errors.Is(err, apiclient.ErrNotFound) {
		return Entry{Meeting: m}, nil
	}
	if err != nil {
		return Entry{Meeting: m}, fmt.Errorf("get minutes %s: %w", m.ID, err)
	}
	// The client already refuses minutes in any other status; this is the
	// domain every surface asks, so check again rather than trust one
	// layer.
	if !Visible(min) {
		return Entry{Meeting: m}, nil
	}
	s.recordURLs.learn(min, m.ID)
	return Entry{Meeting: m, Minutes: min, Versions: s.record(ctx, m.ID, min)}, nil
}

// record keeps the version of min, meeting id's minutes just read, where
// they are read (Record), and returns the meeting's versions; nil without
// History. A version that cannot be kept does not hide the minutes: they
// are shown without their history, the failure is logged, and the next
// read (the watcher's, at the latest) keeps it.
func (s *Service) record(ctx context.Context, id string, min *apiclient.Minutes) []store.MinutesVersion {
	if s.history == nil {
		return nil
	}
	vs, err := Record(ctx, s.history, id, min)
	if err != nil {
		s.log.WarnContext(ctx, "minutes: version not kept", "meeting", id, "error", err)
		return nil
	}
	return vs
}

// Get is Read through the shared cache (CacheTTL), for what anyone may
// see: the public pages and the unfurls of one link shared in a busy
// channel cost one records call per TTL, not a burst. Concurrent misses
// for one meeting are one call (singleflight), and answers that show
// nothing are kept for HiddenTTL, outages for OutageTTL. The minutes of a
// meeting the records withhold from the public (publication.Withheld)
// are not shown: Minutes is nil.
func (s *Service) Get(ctx context.Context, meetingID string) (Entry, error) {
	return s.pages.GetSince(ctx, meetingID, s.lastPoll(ctx), func(ctx context.Context) (Entry, error) {
		e, err := s.Read(ctx, meetingID)
		if err == nil && publication.Withheld(e.Meeting) {
			e.Minutes = nil
		}
		return e, err
	})
}

// PublishedPage is the address of m's minutes page (PageURL) when the
// domain knows, without a records call, that the page shows minutes: the
// meeting is not withheld, and its visible minutes were read within the
// cache's time (by a page, an unfurl or the archive). "" otherwise: a
// public surface links only to a page that exists, and a page it cannot
// vouch for now is left unlinked rather than looked up for every meeting.
func (s *Service) PublishedPage(m *apiclient.Meeting) string {
	if m == nil || publication.Withheld(m) {
		return ""
	}
	page := s.PageURL(m.ID)
	if page == "" {
		return ""
	}
	if e, ok := s.pages.Peek(m.ID); ok && Visible(e.Minutes) && !publication.Withheld(e.Meeting) {
		return page
	}
	if min, ok := s.listed.Peek(m.ID); ok && Visible(min) {
		return page
	}
	return ""
}

// lastPoll is when the last watcher poll began (RecheckState), zero when
// not known (no Polls, no poll yet, the store unreadable: then answers live
// for their cache's time, and a store outage costs no extra records call).
func (s *Service) lastPoll(ctx context.Context) time.Time {
	if s.polls == nil {
		return time.Time{}
	}
	t, err := s.pollMark.Get(ctx, "", func(ctx context.Context) (time.Time, error) {
		v, ok, err := s.polls.GetState(ctx, RecheckState)
		if err != nil || !ok {
			return time.Time{}, nil
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return time.Time{}, nil
		}
		return t, nil
	})
	if err != nil {
		// The load fails nothing, so this is the caller's context ending:
		// its own read ends the same way.
		return time.Time{}
	}
	return t
}

// keepFor is how long Get keeps a lookup's answer; see HiddenTTL.
func keepFor(e Entry, err error) time.Duration {
	switch {
	case errors.Is(err, apiclient.ErrNotFound), err == nil && e.Minutes == nil:
		return HiddenTTL
	case errors.Is(err, apiclient.ErrUnavailable), errors.Is(err, apiclient.ErrRateLimited):
		return OutageTTL
	}
	return 0
}

// keepKnownFor is how long a failed read of the meetings list KnownMeeting
// holds is kept: OutageTTL when the records could not be read just now
// (down, rate-limited, the public budget spent), so a flood of lookups
// during an outage reads it once, not once per request; else not at all.
func keepKnownFor(_ knownList, err error) time.Duration {
	if errors.Is(err, apiclient.ErrUnavailable) || errors.Is(err, apiclient.ErrRateLimited) || errors.Is(err, apiclient.ErrOverBudget) {
		return OutageTTL
	}
	return 0
}

// PageURL is the bot's public page of a meeting's minutes,
// PublicURL/minutes/{id}; empty when the pages are off or PublicURL is
// not set.
func (s *Service) PageURL(meetingID string) string {
	if !s.public || s.publicURL == "" || meetingID == "" {
		return ""
	}
	return s.publicURL + "/minutes/" + url.PathEscape(meetingID)
}

// ChangesURL is the public page comparing versions from and to of a
// meeting's minutes (PageURL?changes=from-to); empty when the pages are
// off.
func (s *Service) ChangesURL(meetingID string, from, to int) string {
	u := s.PageURL(meetingID)
	if u == "" {
		return ""
	}
	return u + "?changes=" + strconv.Itoa(from) + "-" + strconv.Itoa(to)
}

// URL is the one rule for which link a reader gets to a meeting's full
// minutes, on every surface (a /minutes view, a search result, an
// announcement, the digest, the brief; the public pages link to
// themselves): the bot's own page (PageURL) when it serves them, else the
// record's own URL, else "" (no link).
//
// The bot's page comes first because it is the one link known to work for
// whoever reads it: it shows exactly the minutes Visible allows, with the
// draft label, to anyone the link is shared with, and doctor checks it is
// reachable; a record's URL may sit behind the records service's login,
// show another version, or not answer at all (a sandbox's example.org).
// With PUBLIC_MINUTES=false the bot serves no page, and the record's URL
// is the only one there is.
func (s *Service) URL(meetingID string, min *apiclient.Minutes) string {
	if page := s.PageURL(meetingID); page != "" {
		return page
	}
	if min != nil {
		return min.URL
	}
	return ""
}

// PageID returns the meeting ID of a link to one of the bot's own minutes
// pages (PublicURL/minutes/{id}, the host compared ignoring case); ok is
// false for any other link, and always when PublicURL is not set.
func (s *Service) PageID(link string) (id string, ok bool) {
	if s.publicURL == "" {
		return "", false
	}
	u, err := url.Parse(link)
	if err != nil {
		return "", false
	}
	base, err := url.Parse(s.publicURL)
	if err != nil || !strings.EqualFold(u.Host, base.Host) {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.EscapedPath(), strings.TrimRight(base.EscapedPath(), "/")+"/minutes/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	id, err = url.PathUnescape(rest)
	return id, err == nil && id != ""
}

// CommitteeKey is how the store names a committee (a follow's key, the
// announcements' grouping, the Home tab's one row per committee): the
// name as the records spell it, trimmed and lowercased, so "Finance",
// "finance" and " Finance " are one committee. It is the search index's
// own key (store.CommitteeKey), so a follow and the index agree.
func CommitteeKey(name string) string { return store.CommitteeKey(name) }

// CommitteeMatches reports whether committee is what a person typed:
// case-insensitive, space around either ignored, and a prefix is enough
// ("fin" finds "Finance"). Nothing typed matches every committee.
func CommitteeMatches(committee, typed string) bool {
	return strings.HasPrefix(CommitteeKey(committee), CommitteeKey(typed))
}

// MatchCommittee picks typed among names, the one rule for every place a
// person names a committee (/minutes follow, the public archive and its
// feed): an exact match by CommitteeKey, else the one name it is a prefix
// of (CommitteeMatches). When it is a prefix of several, they are
// returned, in names' order, as ambiguous and name is ""; when of none,
// both are empty.
func MatchCommittee(names []string, typed string) (name string, ambiguous []string) {
	for _, n := range names {
		if CommitteeKey(n) == CommitteeKey(typed) {
			return n, nil
		}
	}
	for _, n := range names {
		if CommitteeMatches(n, typed) {
			ambiguous = append(ambiguous, n)
		}
	}
	if len(ambiguous) == 1 {
		return ambiguous[0], nil
	}
	return "", ambiguous
}
