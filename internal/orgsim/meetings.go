package orgsim

import (
	"fmt"
	"slices"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// meeting is a meeting with what its minutes are written from.
type meeting struct {
	recordsfake.Meeting
	committee *Committee
	// n numbers the committee's meetings from 0, oldest first; ago counts
	// its past meetings from 0, newest first, and is -1 for meetings to
	// come.
	n, ago     int
	prev, next time.Time
	topics     []Topic
}

// schedule lays out c's meetings from history before today to its next
// one to come.
func schedule(c *Committee, today time.Time) []meeting {
	start := time.Duration(c.Hour)*time.Hour + time.Duration(c.Minute)*time.Minute
	var past []time.Time // newest first
	day := today.AddDate(0, 0, -c.LastPast)
	for i := 0; today.Sub(day) <= history; i++ {
		past = append(past, day.Add(start))
		day = day.AddDate(0, 0, -c.Gaps[i%len(c.Gaps)])
	}
	dates := slices.Clone(past)
	slices.Reverse(dates)
	if c.Upcoming > 0 {
		dates = append(dates, today.AddDate(0, 0, c.Upcoming).Add(start))
	}

	out := make([]meeting, len(dates))
	seq := map[int]int{} // meetings so far in each year, for references
	for n, date := range dates {
		seq[date.Year()]++
		m := meeting{
			committee: c,
			n:         n,
			ago:       len(past) - 1 - n,
			prev:      date.AddDate(0, 0, -c.Gaps[0]),
			next:      date.AddDate(0, 0, c.Gaps[0]),
		}
		if n > 0 {
			m.prev = dates[n-1]
		}
		if n+1 < len(dates) {
			m.next = dates[n+1]
		}
		for j := range 1 + n%4 {
			m.topics = append(m.topics, c.Topics[(n*3+j)%len(c.Topics)])
		}
		m.Meeting = recordsfake.Meeting{
			Reference: fmt.Sprintf("%s-%d-%02d", c.Code, date.Year(), seq[date.Year()]),
			Title:     c.Name + " Committee: " + m.topics[0].Title,
			Committee: c.Name,
			Location:  c.Location,
			Date:      date,
			Agenda:    m.agenda(),
		}
		out[n] = m
	}
	return out
}

// agenda gives 3 to 7 items: the two standing openers, the topics, and
// any other business at two meetings in three.
func (m *meeting) agenda() []recordsfake.AgendaItem {
	items := []recordsfake.AgendaItem{
		{Title: "Welcome and apologies", Description: "Chair's welcome, apologies for absence and declarations of interest."},
		{Title: "Minutes of the previous meeting", Description: "To approve the minutes of the meeting held on " + longDate(m.prev) + " and review matters arising."},
	}
	for _, t := range m.topics {
		items = append(items, recordsfake.AgendaItem{Title: t.Title, Description: t.Description})
	}
	if m.hasAOB() {
		items = append(items, recordsfake.AgendaItem{Title: "Any other business", Description: "Items notified to the chair before the meeting."})
	}
	for i := range items {
		items[i].Number = i + 1
	}
	return items
}

func (m *meeting) hasAOB() bool { return m.n%3 != 0 }

// absent is the index in the committee's members of the one who sent
// apologies, or -1 when everyone came. The chair is never absent.
func (m *meeting) absent() int {
	if m.n%4 == 3 {
		return -1
	}
	return 1 + m.n%(len(m.committee.Members)-1)
}

// attendance names those present and those who sent apologies.
func (m *meeting) attendance(people []recordsfake.Person) (present []string, apologies string) {
	absent := m.absent()
	for i, p := range m.committee.Members {
		switch {
		case i == absent:
			apologies = people[p].Name
		case i == 0:
			present = append(present, people[p].Name+" (chair)")
		default:
			present = append(present, people[p].Name)
		}
	}
	return present, apologies
}

// actionOwner is who is asked to do topic j's action: a member who came.
func (m *meeting) actionOwner(people []recordsfake.Person, j int) string {
	members := m.committee.Members
	i := (m.n + j + 1) % len(members)
	if i == m.absent() {
		i = (i + 1) % len(members)
	}
	return people[members[i]].Name
}

func longDate(t time.Time) string { return t.Format("Monday 2 January 2006") }
