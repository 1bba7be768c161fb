package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// What a channel can hear of a committee it follows.
const (
	HearDrafts    = "drafts"    // minutes published as a draft
	HearApprovals = "approvals" // minutes approved (a draft's post updated, with a thread reply)
	HearDigest    = "digest"    // the weekly digest
	HearBriefs    = "briefs"    // the pre-meeting brief
)

// Hearable returns what a follow can hear, in the order it is shown, a new
// slice each call.
func Hearable() []string { return slices.Clone(hearable) }

var hearable = []string{HearDrafts, HearApprovals, HearDigest, HearBriefs}

// FollowChoices are a follow's own choices of what its channel hears; nil
// is the organisation's default.
type FollowChoices struct {
	Drafts, Approvals, Digest, Briefs *bool
}

// field is the choice named what.
func (c *FollowChoices) field(what string) **bool {
	switch what {
	case HearDrafts:
		return &c.Drafts
	case HearApprovals:
		return &c.Approvals
	case HearDigest:
		return &c.Digest
	case HearBriefs:
		return &c.Briefs
	}
	return nil
}

// FollowDefaults are what a follow hears when its channel has not chosen
// (FOLLOW_DEFAULTS). The zero value hears everything.
type FollowDefaults struct {
	Off []string // the Hearable names off by default
}

// ParseFollowDefaults reads FOLLOW_DEFAULTS: the comma-separated names a
// new follow hears (of Hearable); "" means all. Errors name the unknown
// word.
func ParseFollowDefaults(s string) (FollowDefaults, error) {
	if strings.TrimSpace(s) == "" {
		return FollowDefaults{}, nil
	}
	on := map[string]bool{}
	for _, w := range strings.Split(s, ",") {
		w = strings.ToLower(strings.TrimSpace(w))
		if w == "" {
			continue
		}
		if !slices.Contains(hearable, w) {
			return FollowDefaults{}, fmt.Errorf("has %q, which is not one of %s", w, strings.Join(hearable, ", "))
		}
		on[w] = true
	}
	var d FollowDefaults
	for _, h := range hearable {
		if !on[h] {
			d.Off = append(d.Off, h)
		}
	}
	return d, nil
}

// Hears is the one rule for what a follow hears: its own choice where it
// made one, the organisation's default elsewhere.
func (d FollowDefaults) Hears(c FollowChoices, what string) bool {
	if p := c.field(what); p != nil && *p != nil {
		return **p
	}
	return !slices.Contains(d.Off, what)
}

// SetFollowChoice sets whether the follow of committeeKey in channelID
// hears what, in one statement (two people ticking boxes at once both
// land). Turning the digest on also marks it resumed now
// (Digest.ResumedAt), first, so that a slot that passed while it was off
// is never posted late. It reports false when there is no such follow.
// Errors: ErrInvalid for a what not in Hearable; ErrUnavailable when the
// store is down.
func (s *Store) SetFollowChoice(ctx context.Context, channelID, committeeKey, what string, on bool) (bool, error) {
	if !slices.Contains(hearable, what) {
		return false, fmt.Errorf("set follow choice %q: %w", what, ErrInvalid)
	}
	if what == HearDigest && on {
		// Before the choice: should this fail, the digest stays off.
		if err := s.resumeDigest(ctx, channelID, committeeKey); err != nil {
			return false, fmt.Errorf("set follow choice: %w", err)
		}
	}
	// The column comes from the fixed list above, never from input.
	res, err := s.conn().ExecContext(ctx, s.q("UPDATE follows SET hear_"+what+" = ? WHERE channel_id = ? AND committee_key = ?"),
		boolInt(on), channelID, committeeKey)
	if err != nil {
		return false, s.wrap("set follow choice", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("set follow choice", err)
}
