package minutes

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Known says what the meetings list the bot holds says of an ID.
type Known int

// What KnownMeeting found.
const (
	// KnownMaybe: the ID is not among the meetings read, but the list was
	// not read to its end (or could not be read): an older meeting may
	// have it.
	KnownMaybe Known = iota
	// KnownYes: the records list a meeting with the ID.
	KnownYes
	// KnownNo: the whole list was read and no meeting has the ID; a
	// lookup could only fail.
	KnownNo
)

// knownPages bounds the meetings list pages KnownMeeting reads: the
// recent meetings, which are what readers (and links shared in Slack)
// ask for.
const knownPages = 10

// knownList is the meeting IDs and committees of the list's first pages,
// and whether that was the whole list.
type knownList struct {
	ids map[string]struct{}
	// committees are the committees of those meetings, each once (by
	// CommitteeKey) as the records first spell it.
	committees []string
	complete   bool
}

// KnownMeeting reports whether the records list a meeting with id,
// reading the first 10 pages of the meetings list once per CacheTTL for
// every caller together (a failed read is kept for OutageTTL, so a flood
// during an outage does not read it again per request). The public gate
// (internal/publicgate) asks it first, so that a flood of made-up IDs
// costs no records call per ID (KnownNo) or only calls from a budget of
// their own (KnownMaybe). A list that cannot be read is KnownMaybe with
// the error, wrapped.
func (s *Service) KnownMeeting(ctx context.Context, id string) (Known, error) {
	l, err := s.knownList(ctx)
	switch _, ok := l.ids[id]; {
	case err != nil:
		return KnownMaybe, err
	case ok:
		return KnownYes, nil
	case l.complete:
		return KnownNo, nil
	}
	return KnownMaybe, nil
}

// KnownCommittee reports whether typed names a committee of the meetings
// KnownMeeting reads (the same list, read once for both): KnownYes when
// it is one's name or the start of one's (MatchCommittee's rule, which
// the caller then applies to the committees it shows), KnownNo when the
// whole list was read and none matches, KnownMaybe otherwise. Nothing
// typed is KnownYes (every committee). Errors: as KnownMeeting.
func (s *Service) KnownCommittee(ctx context.Context, typed string) (Known, error) {
	l, err := s.knownList(ctx)
	matched := CommitteeKey(typed) == ""
	for _, c := range l.committees {
		if matched = matched || CommitteeMatches(c, typed); matched {
			break
		}
	}
	switch {
	case matched:
		return KnownYes, err
	case err != nil:
		return KnownMaybe, err
	case l.complete:
		return KnownNo, nil
	}
	return KnownMaybe, nil
}

// knownList is the first pages of the meetings list, shared for CacheTTL.
func (s *Service) knownList(ctx context.Context) (knownList, error) {
	return s.known.Get(ctx, "", func(ctx context.Context) (knownList, error) {
		l := knownList{ids: map[string]struct{}{}}
		seen := map[string]bool{}
		next := ""
		for range knownPages {
			p, err := s.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: next})
			if err != nil {
				return knownList{}, fmt.Errorf("list meetings: %w", err)
			}
			// A meeting may be addressed by its ID or its reference (the
			// records API: "a meeting or row identifier").
			for _, m := range p.Meetings {
				l.ids[m.ID] = struct{}{}
				if m.Reference != "" {
					l.ids[m.Reference] = struct{}{}
				}
				if k := CommitteeKey(m.Committee); k != "" && !seen[k] {
					seen[k] = true
					l.committees = append(l.committees, strings.TrimSpace(m.Committee))
				}
			}
			if next = p.Next; next == "" {
				l.complete = !p.Truncated
				break
			}
		}
		return l, nil
	})
}
