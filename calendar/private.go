package calendar

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/ical"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// The private deadline feed: GET /calendar/u/{token}.ics.
//
// A token is 52 characters of lowercase base32 (32 bytes): 26 bytes made
// from the person and a random salt with the bot's key (HMAC-SHA256), then
// a 6-byte tag over those with the same key. The store keeps the salt and
// the token's SHA-256, never the token: the Home tab makes the token again
// from the salt to show it, and a request finds its person by the hash. A
// reset is a new salt; the old token's hash then matches nobody, at once.
// A made-up token fails its tag before the store is asked; a token of the
// wrong length or alphabet fails before that.

// TokenLen is the length of a private feed token.
const TokenLen = 52

const (
	tokenBody = 26
	tokenTag  = 6
)

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Tokens keeps the private feeds' tokens; *store.Store implements it.
type Tokens interface {
	CalendarToken(ctx context.Context, userID string) (store.CalendarToken, bool, error)
	AddCalendarToken(ctx context.Context, tok store.CalendarToken) (store.CalendarToken, error)
	ReplaceCalendarToken(ctx context.Context, tok store.CalendarToken) (store.CalendarToken, error)
	CalendarTokenUser(ctx context.Context, hash string) (userID string, ok bool, err error)
}

// Actions is what the private feed needs of the actions domain;
// *actions.Service implements it.
type Actions interface {
	Who(ctx context.Context, id string) (actions.Member, error)
	ListWithin(ctx context.Context, maxAge time.Duration) (*apiclient.ActionList, error)
	Assigned(list *apiclient.ActionList, m actions.Member) []*apiclient.Action
	Visible(viewer actions.Member, list []*apiclient.Action) []*apiclient.Action
	Zone() *time.Location
	ReaderLanguage(locale string) lang.Lang
}

// ErrPrivateOff is returned by the private feed's methods when the bot has
// no store, no key or no PUBLIC_URL to make private feeds with.
var ErrPrivateOff = errors.New("private calendars are not available")

// Private are what the private feeds need; all three or none.
type Private struct {
	// Key makes and checks the tokens; serve derives it from the Slack
	// signing secret. Changing it changes every private URL (the Home tab
	// shows the new one; the old ones stop).
	Key     []byte
	Tokens  Tokens
	Actions Actions
}

// EnablePrivate turns the private deadline feeds on; call it before the
// service is shared. It does nothing unless p has all three and PublicURL
// is set.
func (s *Service) EnablePrivate(p Private) {
	if len(p.Key) == 0 || p.Tokens == nil || p.Actions == nil || s.cfg.PublicURL == "" {
		return
	}
	s.private = &p
}

// PrivateOn reports whether the private feeds are available.
func (s *Service) PrivateOn() bool { return s.private != nil }

// token makes the token of user with salt.
func (p *Private) token(user, salt string) string {
	m := hmac.New(sha256.New, p.Key)
	m.Write([]byte("calendar token\x00" + user + "\x00" + salt))
	body := m.Sum(nil)[:tokenBody]
	return tokenEncoding.EncodeToString(append(body, p.tag(body)...))
}

func (p *Private) tag(body []byte) []byte {
	m := hmac.New(sha256.New, p.Key)
	m.Write([]byte("calendar tag\x00"))
	m.Write(body)
	return m.Sum(nil)[:tokenTag]
}

