package orgsim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/orgsim"
)

// now is late evening in a zone ahead of UTC, so that its local day
// (25 November) differs from its UTC day (24 November): Build must count
// days in UTC.
var now = time.Date(2026, time.November, 25, 6, 30, 0, 0, time.FixedZone("UTC+9", 9*3600))

var today = time.Date(2026, time.November, 24, 0, 0, 0, 0, time.UTC)

func testOrg() orgsim.Org {
	topic := orgsim.Topic{Title: "Budget", Description: "The budget.", Discussion: "Discussed.", Decision: "Agreed.", Action: "send it round"}
	return orgsim.Org{
		People: orgsim.People("Alice Adams", "Bob Brown", "Carol Chen"),
		Committees: []orgsim.Committee{
			{
				Name: "Finance", Code: "FIN", Location: "Room 2", Hour: 17, Minute: 30,
				Members: []int{0, 1, 2}, LastPast: 2, Upcoming: 5, Gaps: []int{30},
				Recent: []string{"draft", "published_draft"}, HTMLAgo: 2, URLAgo: 1,
				Topics: []orgsim.Topic{topic},
			},
			{
				Name: "Governance", Code: "GOV", Location: "Boardroom", Hour: 9,
				Members: []int{2, 0}, LastPast: 1, Gaps: []int{60},
				HTMLAgo: -1, URLAgo: -1, Topics: []orgsim.Topic{topic},
			},
		},
		Actions: []orgsim.ActionSpec{
			{Committee: "FIN", Person: "Bob", Status: "open", Days: -3, Due: orgsim.DueDate, Title: "overdue"},
			{Committee: "FIN", Person: "Alice", Status: "open", Days: 2, Due: orgsim.DueTime, Title: "due soon"},
			{Person: "Carol", Status: "open", Days: 40, ID: "77", Title: "later"},
			{Committee: "GOV", Person: "Carol", Status: "open", Due: orgsim.DueNone, Title: "no deadline"},
		},
	}
}

func TestPeople(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []recordsfake.Person{
		{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"},
		{Name: "Grace Gómez", Email: "grace@example.org", SlackID: "U0GRACE"},
	}, orgsim.People("Alice Adams", "Grace Gómez"))
}

// TestBuildSchedule pins when meetings are: every gap back from LastPast
// for as long as the meeting is within 183 days of today, plus the one to
// come, at the committee's hour; IDs in calendar order across committees.
func TestBuildSchedule(t *testing.T) {
	t.Parallel()
	d := orgsim.Build(testOrg(), now)

	var fin []time.Time
	for _, m := range d.Meetings {
		if m.Committee == "Finance" {
			fin = append(fin, m.Date)
		}
	}
	at := func(days int) time.Time { return today.AddDate(0, 0, days).Add(17*time.Hour + 30*time.Minute) }
	// 2+30*6 = 182 days back is in; 212 is not.
	assert.Equal(t, []time.Time{at(-182), at(-152), at(-122), at(-92), at(-62), at(-32), at(-2), at(5)}, fin)

	require.Len(t, d.Meetings, 8+4) // Governance: 1, 61, 121, 181 days back, none to come
	for i, m := range d.Meetings {
		if i > 0 {
			assert.False(t, m.Date.Before(d.Meetings[i-1].Date), "meeting %s is in calendar order", m.ID)
		}
	}
	assert.Equal(t, "mtg_0301", d.Meetings[0].ID)
	assert.Equal(t, "FIN-2026-01", d.Meetings[0].Reference, "references count the committee's meetings in the year")
	assert.Len(t, d.Minutes, 7+4, "every past meeting has minutes, the one to come none")
}

// TestBuildMinutes pins which minutes are drafts, HTML or have a URL.
func TestBuildMinutes(t *testing.T) {
	t.Parallel()
	d := orgsim.Build(testOrg(), now)
	refs := map[string]string{}
	for _, m := range d.Meetings {
		refs[m.ID] = m.Reference
	}
	byRef := map[string]recordsfake.Minutes{}
	for _, mins := range d.Minutes {
		byRef[refs[mins.MeetingID]] = mins
	}
	// Finance met in 2026 on days -182 … -2 from 24 November: seven
	// meetings, FIN-2026-07 the latest.
	tests := []struct {
		ref, status string
		html        bool
		url         string
	}{
		{"FIN-2026-07", "draft", false, ""},
		{"FIN-2026-06", "published_draft", false, "https://records.example.org/minutes/fin-2026-06"},
		{"FIN-2026-05", "approved", true, ""},
		{"FIN-2026-04", "approved", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			mins, ok := byRef[tt.ref]
			require.True(t, ok, "minutes of %s", tt.ref)
			assert.Equal(t, tt.status, mins.Status)
			assert.Equal(t, tt.html, mins.HTML)
			assert.Equal(t, tt.url, mins.URL)
			if tt.html {
				assert.True(t, strings.HasPrefix(mins.Body, "<h1>Finance Committee, "), "got %q", mins.Body)
				return
			}
			assert.Equal(t, tt.status != "approved", strings.Contains(mins.Body, orgsim.DraftNote),
				"only minutes not yet approved carry the draft note: %q", mins.Body)
		})
	}
}

// TestBuildActions pins deadlines relative to today (in UTC) by due kind,
// and how actions are named after the meeting that assigned them.
func TestBuildActions(t *testing.T) {
	t.Parallel()
	d := orgsim.Build(testOrg(), now)
	require.Len(t, d.Actions, 4)
	byTitle := map[string]recordsfake.Action{}
	for _, a := range d.Actions {
		byTitle[a.Title] = a
	}

	tests := []struct {
		title    string
		deadline time.Time
		dateOnly bool
	}{
		{"overdue", today.AddDate(0, 0, -3), true},
		{"due soon", today.AddDate(0, 0, 2).Add(17 * time.Hour), false},
		{"later", today.AddDate(0, 0, 40), true},
		{"no deadline", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			t.Parallel()
			a := byTitle[tt.title]
			assert.True(t, tt.deadline.Equal(a.Deadline), "deadline: got %v, want %v", a.Deadline, tt.deadline)
			assert.Equal(t, tt.dateOnly, a.DateOnly)
		})
	}

	overdue := byTitle["overdue"]
	assert.Equal(t, "Bob Brown", overdue.AssigneeName)
	assert.Equal(t, "bob@example.org", overdue.AssigneeEmail)
	// Due 3 days ago, so assigned at a meeting at least 10 days ago: the
	// one 32 days back, FIN-2026-06, its first action.
	assert.Equal(t, "FIN-2026-06/1", overdue.ID)
	assert.Equal(t, today.AddDate(0, 0, -31).Add(9*time.Hour), overdue.CreatedAt, "created the morning after the meeting")

	// Actions are assigned at least a week before they fall due (or
	// before today, for those without a deadline): not at Governance's
	// meeting yesterday but at the one 61 days back.
	assert.Equal(t, "GOV-2026-03/1", byTitle["no deadline"].ID)

	later := byTitle["later"]
	assert.Equal(t, "77", later.ID, "a given ID is kept")
	assert.Empty(t, later.MeetingID, "raised outside meetings")
}
