// Package calendar is recordsbot's calendar domain: which meetings and
// deadlines the iCalendar feeds hold, the events' identities and
// revisions, and the private feed tokens. The HTTP side is
// bot/calendarfeed's; the iCalendar writing is internal/ical's.
//
// The public feeds (PUBLIC_CALENDAR) hold every committee's meetings from
// Window ago (90 days) on, everything upcoming included, or one
// committee's, named as the archive's ?committee= names it
// (minutes.MatchCommittee). The private feed holds one person's open and
// in-progress actions that have a deadline, through the actions domain's
// visibility rule.
//
// # Cost
//
// Calendar applications poll. Every feed is built at most once per
// CacheTTL (15 minutes) in a process, from one list of meetings read at
// most once per CacheTTL (a few pages, newest first, until the window's
// start) and the actions domain's shared action list: however many
// subscribers there are, the records service sees the same few calls an
// hour. A feed that cannot be rebuilt (records down) is served as it was
// for up to StaleFor.
//
// # Revisions
//
// An event's UID is its meeting's or action's ID and the bot's host, so
// it never changes. Its SEQUENCE is raised, and its DTSTAMP moved, when
// what a subscriber must be told of changes (the date, the title, the
// place): the store keeps a hash of that per UID (store.EventVersions),
// shared by every replica and kept across restarts. Without a store the
// versions are kept in memory, and start again at 0 after a restart.
package calendar

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/cache"
	"github.com/recordsbot/recordsbot/internal/ical"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/store"
)

// Defaults of Config.
const (
	// DefaultCacheTTL is how long a built feed and the meeting list are
	// reused: a subscriber polling hourly costs nothing most polls.
	DefaultCacheTTL = 15 * time.Minute
	// DefaultWindow is how far back the meeting feeds reach.
	DefaultWindow = 90 * 24 * time.Hour
	// StaleFor is how long a feed is still served, as it was, while the
	// records service cannot be read.
	StaleFor = time.Hour
	// RefreshInterval is the poll interval the feeds suggest to
	// subscribers.
	RefreshInterval = time.Hour
	// maxPages bounds the pages of meetings read for the window.
	maxPages = 20
)

// ErrNotFound is returned for a feed that does not exist: the public feeds
// when they are off, a committee no meeting in the window has (or a name
// that is a prefix of several), a meeting not in the window, a token that
// is not one.
var ErrNotFound = errors.New("no such calendar")

// Versions keeps the events' revisions; *store.Store implements it.
type Versions interface {
	EventVersions(ctx context.Context, fingerprints map[string]string) (map[string]store.EventVersion, error)
}

// Config is the calendar's behaviour. The zero value of a field means its
// documented default.
type Config struct {
	// Schedule is whose meetings the public feeds publish
	// (PUBLIC_CALENDAR: every committee, or those listed). The zero value
	// publishes none: ErrNotFound for every public feed. The private
	// feeds do not depend on it.
	Schedule publication.Schedule
	// PublicURL is the bot's public base URL (PUBLIC_URL): the feeds'
	// addresses start with it and the events' UIDs carry its host. Empty:
	// no addresses, and UIDs end in "@recordsbot".
	PublicURL string
	// OrgName names the calendars (ORG_NAME); empty: "recordsbot".
	OrgName string
	// Language is ORG_LANGUAGE: the feeds' own words (calendar names,
	// descriptions) for a public feed's reader who asks for no shipped
	// language, and for a private feed's owner whose Slack locale is not
	// shipped. The zero value is English.
	Language lang.Lang
	// Minutes is the minutes domain: the calendar reads the records'
	// meetings through it (Meetings), and links a meeting to its public
	// minutes page (PublishedPage: only a page that shows minutes).
	// Required.
	Minutes *minutes.Service
	// Versions keeps the events' revisions; nil: kept in memory.
	Versions Versions
	// CacheTTL is DefaultCacheTTL by default; Window DefaultWindow.
	CacheTTL, Window time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
}

// Feed is a built calendar.
type Feed struct {
	Body []byte
	// ETag is a strong entity tag of Body; Modified when Body was last
	// different.
	ETag     string
	Modified time.Time
}

// Service is the calendar domain. Safe for concurrent use; build one with
// New.
type Service struct {
	cfg      Config
	host     string
	meetings *cache.TTL[[]apiclient.Meeting]
	feeds    *cache.TTL[Feed]

	mu       sync.Mutex
	modified map[string]Feed // per feed key: the last body's tag and since when
	private  *Private        // nil until EnablePrivate
}