// check reports whether tok is a token this bot made: the right length
// and alphabet and its tag right. Nothing is read to tell.
func (p *Private) check(tok string) bool {
	if len(tok) != TokenLen {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	raw, err := tokenEncoding.DecodeString(tok)
	if err != nil || len(raw) != tokenBody+tokenTag {
		return false
	}
	return hmac.Equal(raw[tokenBody:], p.tag(raw[:tokenBody]))
}

// TokenMayOpen reports whether tok could open a private feed: the private
// feeds are on and tok is a token this bot made (its length, alphabet and
// tag). Nothing is read to tell, so the public gate asks it before any
// store lookup; Deadlines checks the same again.
func (s *Service) TokenMayOpen(tok string) bool {
	return s.private != nil && s.private.check(tok)
}

func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

func newSalt() string { return rand.Text() }

// PrivateURL is user's private feed address; ok is false when they have
// none yet (EnsurePrivateURL makes one). Errors: ErrPrivateOff; the
// store's.
func (s *Service) PrivateURL(ctx context.Context, user string) (u string, ok bool, err error) {
	p := s.private
	if p == nil {
		return "", false, ErrPrivateOff
	}
	tok, ok, err := p.Tokens.CalendarToken(ctx, user)
	if err != nil {
		return "", false, fmt.Errorf("calendar token: %w", err)
	}
	if !ok {
		return "", false, nil
	}
	if u, err = s.currentURL(ctx, user, tok); err != nil {
		return "", false, err
	}
	return u, true, nil
}

// EnsurePrivateURL is user's private feed address, made on first use.
// Errors: ErrPrivateOff; the store's.
func (s *Service) EnsurePrivateURL(ctx context.Context, user string) (string, error) {
	u, ok, err := s.PrivateURL(ctx, user)
	if err != nil || ok {
		return u, err
	}
	p := s.private
	salt := newSalt()
	tok, err := p.Tokens.AddCalendarToken(ctx, store.CalendarToken{UserID: user, Salt: salt, Hash: tokenHash(p.token(user, salt))})
	if err != nil {
		return "", fmt.Errorf("save calendar token: %w", err)
	}
	return s.currentURL(ctx, user, tok)
}

// currentURL is the address tok opens, made again when the key changed
// since tok was made: the URL shown is the one that works from now on.
func (s *Service) currentURL(ctx context.Context, user string, tok store.CalendarToken) (string, error) {
	p := s.private
	t := p.token(user, tok.Salt)
	if tokenHash(t) != tok.Hash {
		if _, err := p.Tokens.ReplaceCalendarToken(ctx, store.CalendarToken{UserID: user, Salt: tok.Salt, Hash: tokenHash(t)}); err != nil {
			return "", fmt.Errorf("save calendar token: %w", err)
		}
	}
	return s.privateURL(t), nil
}

// ResetPrivateURL gives user a new private feed address; the old one
// answers ErrNotFound from when this returns. Errors: ErrPrivateOff; the
// store's.
func (s *Service) ResetPrivateURL(ctx context.Context, user string) (string, error) {
	p := s.private
	if p == nil {
		return "", ErrPrivateOff
	}
	salt := newSalt()
	t := p.token(user, salt)
	if _, err := p.Tokens.ReplaceCalendarToken(ctx, store.CalendarToken{UserID: user, Salt: salt, Hash: tokenHash(t)}); err != nil {
		return "", fmt.Errorf("reset calendar token: %w", err)
	}
	return s.privateURL(t), nil
}

func (s *Service) privateURL(tok string) string {
	return s.cfg.PublicURL + "/calendar/u/" + tok + ".ics"
}

// Deadlines is the private feed the token opens: its owner's open and
// in-progress actions with a deadline, as the actions domain lets them see
// them (their own; a guest only theirs), an all-day event for a date-only
// deadline. Errors: ErrNotFound for a token that is not one (decided
// without the store unless it carries this bot's tag) or was reset;
// ErrPrivateOff; the store's, Slack's and the records service's, wrapped.
func (s *Service) Deadlines(ctx context.Context, tok string) (Feed, error) {
	p := s.private
	if p == nil {
		return Feed{}, ErrNotFound
	}
	if !p.check(tok) {
		return Feed{}, ErrNotFound
	}
	user, ok, err := p.Tokens.CalendarTokenUser(ctx, tokenHash(tok))
	if err != nil {
		return Feed{}, fmt.Errorf("calendar token: %w", err)
	}
	if !ok {
		return Feed{}, ErrNotFound
	}
	key := "user/" + user
	return s.feeds.GetStale(ctx, key, func(ctx context.Context) (Feed, error) {
		me, err := p.Actions.Who(ctx, user)
		if err != nil {
			return Feed{}, fmt.Errorf("who is %s: %w", user, err)
		}
		list, err := s.actionList(ctx)
		if err != nil {
			return Feed{}, err
		}
		var dated []*apiclient.Action
		for _, a := range p.Actions.Visible(me, p.Actions.Assigned(list, me)) {
			if actions.StillToDo(a.Status) && !a.Deadline.IsZero() {
				dated = append(dated, a)
			}
		}
		slices.SortStableFunc(dated, func(a, b *apiclient.Action) int {
			return actions.DeadlineAt(a, p.Actions.Zone()).Compare(actions.DeadlineAt(b, p.Actions.Zone()))
		})
		// The owner's language: a calendar application sends no
		// Accept-Language of theirs.
		l := p.Actions.ReaderLanguage(me.Locale)
		return s.build(ctx, key, s.calendar(l, l.T("ical.deadlines"), l.T("ical.deadlines_about")), s.actionEvents(dated, l))
	})
}

// actionList is the actions still to do, for every private feed: the
// actions domain's shared list, accepted up to CacheTTL old, so a hundred
// people's feeds rebuilt in a quarter of an hour cost one list, not a
// hundred (ACTIONS_CACHE_TTL is seconds), with no copy kept here.
func (s *Service) actionList(ctx context.Context) (*apiclient.ActionList, error) {
	list, err := s.private.Actions.ListWithin(ctx, s.cfg.CacheTTL)
	if err != nil {
		return nil, fmt.Errorf("list actions: %w", err)
	}
	return list, nil
}

func (s *Service) actionEvents(as []*apiclient.Action, l lang.Lang) []event {
	out := make([]event, 0, len(as))
	for _, a := range as {
		title := strings.TrimSpace(a.Title)
		// What subscribers are told of is the record's change, not the
		// owner's language: the fingerprint is of the English summary,
		// as it was before the feeds were translated, so a locale change
		// or this release raises no SEQUENCE.
		fingerprinted := "Due: " + title
		if title == "" {
			fingerprinted = "Due: Action " + a.ID
			title = l.F("ical.untitled_action", "id", a.ID)
		}
		var desc []string
		if c := strings.TrimSpace(a.Committee); c != "" {
			desc = append(desc, l.F("ical.committee", "committee", c))
		}
		if t := strings.TrimSpace(a.MeetingTitle); t != "" {
			desc = append(desc, l.F("ical.from_meeting", "title", t))
		}
		desc = append(desc, l.F("ical.status", "status", statusWord(l, a.Status)), l.T("ical.mark_done"))
		var link string
		if s.cfg.Minutes != nil && a.MeetingID != "" {
			link = s.cfg.Minutes.PageURL(a.MeetingID)
		}
		if link != "" {
			desc = append(desc, l.F("ical.minutes_link", "url", link))
		}
		e := ical.Event{
			UID: s.uid("action", a.ID), Start: a.Deadline, AllDay: !a.DeadlineHasTime,
			Summary: l.F("ical.due", "title", title), Description: strings.Join(desc, "\n"), URL: link,
		}
		out = append(out, event{Event: e, fingerprint: fingerprint(a.Deadline.UTC().Format(time.RFC3339), fmt.Sprint(a.DeadlineHasTime), fingerprinted)})
	}
	return out
}

// statusWord is an action's status as l's rows show it ("In progress"),
// or as the records spell it when it is none recordsbot knows.
func statusWord(l lang.Lang, st apiclient.Status) string {
	switch st {
	case apiclient.StatusOpen:
		return l.T("status.open")
	case apiclient.StatusInProgress:
		return l.T("status.in_progress")
	}
	return string(st)
}
