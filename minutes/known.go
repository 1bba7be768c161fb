package minutes

import (
	"context"
	"fmt"

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

// knownList is the meeting IDs of the list's first pages, and whether
// that was the whole list.
type knownList struct {
	ids      map[string]struct{}
	complete bool
}

// KnownMeeting reports whether the records list a meeting with id,
// reading the first 10 pages of the meetings list once per CacheTTL for
// every caller together. The public pages ask it first, so that a flood
// of made-up IDs costs no records call per ID (KnownNo) or only calls
// from a budget of their own (KnownMaybe). A list that cannot be read is
// KnownMaybe with the error, wrapped.
func (s *Service) KnownMeeting(ctx context.Context, id string) (Known, error) {
	l, err := s.known.Get(ctx, "", func(ctx context.Context) (knownList, error) {
		l := knownList{ids: map[string]struct{}{}}
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
			}
			if next = p.Next; next == "" {
				l.complete = !p.Truncated
				break
			}
		}
		return l, nil
	})
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