// New returns the calendar over cfg.Minutes; it panics without it (a
// wiring mistake, found by the first test that builds one).
func New(cfg Config) *Service {
	if cfg.Minutes == nil {
		panic("calendar.New: Config.Minutes is required")
	}
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = DefaultCacheTTL
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Versions == nil {
		cfg.Versions = newMemoryVersions(cfg.Now)
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	host := "recordsbot"
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		host = strings.ToLower(u.Hostname())
	}
	return &Service{
		cfg: cfg, host: host,
		meetings: cache.New[[]apiclient.Meeting](cfg.CacheTTL, cfg.Now).ServeStale(StaleFor),
		feeds:    cache.New[Feed](cfg.CacheTTL, cfg.Now).ServeStale(StaleFor),
		modified: map[string]Feed{},
	}
}

// Public reports whether the public meeting feeds are served.
func (s *Service) Public() bool { return s.cfg.Schedule.On() }

// CacheTTL is how long a built feed is reused (Config.CacheTTL): a feed
// may be kept downstream as long, and no longer.
func (s *Service) CacheTTL() time.Duration { return s.cfg.CacheTTL }

// Language is Config.Language, ORG_LANGUAGE: what a public feed's reader
// who asks for no shipped language reads.
func (s *Service) Language() lang.Lang { return s.cfg.Language }

// FeedURL is the address of the public feed of every committee, or of
// committee when it is not empty; "" when the feeds are off or PUBLIC_URL
// is not set.
func (s *Service) FeedURL(committee string) string {
	if !s.Public() || s.cfg.PublicURL == "" {
		return ""
	}
	if committee == "" {
		return s.cfg.PublicURL + "/calendar.ics"
	}
	return s.cfg.PublicURL + "/calendar/" + url.PathEscape(committee) + ".ics"
}

// MeetingURL is the address of the one-event calendar of meetingID (an
// "Add to calendar" link); "" when the public feeds are off or PUBLIC_URL
// is not set.
func (s *Service) MeetingURL(meetingID string) string {
	if !s.Public() || s.cfg.PublicURL == "" || meetingID == "" {
		return ""
	}
	return s.cfg.PublicURL + "/calendar/meeting/" + url.PathEscape(meetingID) + ".ics"
}

// AddURL is the "Add to calendar" address of m: its one-event calendar
// (MeetingURL) when the meeting is in the feeds' window and published
// (publication: its committee's schedule is, and the records do not
// withhold it); "" otherwise, or when the public feeds are off.
func (s *Service) AddURL(m *apiclient.Meeting) string {
	if s == nil || m == nil || m.Date.IsZero() || m.Date.Before(s.cfg.Now().Add(-s.cfg.Window)) || !s.cfg.Schedule.Publishes(m) {
		return ""
	}
	return s.MeetingURL(m.ID)
}

// Wait blocks until background refreshes are over (shutdown, tests): a
// feed's refresh may start the meeting list's.
func (s *Service) Wait() {
	s.feeds.Wait()
	s.meetings.Wait()
}

// Meetings returns the published meetings in the window
// (Schedule.Publishes), newest first as the records list them, read at
// most once per CacheTTL (and served up to StaleFor longer while the
// records cannot be read). Meetings without a date are left out: a
// calendar cannot place them.
func (s *Service) Meetings(ctx context.Context) ([]apiclient.Meeting, error) {
	return s.meetings.GetStale(ctx, "window", s.readMeetings)
}

// freshMeetings is Meetings for a feed's rebuild, which runs in the
// background while the old feed is served: it waits for a list within
// CacheTTL rather than rebuild from a stale one.
func (s *Service) freshMeetings(ctx context.Context) ([]apiclient.Meeting, error) {
	return s.meetings.Get(ctx, "window", s.readMeetings)
}

func (s *Service) readMeetings(ctx context.Context) ([]apiclient.Meeting, error) {
	from := s.cfg.Now().Add(-s.cfg.Window)
	var out []apiclient.Meeting
	next := ""
	for range maxPages {
		p, err := s.cfg.Minutes.Meetings(ctx, next)
		if err != nil {
			return nil, fmt.Errorf("list meetings: %w", err)
		}
		older := false
		for _, m := range p.Meetings {
			switch {
			case m.Date.IsZero():
			case m.Date.Before(from):
				older = true
			case !s.cfg.Schedule.Publishes(&m):
			default:
				m.Agenda, m.Raw = nil, nil
				out = append(out, m)
			}
		}
		if next = p.Next; next == "" || older {
			break
		}
	}
	return out, nil
}

