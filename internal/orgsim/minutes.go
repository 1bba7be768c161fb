package orgsim

import (
	"cmp"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// minutes returns the meeting's minutes; ok is false for meetings to come.
func (m *meeting) minutes(people []recordsfake.Person, now time.Time) (mins recordsfake.Minutes, ok bool) {
	if m.ago < 0 {
		return recordsfake.Minutes{}, false
	}
	c := m.committee
	status := "approved"
	if m.ago < len(c.Recent) {
		status = c.Recent[m.ago]
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
	mins = recordsfake.Minutes{MeetingID: m.ID, Status: status, UpdatedAt: updated}
	if m.ago == c.HTMLAgo {
		mins.HTML, mins.Body = true, m.minutesHTML(people)
	} else {
		mins.Body = m.minutesMarkdown(people, status)
	}
	if m.ago == c.URLAgo {
		mins.URL = "https://records.example.org/minutes/" + strings.ToLower(m.Reference)
	}
	return mins, true
}

func (m *meeting) minutesMarkdown(people []recordsfake.Person, status string) string {
	present, apologies := m.attendance(people)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s Committee, %s\n\n", m.committee.Name, longDate(m.Date))
	if status != "approved" {
		b.WriteString(DraftNote)
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
		fmt.Fprintf(&b, "## %d. %s\n\n%s\n\n**Decision:** %s\n\n**Action:** %s to %s.\n\n", j+3, t.Title, t.Discussion, t.Decision, owner, t.Action)
		actions = append(actions, fmt.Sprintf("- **%s** to %s", owner, t.Action))
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
func (m *meeting) minutesHTML(people []recordsfake.Person) string {
	present, apologies := m.attendance(people)
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<h1>%s Committee, %s</h1>\n", esc(m.committee.Name), esc(longDate(m.Date)))
	fmt.Fprintf(&b, "<table class=\"attendance\">\n<tr><th>Present</th><td>%s</td></tr>\n<tr><th>Apologies</th><td>%s</td></tr>\n<tr><th>Location</th><td>%s</td></tr>\n</table>\n",
		esc(strings.Join(present, ", ")), esc(cmp.Or(apologies, "none")), esc(m.Location))
	fmt.Fprintf(&b, "<h2>1. Welcome and apologies</h2>\n<p>The chair opened the meeting at %s and welcomed members.</p>\n", m.Date.Format("15:04"))
	fmt.Fprintf(&b, "<h2>2. Minutes of the previous meeting</h2>\n<p>The minutes of the meeting held on %s were approved as a correct record.</p>\n", esc(longDate(m.prev)))
	for j, t := range m.topics {
		fmt.Fprintf(&b, "<h2>%d. %s</h2>\n<p>%s</p>\n<p><strong>Decision:</strong> %s</p>\n<p><strong>Action:</strong> %s to %s.</p>\n",
			j+3, esc(t.Title), esc(t.Discussion), esc(t.Decision), esc(m.actionOwner(people, j)), esc(t.Action))
	}
	b.WriteString("<p><a href=\"https://records.example.org/\" onclick=\"track('minutes-home')\">Back to all minutes</a></p>\n")
	b.WriteString("<script>track('minutes-view');</script>\n")
	return b.String()
}
