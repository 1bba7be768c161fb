// Package orgsim, the organisation simulator, turns a declarative
// organisation (people, committees with the topics their agendas rotate
// through, and action specs) into a recordsfake.Dataset: a calendar of
// meetings over the six months before now, agendas, minutes in Markdown or
// HTML, and actions whose deadlines are set relative to now.
//
// The demo's story (package demo) and the tests' dataset (package
// testworld), both from internal/sampleorg's organisation, are built here,
// so the two share one set of rules and differ only in their data.
package orgsim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// Org is an organisation to simulate. The zero Org builds an empty
// Dataset.
type Org struct {
	// People are the organisation's members; Committee.Members index them
	// and ActionSpec.Person names them by first name.
	People []recordsfake.Person
	// Committees meet; each must have at least one gap, one topic and two
	// members.
	Committees []Committee
	// Actions become the dataset's actions, in this order.
	Actions []ActionSpec
}

// Committee is one committee of an Org and how it meets.
type Committee struct {
	// Name titles its meetings ("Finance" gives "Finance Committee: …");
	// Code prefixes their references ("FIN-2026-07").
	Name, Code, Location string
	// Hour and Minute are when meetings start, in UTC; give each committee
	// its own, so no two meetings share a time.
	Hour, Minute int
	// Members index Org.People; the first chairs.
	Members []int
	// LastPast is how many days before today the latest past meeting was,
	// and Upcoming how many days after today the next one is (0: none
	// scheduled yet).
	LastPast, Upcoming int
	// Gaps are the days between meetings, cycled going back in time.
	Gaps []int
	// Recent are the minutes statuses of the latest past meetings, newest
	// first; older minutes are approved.
	Recent []string
	// HTMLAgo and URLAgo pick the past meeting (0 the latest, 1 the one
	// before…) whose minutes are HTML, or have their own public URL; -1
	// for none.
	HTMLAgo, URLAgo int
	// Topics are what agendas rotate through.
	Topics []Topic
}

// Topic is an agenda item a committee discusses, with its minutes.
type Topic struct {
	Title, Description string
	// Discussion and Decision are the minutes of the item; Action is what
	// someone is asked to do, as a verb phrase ("circulate the forecast").
	Discussion, Decision, Action string
}

// Due is the kind of deadline an ActionSpec has.
type Due int

// The kinds of deadline an ActionSpec can have.
const (
	DueDate Due = iota // a date-only deadline, midnight UTC of its day; the zero Due
	DueTime            // a deadline at 17:00 UTC
	DueNone            // no deadline
)

// ActionSpec is one action of an Org, its deadline given in days from
// today.
type ActionSpec struct {
	// Committee is the code of the committee whose meeting assigned the
	// action; empty for an action raised outside meetings.
	Committee string
	// Person is the assignee's first name, as in Org.People.
	Person string
	Status string
	// Days from today to the deadline (negative: overdue); Due says what
	// kind of deadline it is.
	Days  int
	Due   Due
	Title string
	// ID is set for actions that have a bare row identifier; the others
	// are named after their meeting: "FIN-2026-07/2".
	ID string
}

// DraftNote opens the Markdown of minutes not yet approved.
const DraftNote = "> **Draft minutes**, subject to approval at the next meeting.\n\n"

// history is how far back meetings go.
const history = 183 * 24 * time.Hour

// People gives each of names, "First Last", the house addresses: email
// first@example.org and Slack ID "U0" + FIRST (Alice Adams is
// alice@example.org, U0ALICE).
func People(names ...string) []recordsfake.Person {
	people := make([]recordsfake.Person, len(names))
	for i, n := range names {
		first, _, _ := strings.Cut(n, " ")
		people[i] = recordsfake.Person{
			Name:    n,
			Email:   strings.ToLower(first) + "@example.org",
			SlackID: "U0" + strings.ToUpper(first),
		}
	}
	return people
}

// Build returns org's records as of now. It is a pure function of org and
// the instant now: the same pair always gives the same records, IDs
// included, whatever now's location. Times are in UTC; date-only
// deadlines are midnight UTC of their day.
//
// Build panics if an ActionSpec names a person not in org.People or a
// committee with no past meeting, or if a committee has no gaps, no
// topics or fewer than two members: an Org is a literal in code, so such
// a mistake is a bug.
func Build(org Org, now time.Time) recordsfake.Dataset {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)

	var meetings []meeting
	for ci := range org.Committees {
		meetings = append(meetings, schedule(&org.Committees[ci], today)...)
	}
	// IDs follow the calendar across committees, as the rows of a real
	// records database would.
	slices.SortFunc(meetings, func(a, b meeting) int { return a.Date.Compare(b.Date) })
	for i := range meetings {
		meetings[i].ID = fmt.Sprintf("mtg_%04d", 301+i)
	}

	d := recordsfake.Dataset{People: org.People}
	for _, m := range meetings {
		d.Meetings = append(d.Meetings, m.Meeting)
		if mins, ok := m.minutes(org.People, now); ok {
			d.Minutes = append(d.Minutes, mins)
		}
	}
	d.Actions = actions(org.People, org.Actions, meetings, today)
	return d
}