// HoldsMeeting reports whether meeting id is among the meetings in the
// window the calendar holds now, reading nothing: the public gate
// (internal/publicgate) asks it before the minutes domain's own list.
func (s *Service) HoldsMeeting(id string) bool {
	ms, ok := s.meetings.Peek("window")
	return ok && slices.ContainsFunc(ms, func(m apiclient.Meeting) bool { return m.ID == id || m.Reference == id })
}

// HoldsCommittee reports whether typed is the name, or the start of the
// name, of a committee of the meetings in the window the calendar holds
// now, reading nothing (see HoldsMeeting).
func (s *Service) HoldsCommittee(typed string) bool {
	ms, ok := s.meetings.Peek("window")
	return ok && slices.ContainsFunc(ms, func(m apiclient.Meeting) bool { return minutes.CommitteeMatches(m.Committee, typed) })
}

// HoldsWindow reports whether the calendar holds the meetings of its
// window now (read within CacheTTL), reading nothing: then a meeting or
// committee HoldsMeeting or HoldsCommittee does not find is in no public
// feed, and the public gate answers its feed's lookup 404 at once.
func (s *Service) HoldsWindow() bool {
	_, ok := s.meetings.Peek("window")
	return ok
}

// Committees are the committees of the meetings in the window, each once
// (by minutes.CommitteeKey) as the records first spell it.
func committees(ms []apiclient.Meeting) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		k := minutes.CommitteeKey(m.Committee)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, strings.TrimSpace(m.Committee))
	}
	return out
}

// All is the public feed of every committee's meetings, its own words in
// l (each language is a feed built and kept apart; the events are the
// same). Errors: ErrNotFound when the feeds are off; the records
// service's, wrapped (apiclient.ErrOverBudget among them), when there is
// no feed to serve.
func (s *Service) All(ctx context.Context, l lang.Lang) (Feed, error) {
	if !s.Public() {
		return Feed{}, ErrNotFound
	}
	key := "all/" + l.Code()
	return s.feeds.GetStale(ctx, key, func(ctx context.Context) (Feed, error) {
		ms, err := s.freshMeetings(ctx)
		if err != nil {
			return Feed{}, err
		}
		return s.build(ctx, key, s.calendar(l, l.T("ical.meetings"), l.T("ical.meetings_about")), s.meetingEvents(ms, l))
	})
}

// Committee is the public feed of one committee's meetings, typed as a
// name or a unique prefix (minutes.MatchCommittee, the archive's rule).
// It also returns the committee as the records spell it. Its own words
// are in l. Errors: as All, and ErrNotFound for a committee no meeting in
// the window has, or a prefix of several.
func (s *Service) Committee(ctx context.Context, typed string, l lang.Lang) (Feed, string, error) {
	if !s.Public() || strings.TrimSpace(typed) == "" {
		return Feed{}, "", ErrNotFound
	}
	ms, err := s.Meetings(ctx)
	if err != nil {
		return Feed{}, "", err
	}
	name, _ := minutes.MatchCommittee(committees(ms), typed)
	if name == "" {
		return Feed{}, "", ErrNotFound
	}
	key := "committee/" + minutes.CommitteeKey(name) + "/" + l.Code()
	f, err := s.feeds.GetStale(ctx, key, func(ctx context.Context) (Feed, error) {
		ms, err := s.freshMeetings(ctx)
		if err != nil {
			return Feed{}, err
		}
		ms = slices.DeleteFunc(slices.Clone(ms), func(m apiclient.Meeting) bool {
			return minutes.CommitteeKey(m.Committee) != minutes.CommitteeKey(name)
		})
		return s.build(ctx, key, s.calendar(l, name, l.F("ical.committee_about", "committee", name)), s.meetingEvents(ms, l))
	})
	return f, name, err
}

// Meeting is the one-event calendar of a meeting in the window (an "Add
// to calendar" link), its own words in l. Errors: as All, and ErrNotFound
// for a meeting not in the window; an unknown ID costs no records call.
func (s *Service) Meeting(ctx context.Context, id string, l lang.Lang) (Feed, error) {
	if !s.Public() || id == "" {
		return Feed{}, ErrNotFound
	}
	ms, err := s.Meetings(ctx)
	if err != nil {
		return Feed{}, err
	}
	i := slices.IndexFunc(ms, func(m apiclient.Meeting) bool { return m.ID == id })
	if i < 0 {
		return Feed{}, ErrNotFound
	}
	key := "meeting/" + id + "/" + l.Code()
	return s.feeds.GetStale(ctx, key, func(ctx context.Context) (Feed, error) {
		ms, err := s.freshMeetings(ctx)
		if err != nil {
			return Feed{}, err
		}
		i := slices.IndexFunc(ms, func(m apiclient.Meeting) bool { return m.ID == id })
		if i < 0 {
			return Feed{}, ErrNotFound
		}
		m := ms[i]
		return s.build(ctx, key, s.calendar(l, m.Name(), ""), s.meetingEvents([]apiclient.Meeting{m}, l))
	})
}

