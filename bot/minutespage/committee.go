package minutespage

import (
	"context"
	"strings"

	"github.com/recordsbot/recordsbot/minutes"
)

// committeeChoice is what ?committee= named, resolved by
// minutes.MatchCommittee, the rule Slack's /minutes follow uses too.
type committeeChoice struct {
	// Name is the committee as the records spell it when typed names
	// exactly one among those with recent published minutes; "" otherwise.
	Name string
	// Ambiguous are the committees typed is a prefix of, when several.
	Ambiguous []string
	// Latest is what the names were read from (for the page's committee
	// menu); Known reports that it was read whole, so a name not among
	// them is known to have no recent published minutes.
	Latest []minutes.Entry
	Known  bool
}

// resolveCommittee matches typed against the committees of
// LatestPerCommittee. That list is shared for minutes.CacheTTL by every
// page, and the archive page reads it anyway for its committee menu, so
// resolving adds no records call to the page; a feed asked for a
// committee adds that one shared read. When it cannot be read (the
// records, or the public budget, refused) the choice is empty and the
// caller treats typed as a whole name, as before there was a rule.
func (s *Site) resolveCommittee(ctx context.Context, typed string) committeeChoice {
	latest, err := s.svc.LatestPerCommittee(ctx)
	name, ambiguous := minutes.MatchCommittee(committeeNames(latest), typed)
	if err != nil {
		// What was read may still name the committee, but "several" and
		// "none" are not known from part of the list.
		return committeeChoice{Name: name, Latest: latest}
	}
	return committeeChoice{Name: name, Ambiguous: ambiguous, Latest: latest, Known: true}
}

// entriesCommittee is the committee of the first entry as the records
// spell it, else fallback.
func entriesCommittee(es []minutes.Entry, fallback string) string {
	for _, e := range es {
		if c := strings.TrimSpace(e.Meeting.Committee); c != "" {
			return c
		}
	}
	return fallback
}
