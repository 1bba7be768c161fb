// Package follows is the follow domain: which channels follow which
// committees, what a channel hears of each, when its weekly digest comes,
// in which language its posts are written, and who may change any of it.
// Each rule exists once, here, for every surface that asks: the slash
// commands and checkboxes of /minutes follow, unfollow and following
// (package bot, which only parses what people type and click and draws the
// answer with package blocks) and the watcher's announcements, digests and
// briefs (package watch).
//
// The package imports no Slack package, not even through another domain:
// who asks is a [Changer] the edge fills in, what is kept is the store's,
// what is answered are plain values whose words the edge chooses.
package follows

import (
	"errors"
	"time"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// Settings are the organisation's follow settings as configured, shared
// by everything that applies them (the bot and the watcher): one value,
// read once from the environment. The zero value lets any member change a
// follow, hears everything and has the digest at [DefaultDigest], as the
// settings' own defaults do.
type Settings struct {
	// AdminsOnly is FOLLOW_ADMINS_ONLY: only admins change follows.
	AdminsOnly bool
	// Defaults is FOLLOW_DEFAULTS: what a follow hears until its channel
	// chooses.
	Defaults store.FollowDefaults
	// Digest is DIGEST_DEFAULT, the weekly digest's slot for a follow
	// that chose none; nil is DefaultDigest, DIGEST_DEFAULT's own default.
	// Off means no digest unless the channel chooses a time.
	Digest *clocktime.Weekly
}

// Rules are the organisation's rules for follows: its [Settings] in its
// language. Build them with [NewRules]; the zero value is the zero
// Settings in English.
type Rules struct {
	Settings
	// OrgLanguage is ORG_LANGUAGE: what a channel's posts are written in
	// unless its follow chose a language.
	OrgLanguage lang.Lang
}

// NewRules are the rules of s for an organisation writing in org
// (ORG_LANGUAGE): the one way the bot and the watcher build them, so the
// zero value of each setting means the same to both.
func NewRules(s Settings, org lang.Lang) Rules {
	return Rules{Settings: s, OrgLanguage: org}
}

// DefaultDigest is DIGEST_DEFAULT's default, Monday at 09:00: the slot a
// digest comes at when neither the channel nor the organisation chose one.
var DefaultDigest = clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}

// Why a change of a follow is refused, from [Rules.MayChange]. Each is a
// short human message at the edge.
var (
	// ErrAdminsOnly: FOLLOW_ADMINS_ONLY and the person is not an admin.
	ErrAdminsOnly = errors.New("only admins may change follows")
	// ErrProfileUnknown: Slack could not say who the person is, so
	// whether they are a guest is unknown.
	ErrProfileUnknown = errors.New("profile unknown")
	// ErrGuest: Slack guests do not change what a channel hears.
	ErrGuest = errors.New("guests may not change follows")
)

// Changer is who asks to change a follow, as the edge knows them.
type Changer struct {
	// Admin is whether they hold admin powers (actions.Service.Admin:
	// listed in ADMIN_USER_IDS, not a guest, profile read).
	Admin bool
	// Guest is whether Slack says they are a guest (users.info's
	// is_restricted or is_ultra_restricted); ProfileErr why Slack could
	// not say, in which case Guest is unknown.
	Guest      bool
	ProfileErr error
}

// MayChange is the one rule for who may change a follow (follow, unfollow,
// choose what it hears, its digest, its language): anyone, or only admins
// with AdminsOnly; never a guest, since a follow posts to everyone in the
// channel from then on, which is a member's decision; and nobody whose
// profile Slack could not give, since they might be a guest. The checks
// run in that order, so an admins-only refusal does not depend on Slack
// answering. It returns nil, ErrAdminsOnly, ErrProfileUnknown (wrapping
// ProfileErr) or ErrGuest.
func (r Rules) MayChange(c Changer) error {
	switch {
	case r.AdminsOnly && !c.Admin:
		return ErrAdminsOnly
	case c.ProfileErr != nil:
		return errors.Join(ErrProfileUnknown, c.ProfileErr)
	case c.Guest:
		return ErrGuest
	}
	return nil
}

// Hears reports whether the channel of f hears what (store.HearDrafts,
// …): its own choice where it made one, FOLLOW_DEFAULTS elsewhere. For the
// weekly digest, which also needs a slot, see HearsDigest.
func (r Rules) Hears(f store.Follow, what string) bool {
	return r.Defaults.Hears(f.Choices, what)
}

// HearsDigest reports whether the channel of f gets its weekly digest,
// d being the follow's digest row: its Weekly digest box is ticked and
// its schedule (Schedule) has a slot. One switch: the box /minutes
// following shows is ticked exactly when the watcher will post.
func (r Rules) HearsDigest(f store.Follow, d store.Digest) bool {
	return r.Hears(f, store.HearDigest) && r.Schedule(d).On
}

// Schedule is when a follow's digest comes: the channel's own day and
// time when it chose one, else the organisation's (Usual). An off
// schedule of the channel's own is how `digest off` was kept before the
// Weekly digest box was its switch.
func (r Rules) Schedule(d store.Digest) clocktime.Weekly {
	if d.Schedule != nil {
		return *d.Schedule
	}
	return r.Usual()
}

// Usual is the organisation's digest slot: DIGEST_DEFAULT, or
// DefaultDigest when it is not said.
func (r Rules) Usual() clocktime.Weekly {
	if r.Digest != nil {
		return *r.Digest
	}
	return DefaultDigest
}

// Language is what the channel of f reads its posts in (announcements,
// digests, briefs, the follow's own confirmations): the follow's language
// when it chose one that is shipped, else ORG_LANGUAGE.
func (r Rules) Language(f store.Follow) lang.Lang {
	l, ok := ownLanguage(f)
	if !ok {
		return r.OrgLanguage
	}
	return l
}

// ownLanguage is the language f chose, when it chose one that is
// shipped; ok is false when its posts are in ORG_LANGUAGE.
func ownLanguage(f store.Follow) (l lang.Lang, ok bool) {
	if f.Language == "" {
		return l, false
	}
	l, err := lang.Parse(f.Language)
	return l, err == nil
}
