// Package publication is the one rule for what recordsbot shows to anyone
// on the internet, asked by every public surface: the minutes pages, their
// archive and feeds, Slack's unfurls of them, and the calendar feeds.
//
// The records API marks only the minutes endpoint as intended for public
// republishing; it gives meetings no public flag. Records services add
// their own marks, and a meeting they mark as not for the public is left
// out of every public surface (Withheld): a status of cancelled (or
// withdrawn, private, confidential), a visibility or access mark other
// than public, a confidential flag, a public flag that is false. The
// names read are apiclient's (meeting.status, meeting.visibility,
// meeting.confidential, meeting.public), and RECORDS_FIELD_MAP names
// any other.
//
// Which committees' schedules (their meetings' dates, titles and places)
// are published is the organisation's choice (Schedule, PUBLIC_CALENDAR):
// none, every committee, or the committees it lists.
//
// A public surface links only to a page that exists: a meeting's minutes
// page is linked when its minutes are known to be shown there
// (minutes.Service.PublishedPage), never merely because the meeting is.
package publication

import (
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/store"
)

// Withheld reports whether the records mark m as not for the public; nil
// is withheld. A meeting with no mark at all is not.
func Withheld(m *apiclient.Meeting) bool {
	if m == nil || m.Confidential || m.NotPublic {
		return true
	}
	switch mark(m.Status) {
	case "cancelled", "canceled", "withdrawn", "private", "confidential":
		return true
	}
	switch mark(m.Visibility) {
	case "", "public", "open", "published":
		return false
	}
	// Any other visibility (private, confidential, restricted, internal,
	// members) is not the public's: an unknown mark fails closed.
	return true
}

// mark is a record's mark compared as a word: trimmed, lowercased, "-"
// and " " read as "_".
func mark(s string) string {
	return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
}

// Schedule is which committees' meetings the public calendars publish.
// The zero value publishes none.
type Schedule struct {
	all  bool
	keys map[string]bool // by store.CommitteeKey
}

// Every publishes every committee's schedule.
func Every() Schedule { return Schedule{all: true} }

// Committees publishes the schedules of the named committees only
// (compared by store.CommitteeKey: case and surrounding space ignored);
// none when names is empty.
func Committees(names ...string) Schedule {
	s := Schedule{keys: map[string]bool{}}
	for _, n := range names {
		if k := store.CommitteeKey(n); k != "" {
			s.keys[k] = true
		}
	}
	return s
}

// ParseSchedule reads PUBLIC_CALENDAR: "true" (or 1, yes, on) for every
// committee; "false" (0, no, off) or "" for none; otherwise a
// comma-separated list of committee names ("Finance, Audit"). It never
// fails: any text is a list of names.
func ParseSchedule(v string) Schedule {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on":
		return Every()
	case "", "false", "0", "no", "off":
		return Schedule{}
	}
	return Committees(strings.Split(v, ",")...)
}

// On reports whether any committee's schedule is published.
func (s Schedule) On() bool { return s.all || len(s.keys) > 0 }

// All reports whether every committee's schedule is published.
func (s Schedule) All() bool { return s.all }

// Names are the committees listed (keys), for messages; nil for Every.
func (s Schedule) Names() []string {
	var out []string
	for k := range s.keys {
		out = append(out, k)
	}
	return out
}

// Committee reports whether the schedule of committee is published.
func (s Schedule) Committee(committee string) bool {
	return s.all || s.keys[store.CommitteeKey(committee)]
}

// Publishes reports whether m belongs in a public calendar: its
// committee's schedule is published and the records do not withhold it.
func (s Schedule) Publishes(m *apiclient.Meeting) bool {
	return m != nil && s.Committee(m.Committee) && !Withheld(m)
}
