package demo

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// Dataset returns the demo's story, a small but realistic organisation
// for the demo and the sandbox: ten people with Slack IDs "U0" + their first name in
// capitals (Alice Adams is alice@example.org, U0ALICE), four committees
// meeting every two or three weeks over the six months before now, with two
// meetings to come, agendas, minutes in every status, and about fifty
// actions whose deadlines are set relative to now so that some are overdue
// and some due within three days.
//
// The dataset is a pure function of now: the same now always gives the same
// records, IDs included. Times are in UTC; date-only deadlines are midnight
// UTC of their day.
func Dataset(now time.Time) recordstest.Dataset {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	people := demoPeople()
	committees := demoCommittees()

	var meetings []demoMeeting
	for ci := range committees {
		meetings = append(meetings, scheduleMeetings(&committees[ci], today)...)
	}
	// IDs follow the calendar across committees, as the rows of a real
	// records database would.
	slices.SortFunc(meetings, func(a, b demoMeeting) int { return a.Date.Compare(b.Date) })
	for i := range meetings {
		meetings[i].ID = fmt.Sprintf("mtg_%04d", 301+i)
	}

	d := recordstest.Dataset{People: people}
	for _, m := range meetings {
		d.Meetings = append(d.Meetings, m.Meeting)
		if mins, ok := m.minutes(people, now); ok {
			d.Minutes = append(d.Minutes, mins)
		}
	}
	d.Actions = demoActions(people, meetings, today)
	return d
}

// demoMeeting is a meeting with what its minutes are written from.
type demoMeeting struct {
	recordstest.Meeting
	committee *demoCommittee
	// n numbers the committee's meetings from 0, oldest first; ago counts
	// its past meetings from 0, newest first, and is -1 for meetings to
	// come.
	n, ago     int
	prev, next time.Time
	topics     []demoTopic
}

type demoTopic struct {
	title, description string
	// discussion and decision are the minutes of the item; action is what
	// someone is asked to do, as a verb phrase.
	discussion, decision, action string
}

type demoCommittee struct {
	name, code, location string
	// hour and minute are when meetings start, in UTC; each committee has
	// its own, so no two meetings share a time.
	hour, minute int
	// members index people; the first chairs.
	members []int
	// lastPast is how many days before today the latest past meeting was,
	// and upcoming how many days after today the next one is (0: none
	// scheduled yet).
	lastPast, upcoming int
	// gaps are the days between meetings, cycled going back in time.
	gaps []int
	// recent are the minutes statuses of the latest past meetings, newest
	// first; older minutes are approved.
	recent []string
	// htmlAgo and urlAgo pick the past meeting (counted as in
	// demoMeeting.ago) whose minutes are HTML, or have their own public
	// URL; -1 for none.
	htmlAgo, urlAgo int
	topics          []demoTopic
}

// demoHistory is how far back meetings go.
const demoHistory = 183 * 24 * time.Hour

func scheduleMeetings(c *demoCommittee, today time.Time) []demoMeeting {
	start := time.Duration(c.hour)*time.Hour + time.Duration(c.minute)*time.Minute
	var past []time.Time // newest first
	day := today.AddDate(0, 0, -c.lastPast)
	for i := 0; today.Sub(day) <= demoHistory; i++ {
		past = append(past, day.Add(start))
		day = day.AddDate(0, 0, -c.gaps[i%len(c.gaps)])
	}
	dates := slices.Clone(past)
	slices.Reverse(dates)
	if c.upcoming > 0 {
		dates = append(dates, today.AddDate(0, 0, c.upcoming).Add(start))
	}

	out := make([]demoMeeting, len(dates))
	seq := map[int]int{} // meetings so far in each year, for references
	for n, date := range dates {
		seq[date.Year()]++
		m := demoMeeting{
			committee: c,
			n:         n,
			ago:       len(past) - 1 - n,
			prev:      date.AddDate(0, 0, -c.gaps[0]),
			next:      date.AddDate(0, 0, c.gaps[0]),
		}
		if n > 0 {
			m.prev = dates[n-1]
		}
		if n+1 < len(dates) {
			m.next = dates[n+1]
		}
		for j := range 1 + n%4 {
			m.topics = append(m.topics, c.topics[(n*3+j)%len(c.topics)])
		}
		m.Meeting = recordstest.Meeting{
			Reference: fmt.Sprintf("%s-%d-%02d", c.code, date.Year(), seq[date.Year()]),
			Title:     c.name + " Committee: " + m.topics[0].title,
			Committee: c.name,
			Location:  c.location,
			Date:      date,
			Agenda:    m.agenda(),
		}
		out[n] = m
	}
	return out
}

