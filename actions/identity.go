package actions

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/cache"
)

// UserMap is USER_MAP: records assignees (an email, name or ID, compared
// case-insensitively) that are a given Slack user, for people whose
// records identity is not their Slack email. It is the one place that
// matching is done, both ways: who a Slack user is in the records
// (Member.Owns) and which Slack user an assignee is (SlackID).
type UserMap struct {
	toSlack map[string]string   // lowercased assignee -> Slack ID
	aliases map[string][]string // Slack ID -> assignees
}

// NewUserMap builds a UserMap from assignee → Slack user ID pairs.
func NewUserMap(m map[string]string) UserMap {
	um := UserMap{toSlack: map[string]string{}, aliases: map[string][]string{}}
	for assignee, id := range m {
		k := strings.ToLower(strings.TrimSpace(assignee))
		if k == "" || id == "" {
			continue
		}
		um.toSlack[k] = id
		um.aliases[id] = append(um.aliases[id], k)
	}
	return um
}

// SlackID returns the Slack user USER_MAP names for assignee p, if any.
func (um UserMap) SlackID(p apiclient.Person) (string, bool) {
	for _, k := range []string{p.Email, p.Name, p.ID, p.SlackID} {
		if id, ok := um.toSlack[strings.ToLower(k)]; ok && k != "" {
			return id, true
		}
	}
	return "", false
}

// Member is a Slack user as recordsbot matches them to assignees.
type Member struct {
	ID    string
	Email string // from the Slack profile; empty without users:read.email
	Name  string
	// Zone is the user's own time zone (their Slack profile's tz); nil when
	// unknown, which means the organisation's.
	Zone *time.Location
	// Guest is true for a Slack guest: users.info's is_restricted (a
	// multi-channel guest) or is_ultra_restricted (a single-channel one),
	// https://api.slack.com/types/user. Guests see only their own actions
	// (CanSeeOthers) and cannot make a channel follow a committee.
	Guest bool
	// Locale is the user's Slack display language, an IETF tag such as
	// "fr-FR" (users.info's locale; slack-go asks with include_locale=true
	// by default). Empty when unknown. lang.ForLocale turns it into the
	// language recordsbot writes to them in.
	Locale string
	// aliases are the USER_MAP assignees that point at this user.
	aliases []string
	// profiled is true once Slack has said who the user is; without it
	// Guest is unknown, not false.
	profiled bool
}

// Equal reports whether m and o are the same user as recordsbot sees
// them, field for field (a zone by identity: the profile cache hands out
// the *time.Location it loaded). What is drawn for a Member may be reused
// for an Equal one, so a field added to Member must be compared here
// (TestMemberEqualComparesEveryField fails until it is).
func (m Member) Equal(o Member) bool {
	return m.ID == o.ID && m.Email == o.Email && m.Name == o.Name && m.Zone == o.Zone && m.Guest == o.Guest && m.Locale == o.Locale &&
		m.profiled == o.profiled && slices.Equal(m.aliases, o.aliases)
}

// Profiled reports whether Slack said who the user is (users.info
// answered), so that Guest and Email can be trusted.
func (m Member) Profiled() bool { return m.profiled }

// Mapped reports whether there is any way to match this user to
// assignees beyond their Slack ID.
func (m Member) Mapped() bool { return m.Email != "" || len(m.aliases) > 0 }

// RecordsName is who m is in the records, as the audit trail names them:
// their email, else the first USER_MAP name that points at them; "" when
// neither is known.
func (m Member) RecordsName() string {
	if m.Email != "" || len(m.aliases) == 0 {
		return m.Email
	}
	return m.aliases[0]
}

// Owns reports whether assignee p is this user: by Slack ID, by email, or
// through USER_MAP.
func (m Member) Owns(p apiclient.Person) bool {
	if m.ID != "" && (p.SlackID == m.ID || p.ID == m.ID) {
		return true
	}
	if m.Email != "" && p.Email != "" && strings.EqualFold(p.Email, m.Email) {
		return true
	}
	for _, k := range m.aliases {
		if strings.EqualFold(p.Email, k) || strings.EqualFold(p.Name, k) || strings.EqualFold(p.ID, k) || strings.EqualFold(p.SlackID, k) {
			return true
		}
	}
	return false
}

// Profile is what Slack says of a user, as far as the action domain needs
// it: the fields of a user object (https://api.slack.com/types/user) that
// match them to assignees and say how to write to them. The domain knows
// nothing else of Slack; internal/slackapi/slackusers reads these from the
// Web API.
type Profile struct {
	ID    string
	Email string // profile.email; empty without users:read.email
	// Name is the user's real name, else their handle.
	Name string
	// TZ is the user's IANA time zone ("Europe/Paris"), "" when unknown.
	TZ string
	// Locale is the user's display language ("fr-FR"), "" when Slack did
	// not say.
	Locale string
	// Guest is a multi- or single-channel guest (is_restricted,
	// is_ultra_restricted).
	Guest bool
	// Gone is a deactivated member or a bot: it matches no assignee.
	Gone bool
}

// zone is p's time zone, or nil when unknown or not one Go knows.
func (p Profile) zone() *time.Location {
	if p.TZ == "" {
		return nil
	}
	loc, err := time.LoadLocation(p.TZ)
	if err != nil {
		return nil // an unknown zone is no zone: the organisation's applies
	}
	return loc
}

// Directory tells who a Slack user is (users.info); the adapter in
// internal/slackapi/slackusers implements it over the Web API.
type Directory interface {
	Profile(ctx context.Context, user string) (Profile, error)
}

// directory resolves Slack users to Members through the Directory (cached)
// and USER_MAP.
type directory struct {
	users    Directory
	userMap  UserMap
	profiles *cache.TTL[Member]
}

func newDirectory(d Directory, um UserMap, ttl time.Duration, now func() time.Time) *directory {
	return &directory{users: d, userMap: um, profiles: cache.New[Member](ttl, now)}
}

// who returns Slack user id as a Member. When Slack cannot be asked, the
// Member still carries the ID and the USER_MAP aliases, and the error says
// why the email is missing.
func (d *directory) who(ctx context.Context, id string) (Member, error) {
	return d.profiles.Get(ctx, id, func(ctx context.Context) (Member, error) {
		m := Member{ID: id, aliases: d.userMap.aliases[id]}
		p, err := d.users.Profile(ctx, id)
		if err != nil {
			return m, fmt.Errorf("users.info %s: %w", id, err)
		}
		m.profiled = true
		m.Email = p.Email
		m.Guest = p.Guest
		m.Locale = p.Locale
		m.Zone = p.zone()
		m.Name = p.Name
		return m, nil
	})
}