// calendar is a calendar named name ("Finance", "Meetings") after the
// organisation, in l. PRODID's "//EN" is the language of the product
// identifier itself (RFC 5545 §3.7.3), not of the feed.
func (s *Service) calendar(l lang.Lang, name, description string) *ical.Calendar {
	org := s.cfg.OrgName
	if org == "" {
		org = "recordsbot"
	}
	return &ical.Calendar{
		ProdID:          "-//recordsbot//Calendar 1.0//EN",
		Name:            l.F("ical.name", "org", org, "name", name),
		Description:     description,
		RefreshInterval: RefreshInterval,
	}
}

// event is an event with the fingerprint of what its subscribers must be
// told of when it changes.
type event struct {
	ical.Event
	fingerprint string
}

// uid is a UID that never changes for kind/id on this bot.
func (s *Service) uid(kind, id string) string {
	return kind + "-" + url.PathEscape(id) + "@" + s.host
}

func (s *Service) meetingEvents(ms []apiclient.Meeting, l lang.Lang) []event {
	out := make([]event, 0, len(ms))
	// Oldest first, as people read a calendar file.
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		committee := strings.TrimSpace(m.Committee)
		summary := m.Name()
		if committee != "" && !strings.Contains(strings.ToLower(summary), minutes.CommitteeKey(committee)) {
			summary = committee + ": " + summary
		}
		var desc []string
		if m.Reference != "" && m.Reference != m.Name() {
			desc = append(desc, l.F("ical.reference", "reference", m.Reference))
		}
		// Only a page that exists: the meeting's minutes page when the
		// minutes domain knows it shows minutes; never an upcoming
		// meeting's, nor one whose minutes are not published.
		link := s.cfg.Minutes.PublishedPage(&m)
		if link != "" {
			desc = append(desc, l.F("ical.agenda_link", "url", link))
		}
		e := ical.Event{
			UID: s.uid("meeting", m.ID), Start: m.Date, AllDay: !m.DateHasTime,
			Summary: summary, Location: m.Location, Description: strings.Join(desc, "\n"), URL: link,
		}
		if committee != "" {
			e.Categories = []string{committee}
		}
		out = append(out, event{Event: e, fingerprint: fingerprint(m.Date.UTC().Format(time.RFC3339), fmt.Sprint(m.DateHasTime), summary, m.Location)})
	}
	return out
}

// fingerprint is a hash of the parts.
func fingerprint(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// build stamps events with their versions and encodes the calendar; key
// names the feed, for its Modified time.
func (s *Service) build(ctx context.Context, key string, cal *ical.Calendar, events []event) (Feed, error) {
	fps := make(map[string]string, len(events))
	for _, e := range events {
		fps[e.UID] = e.fingerprint
	}
	versions, err := s.cfg.Versions.EventVersions(ctx, fps)
	if err != nil {
		return Feed{}, fmt.Errorf("event versions: %w", err)
	}
	var newest time.Time
	for _, e := range events {
		v := versions[e.UID]
		e.Sequence, e.Stamp = v.Sequence, v.ChangedAt
		if e.Stamp.IsZero() {
			e.Stamp = s.cfg.Now()
		}
		if e.Stamp.After(newest) {
			newest = e.Stamp
		}
		cal.Events = append(cal.Events, e.Event)
	}
	body := cal.Encode()
	sum := sha256.Sum256(body)
	f := Feed{Body: body, ETag: `"` + hex.EncodeToString(sum[:16]) + `"`}
	// Modified is when this body was first built here (an event that left
	// the window changes the body but no event's stamp), and never before
	// the newest event's change.
	s.mu.Lock()
	defer s.mu.Unlock()
	f.Modified = s.cfg.Now()
	if was, ok := s.modified[key]; ok && was.ETag == f.ETag {
		f.Modified = was.Modified
	}
	if newest.After(f.Modified) {
		f.Modified = newest
	}
	f.Modified = f.Modified.Truncate(time.Second)
	s.modified[key] = Feed{ETag: f.ETag, Modified: f.Modified}
	return f, nil
}