// agenda gives 3 to 7 items: the two standing openers, the topics, and
// any other business at two meetings in three.
func (m *demoMeeting) agenda() []recordstest.AgendaItem {
	items := []recordstest.AgendaItem{
		{Title: "Welcome and apologies", Description: "Chair's welcome, apologies for absence and declarations of interest."},
		{Title: "Minutes of the previous meeting", Description: "To approve the minutes of the meeting held on " + longDate(m.prev) + " and review matters arising."},
	}
	for _, t := range m.topics {
		items = append(items, recordstest.AgendaItem{Title: t.title, Description: t.description})
	}
	if m.hasAOB() {
		items = append(items, recordstest.AgendaItem{Title: "Any other business", Description: "Items notified to the chair before the meeting."})
	}
	for i := range items {
		items[i].Number = i + 1
	}
	return items
}

func (m *demoMeeting) hasAOB() bool { return m.n%3 != 0 }

// minutes returns the meeting's minutes; ok is false for meetings to come.
func (m *demoMeeting) minutes(people []recordstest.Person, now time.Time) (mins recordstest.Minutes, ok bool) {
	if m.ago < 0 {
		return recordstest.Minutes{}, false
	}
	c := m.committee
	status := "approved"
	if m.ago < len(c.recent) {
		status = c.recent[m.ago]
	}
	// Approved minutes are approved at the next meeting; the others were
	// last touched a few days after their own.
	var updated time.Time
	switch status {
	case "approved":
		updated = m.next.Add(2 * time.Hour)
	case "published_draft":
		updated = m.Date.AddDate(0, 0, 2)
	case "in_review":
		updated = m.Date.AddDate(0, 0, 3)
	default:
		updated = m.Date.AddDate(0, 0, 1)
	}
	if updated.After(now) {
		updated = now
	}
	mins = recordstest.Minutes{MeetingID: m.ID, Status: status, UpdatedAt: updated}
	if m.ago == c.htmlAgo {
		mins.HTML, mins.Body = true, m.minutesHTML(people)
	} else {
		mins.Body = m.minutesMarkdown(people, status)
	}
	if m.ago == c.urlAgo {
		mins.URL = "https://records.example.org/minutes/" + strings.ToLower(m.Reference)
	}
	return mins, true
}

// absent is the index in the committee's members of the one who sent
// apologies, or -1 when everyone came. The chair is never absent.
func (m *demoMeeting) absent() int {
	if m.n%4 == 3 {
		return -1
	}
	return 1 + m.n%(len(m.committee.members)-1)
}

// attendance names those present and those who sent apologies.
func (m *demoMeeting) attendance(people []recordstest.Person) (present []string, apologies string) {
	absent := m.absent()
	for i, p := range m.committee.members {
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
func (m *demoMeeting) actionOwner(people []recordstest.Person, j int) string {
	members := m.committee.members
	i := (m.n + j + 1) % len(members)
	if i == m.absent() {
		i = (i + 1) % len(members)
	}
	return people[members[i]].Name
}

// draftNote opens the Markdown of minutes not yet approved; the demo's
// `approve` takes it out, as a secretary would.
const draftNote = "> **Draft minutes**, subject to approval at the next meeting.\n\n"

func (m *demoMeeting) minutesMarkdown(people []recordstest.Person, status string) string {
	present, apologies := m.attendance(people)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s Committee, %s\n\n", m.committee.name, longDate(m.Date))
	if status != "approved" {
		b.WriteString(draftNote)
	}
	fmt.Fprintf(&b, "**Present:** %s  \n", strings.Join(present, ", "))
	fmt.Fprintf(&b, "**Apologies:** %s  \n", cmp.Or(apologies, "none"))
	fmt.Fprintf(&b, "**Location:** %s\n\n", m.Location)

	fmt.Fprintf(&b, "## 1. Welcome and apologies\n\nThe chair opened the meeting at %s and welcomed members. ", m.Date.Format("15:04"))
	if apologies != "" {
		fmt.Fprintf(&b, "Apologies were received from %s. ", apologies)
	}
	b.WriteString("No new declarations of interest were made.\n\n")
	fmt.Fprintf(&b, "## 2. Minutes of the previous meeting\n\nThe minutes of the meeting held on %s were approved as a correct record. "+
		"Matters arising not covered elsewhere on the agenda were reported as complete.\n\n", longDate(m.prev))

	var actions []string
	for j, t := range m.topics {
		owner := m.actionOwner(people, j)
		fmt.Fprintf(&b, "## %d. %s\n\n%s\n\n**Decision:** %s\n\n**Action:** %s to %s.\n\n", j+3, t.title, t.discussion, t.decision, owner, t.action)
		actions = append(actions, fmt.Sprintf("- **%s** to %s", owner, t.action))
	}
	if m.hasAOB() {
		fmt.Fprintf(&b, "## %d. Any other business\n\nNo other business was raised.\n\n", len(m.topics)+3)
	}
	fmt.Fprintf(&b, "## Summary of actions\n\n%s\n\n", strings.Join(actions, "\n"))
	fmt.Fprintf(&b, "The meeting closed at %s. The next meeting is on %s.\n",
		m.Date.Add(100*time.Minute).Format("15:04"), longDate(m.next))
	return b.String()
}

// minutesHTML writes the minutes as the records system's old website
// exported them. The export carries a tracking script and inline handlers
// on purpose: renderers must sanitise, and tests of that use this record.
func (m *demoMeeting) minutesHTML(people []recordstest.Person) string {
	present, apologies := m.attendance(people)
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<h1>%s Committee, %s</h1>\n", esc(m.committee.name), esc(longDate(m.Date)))
	fmt.Fprintf(&b, "<table class=\"attendance\">\n<tr><th>Present</th><td>%s</td></tr>\n<tr><th>Apologies</th><td>%s</td></tr>\n<tr><th>Location</th><td>%s</td></tr>\n</table>\n",
		esc(strings.Join(present, ", ")), esc(cmp.Or(apologies, "none")), esc(m.Location))
	fmt.Fprintf(&b, "<h2>1. Welcome and apologies</h2>\n<p>The chair opened the meeting at %s and welcomed members.</p>\n", m.Date.Format("15:04"))
	fmt.Fprintf(&b, "<h2>2. Minutes of the previous meeting</h2>\n<p>The minutes of the meeting held on %s were approved as a correct record.</p>\n", esc(longDate(m.prev)))
	for j, t := range m.topics {
		fmt.Fprintf(&b, "<h2>%d. %s</h2>\n<p>%s</p>\n<p><strong>Decision:</strong> %s</p>\n<p><strong>Action:</strong> %s to %s.</p>\n",
			j+3, esc(t.title), esc(t.discussion), esc(t.decision), esc(m.actionOwner(people, j)), esc(t.action))
	}
	b.WriteString("<p><a href=\"https://records.example.org/\" onclick=\"track('minutes-home')\">Back to all minutes</a></p>\n")
	b.WriteString("<script>track('minutes-view');</script>\n")
	return b.String()
}

func longDate(t time.Time) string { return t.Format("Monday 2 January 2006") }

type dueKind int

const (
	dueDate dueKind = iota // a date-only deadline
	dueTime                // a deadline at 17:00 UTC
	dueNone                // no deadline
)

// demoActionSpec is one action of the demo, its deadline given in days
// from today.
type demoActionSpec struct {
	// committee is the code of the committee whose meeting assigned the
	// action; empty for an action raised outside meetings.
	committee string
	person    string // first name
	status    string
	days      int
	due       dueKind
	title     string
	// id is set for actions that have a bare row identifier; the others
	// are named after their meeting: "FIN-2026-07/2".
	id string
}

func demoActions(people []recordstest.Person, meetings []demoMeeting, today time.Time) []recordstest.Action {
	specs := demoActionSpecs()
	out := make([]recordstest.Action, 0, len(specs))
	perMeeting := map[string]int{}
	for i, sp := range specs {
		p := people[slices.IndexFunc(people, func(p recordstest.Person) bool { return strings.HasPrefix(p.Name, sp.person+" ") })]
		a := recordstest.Action{
			ID:            sp.id,
			Title:         sp.title,
			Status:        sp.status,
			AssigneeEmail: p.Email,
			AssigneeName:  p.Name,
			CreatedAt:     today.AddDate(0, 0, -20).Add(9 * time.Hour),
		}
		switch sp.due {
		case dueDate:
			a.Deadline, a.DateOnly = today.AddDate(0, 0, sp.days), true
		case dueTime:
			a.Deadline = today.AddDate(0, 0, sp.days).Add(17 * time.Hour)
		}
		if sp.committee != "" {
			// The action was assigned at least a week before it fell due,
			// and often some meetings before that.
			cutoff := today.AddDate(0, 0, min(sp.days, 0)-7-14*(i%3))
			m := assigningMeeting(meetings, sp.committee, cutoff)
			a.MeetingID = m.ID
			a.CreatedAt = time.Date(m.Date.Year(), m.Date.Month(), m.Date.Day()+1, 9, 0, 0, 0, time.UTC)
			if a.ID == "" {
				perMeeting[m.ID]++
				a.ID = fmt.Sprintf("%s/%d", m.Reference, perMeeting[m.ID])
			}
		}
		out = append(out, a)
	}
	return out
}

// assigningMeeting returns the committee's latest past meeting held on or
// before cutoff, or its oldest when all are later.
func assigningMeeting(meetings []demoMeeting, code string, cutoff time.Time) demoMeeting {
	var oldest *demoMeeting
	for i := len(meetings) - 1; i >= 0; i-- {
		m := &meetings[i]
		if m.committee.code != code || m.ago < 0 {
			continue
		}
		if !m.Date.After(cutoff) {
			return *m
		}
		oldest = m
	}
	return *oldest
}

func demoPeople() []recordstest.Person {
	names := []string{
		"Alice Adams", "Bob Brown", "Carol Chen", "David Dlamini", "Erin Evans",
		"Farid Farouk", "Grace Gómez", "Hiro Hayashi", "Isla Irwin", "Jamal Johnson",
	}
	people := make([]recordstest.Person, len(names))
	for i, n := range names {
		first, _, _ := strings.Cut(n, " ")
		people[i] = recordstest.Person{
			Name:    n,
			Email:   strings.ToLower(first) + "@example.org",
			SlackID: "U0" + strings.ToUpper(first),
		}
	}
	return people
}

func demoActionSpecs() []demoActionSpec {
	return []demoActionSpec{
		{committee: "FIN", person: "Alice", status: "open", days: -3, title: "Circulate the revised Q3 budget forecast to members"},
		{committee: "FIN", person: "Bob", status: "in_progress", days: -10, title: "Reconcile the petty cash float with the bank statement"},
		{committee: "FIN", person: "David", status: "open", days: 2, title: "Obtain three quotes for the external audit"},
		{committee: "FIN", person: "Hiro", status: "complete", days: -20, title: "Update the reserves policy with the new three-month target"},
		{committee: "FIN", person: "Jamal", status: "open", days: 14, title: "Draft the grant application budget for the Lottery fund"},
		{committee: "FIN", person: "Alice", status: "in_progress", days: 1, title: "Prepare the variance report for the trustees"},
		{committee: "FIN", person: "Bob", status: "open", days: 30, title: "Review the bank mandate signatories after the AGM"},
		{committee: "FIN", person: "Hiro", status: "deferred", days: 45, title: "Investigate switching to a cloud accounting package"},
		{committee: "FIN", person: "Jamal", status: "cancelled", days: -5, title: "Chase the overdue invoice from the catering supplier"},
		{committee: "FIN", person: "David", status: "open", due: dueNone, title: "Set up a shared folder for signed expense claims"},
		{committee: "FIN", person: "Alice", status: "open", days: 2, due: dueTime, title: "Send the signed accounts to the Charity Commission before the 5 pm cut-off"},
		{committee: "FIN", person: "Bob", status: "complete", days: -2, title: "Pay the Q2 insurance premium"},
		{committee: "FIN", person: "Hiro", status: "in_progress", days: 7, title: "Fix the *Budget v2* spreadsheet's _Q3_ tab formulas"},

		{committee: "GOV", person: "Carol", status: "open", days: -7, title: "Publish the updated conflict of interest register"},
		{committee: "GOV", person: "Farid", status: "in_progress", days: 3, title: "Redraft standing orders section 4 (quorum) for consultation"},
		{committee: "GOV", person: "Isla", status: "open", days: 21, title: "Organise the trustee induction for the two new members"},
		{committee: "GOV", person: "Alice", status: "open", days: -1, title: "Return signed code of conduct declarations"},
		{committee: "GOV", person: "Carol", status: "complete", days: -12, title: "Circulate the AGM notice and proxy forms"},
		{committee: "GOV", person: "Farid", status: "open", days: 10, title: "Review the safeguarding policy against the 2026 guidance"},
		{committee: "GOV", person: "Isla", status: "deferred", due: dueNone, title: "Scope a skills audit of the board"},
		{committee: "GOV", person: "Carol", status: "in_progress", days: 0, title: "Confirm the date of the board away day"},
		{committee: "GOV", person: "Alice", status: "open", days: 60, title: "Benchmark the trustee expenses policy against similar charities"},
		{committee: "GOV", person: "Farid", status: "cancelled", days: 5, title: "Commission a governance review from an external consultant"},
		{committee: "GOV", person: "Isla", status: "open", days: -14, title: "File the annual return with Companies House"},

		{committee: "FAC", person: "David", status: "open", days: -4, title: "Get the fire alarm service certificate renewed"},
		{committee: "FAC", person: "Erin", status: "in_progress", days: 2, title: "Book contractors for the roof gutter clearance"},
		{committee: "FAC", person: "Grace", status: "open", days: 28, title: "Survey the accessibility of the side entrance ramp"},
		{committee: "FAC", person: "Hiro", status: "complete", days: -9, title: "Replace the broken lock on the storeroom door"},
		{committee: "FAC", person: "Erin", status: "open", days: 12, title: "Collect quotes for LED lighting in the main hall"},
		{committee: "FAC", person: "David", status: "in_progress", days: -2, title: "Update the asbestos register after the survey"},
		{committee: "FAC", person: "Grace", status: "deferred", days: 90, title: "Plan the car park resurfacing"},
		{committee: "FAC", person: "Erin", status: "open", due: dueNone, title: "Label the circuit breakers in the kitchen"},
		{committee: "FAC", person: "Hiro", status: "open", days: 3, title: "Arrange PAT testing for all portable appliances"},
		{committee: "FAC", person: "David", status: "complete", days: -30, title: "Renew the cleaning contract"},
		{committee: "FAC", person: "Grace", status: "open", days: 6, title: "Agree hire rates for the community room with Outreach"},

		{committee: "OUT", person: "Grace", status: "open", days: 1, title: "Check <!channel> & <@U123> mentions in the newsletter"},
		{committee: "OUT", person: "Isla", status: "in_progress", days: -6, title: "Finalise the volunteer recruitment leaflet"},
		{committee: "OUT", person: "Jamal", status: "open", days: 9, title: "Book stalls for the summer fair"},
		{committee: "OUT", person: "Bob", status: "open", days: -8, title: "Send thank-you letters to the festival sponsors"},
		{committee: "OUT", person: "Erin", status: "complete", days: -3, title: "Post the open-day photos on the website"},
		{committee: "OUT", person: "Grace", status: "in_progress", days: 18, title: "Set up the youth forum mailing list"},
		{committee: "OUT", person: "Isla", status: "open", days: 4, title: "Translate the welcome pack into Polish and Urdu"},
		{committee: "OUT", person: "Jamal", status: "deferred", days: 40, title: "Explore a partnership with the local library"},
		{committee: "OUT", person: "Bob", status: "cancelled", due: dueNone, title: "Print 500 flyers for the quiz night"},
		{committee: "OUT", person: "Grace", status: "open", days: 35, title: "Prepare the case studies for the annual impact report"},
		{committee: "OUT", person: "Erin", status: "open", days: 2, title: "Reply to the school's request for a careers-day speaker"},

		{committee: "FIN", person: "Jamal", status: "in_progress", days: 5, id: "1187", title: "Set out the 2027 membership fee proposal"},
		{committee: "GOV", person: "Alice", status: "complete", days: -16, id: "1203", title: "Update the website's <b>Trustees</b> page & photos"},
		{committee: "FAC", person: "Hiro", status: "open", days: -11, id: "1219", title: "Service the boiler before the heating season"},
		{person: "Carol", status: "open", days: 8, id: "1240", title: "Renew the organisation's data protection registration"},
	}
}
