package demo

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// demoNows are clocks the demo must hold up at: any day of the year,
// across a year end, on a leap day and just before midnight.
func demoNows() map[string]time.Time {
	return map[string]time.Time{
		"mid year":        time.Date(2026, time.July, 20, 9, 30, 0, 0, time.UTC),
		"new year":        time.Date(2027, time.January, 3, 12, 0, 0, 0, time.UTC),
		"leap day":        time.Date(2028, time.February, 29, 8, 0, 0, 0, time.UTC),
		"before midnight": time.Date(2026, time.November, 30, 23, 59, 59, 0, time.UTC),
		"other zone":      time.Date(2026, time.April, 1, 1, 0, 0, 0, time.FixedZone("UTC+10", 10*3600)),
	}
}

func TestDatasetDeterministic(t *testing.T) {
	t.Parallel()
	now := demoNows()["mid year"]
	assert.Equal(t, Dataset(now), Dataset(now))
	assert.Equal(t, Dataset(now), Dataset(now.In(time.FixedZone("UTC-5", -5*3600))), "only the instant matters")
	assert.NotEqual(t, Dataset(now).Actions, Dataset(now.AddDate(0, 0, 1)).Actions, "deadlines follow now")
}

func TestDatasetPeople(t *testing.T) {
	t.Parallel()
	d := Dataset(demoNows()["mid year"])
	require.Len(t, d.People, 10)
	assert.Equal(t, recordstest.Person{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"}, d.People[0])
	emails, slackIDs := map[string]bool{}, map[string]bool{}
	for _, p := range d.People {
		first, _, ok := strings.Cut(p.Name, " ")
		require.True(t, ok, "%q has a first and last name", p.Name)
		assert.Equal(t, strings.ToLower(first)+"@example.org", p.Email)
		assert.Equal(t, "U0"+strings.ToUpper(first), p.SlackID)
		assert.False(t, emails[p.Email], "email %s is unique", p.Email)
		assert.False(t, slackIDs[p.SlackID], "Slack ID %s is unique", p.SlackID)
		emails[p.Email], slackIDs[p.SlackID] = true, true
	}
}

func TestDatasetMeetings(t *testing.T) {
	t.Parallel()
	for name, now := range demoNows() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := Dataset(now)
			ids, refs := map[string]bool{}, map[string]bool{}
			byCommittee := map[string][]recordstest.Meeting{}
			upcoming := 0
			for _, m := range d.Meetings {
				assert.False(t, ids[m.ID], "meeting ID %s is unique", m.ID)
				assert.False(t, refs[m.Reference], "reference %s is unique", m.Reference)
				ids[m.ID], refs[m.Reference] = true, true
				assert.Regexp(t, `^(FIN|GOV|FAC|OUT)-\d{4}-\d{2}$`, m.Reference)
				assert.Equal(t, m.Date.Format("2006"), m.Reference[4:8], "the reference carries the meeting's year")
				assert.NotEmpty(t, m.Title)
				assert.NotEmpty(t, m.Location)
				assert.True(t, m.Date.After(now.AddDate(0, -7, 0)), "meeting %s on %s is within about six months", m.ID, m.Date)
				assert.True(t, m.Date.Before(now.AddDate(0, 1, 0)), "meeting %s on %s is at most a month ahead", m.ID, m.Date)
				if m.Date.After(now) {
					upcoming++
				}
				require.GreaterOrEqual(t, len(m.Agenda), 3, "agenda of %s", m.ID)
				require.LessOrEqual(t, len(m.Agenda), 7, "agenda of %s", m.ID)
				for i, it := range m.Agenda {
					assert.Equal(t, i+1, it.Number)
					assert.NotEmpty(t, it.Title)
					assert.NotEmpty(t, it.Description)
				}
				byCommittee[m.Committee] = append(byCommittee[m.Committee], m)
			}
			assert.InDelta(t, 1.5, upcoming, 0.5, "one or two meetings to come")
			assert.ElementsMatch(t, []string{"Finance", "Governance", "Facilities", "Community Outreach"}, slices.Collect(maps.Keys(byCommittee)))
			for c, ms := range byCommittee {
				assert.GreaterOrEqual(t, len(ms), 8, "%s meets regularly", c)
				for i := 1; i < len(ms); i++ {
					gap := ms[i].Date.Sub(ms[i-1].Date)
					assert.True(t, gap >= 14*24*time.Hour && gap <= 21*24*time.Hour, "%s: %s after the previous meeting", c, gap)
				}
			}
		})
	}
}

func TestDatasetMinutes(t *testing.T) {
	t.Parallel()
	for name, now := range demoNows() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := Dataset(now)
			meetings := map[string]recordstest.Meeting{}
			for _, m := range d.Meetings {
				meetings[m.ID] = m
			}
			statuses := map[string]int{}
			seen := map[string]bool{}
			html, withURL := 0, 0
			for _, mins := range d.Minutes {
				m, ok := meetings[mins.MeetingID]
				require.True(t, ok, "minutes of unknown meeting %s", mins.MeetingID)
				assert.False(t, seen[mins.MeetingID], "one record per meeting")
				seen[mins.MeetingID] = true
				assert.True(t, m.Date.Before(now), "minutes of meeting %s, which has not happened", m.ID)
				assert.False(t, mins.UpdatedAt.Before(m.Date), "minutes of %s updated before the meeting", m.ID)
				assert.False(t, mins.UpdatedAt.After(now), "minutes of %s updated in the future", m.ID)
				statuses[mins.Status]++
				if mins.URL != "" {
					withURL++
					assert.Regexp(t, `^https://`, mins.URL)
				}
				if mins.HTML {
					html++
					assert.Contains(t, mins.Body, "<h2>")
					assert.Contains(t, mins.Body, "<script>", "the HTML record tests sanitising")
					continue
				}
				words := len(strings.Fields(mins.Body))
				assert.True(t, words >= 150 && words <= 800, "minutes of %s have %d words", m.ID, words)
				for _, want := range []string{"# ", "\n## ", "\n- ", "**Decision:**"} {
					assert.Contains(t, mins.Body, want, "minutes of %s", m.ID)
				}
			}
			for _, m := range d.Meetings {
				if m.Date.Before(now) {
					assert.True(t, seen[m.ID], "past meeting %s has minutes", m.ID)
				}
			}
			for _, s := range []string{"approved", "published_draft", "draft", "in_review"} {
				assert.Positive(t, statuses[s], "minutes in status %s", s)
			}
			assert.Greater(t, statuses["approved"], len(d.Minutes)/2, "most minutes are approved")
			assert.Equal(t, 1, html, "one HTML record")
			assert.Equal(t, 1, withURL, "one record with its own URL")

			// The latest minutes of each committee are not approved yet.
			latest := map[string]recordstest.Minutes{}
			for _, mins := range d.Minutes {
				c := meetings[mins.MeetingID].Committee
				if prev, ok := latest[c]; !ok || meetings[mins.MeetingID].Date.After(meetings[prev.MeetingID].Date) {
					latest[c] = mins
				}
			}
			for c, mins := range latest {
				assert.NotEqual(t, "approved", mins.Status, "latest minutes of %s", c)
			}
		})
	}
}

func TestDatasetActions(t *testing.T) {
	t.Parallel()
	for name, now := range demoNows() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := Dataset(now)
			require.InDelta(t, 50, len(d.Actions), 5)
			people := map[string]recordstest.Person{}
			for _, p := range d.People {
				people[p.Email] = p
			}
			meetings := map[string]recordstest.Meeting{}
			for _, m := range d.Meetings {
				meetings[m.ID] = m
			}
			today := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
			ids := map[string]bool{}
			perPerson := map[string]int{}
			statuses := map[string]int{}
			var overdue, dueSoon, later, none, withTime, slashIDs int
			for _, a := range d.Actions {
				assert.False(t, ids[a.ID], "action ID %s is unique", a.ID)
				ids[a.ID] = true
				if strings.Contains(a.ID, "/") {
					slashIDs++
				}
				assert.NotEmpty(t, a.Title)
				assert.True(t, apiclient.Status(a.Status).Valid(), "status %q", a.Status)
				statuses[a.Status]++
				p, ok := people[a.AssigneeEmail]
				require.True(t, ok, "assignee %s of %s is a person", a.AssigneeEmail, a.ID)
				assert.Equal(t, p.Name, a.AssigneeName)
				perPerson[p.Email]++
				if a.MeetingID != "" {
					m, ok := meetings[a.MeetingID]
					require.True(t, ok, "meeting %s of %s exists", a.MeetingID, a.ID)
					assert.True(t, m.Date.Before(a.CreatedAt), "%s created before its meeting", a.ID)
					if !a.Deadline.IsZero() {
						assert.True(t, m.Date.Before(a.Deadline), "%s due before its meeting", a.ID)
					}
				}
				assert.False(t, a.CreatedAt.After(now), "%s created in the future", a.ID)

				live := a.Status == "open" || a.Status == "in_progress"
				switch {
				case a.Deadline.IsZero():
					none++
				case !a.DateOnly:
					withTime++
				case a.Deadline.Before(today) && live:
					overdue++
				case a.Deadline.After(today) && !a.Deadline.After(today.AddDate(0, 0, 3)) && live:
					dueSoon++
				case a.Deadline.After(today.AddDate(0, 0, 3)):
					later++
				}
				if a.DateOnly {
					assert.Equal(t, a.Deadline, a.Deadline.UTC().Truncate(24*time.Hour), "date-only deadline %s is midnight UTC", a.Deadline)
				}
			}
			assert.GreaterOrEqual(t, overdue, 5, "overdue open actions")
			assert.GreaterOrEqual(t, dueSoon, 5, "open actions due within 3 days")
			assert.GreaterOrEqual(t, later, 5, "actions due later")
			assert.GreaterOrEqual(t, none, 3, "actions without deadline")
			assert.Equal(t, 1, withTime, "one deadline with a time")
			assert.Positive(t, slashIDs, "IDs with a slash")
			for _, s := range []string{"open", "in_progress", "complete", "cancelled", "deferred"} {
				assert.Positive(t, statuses[s], "actions in status %s", s)
			}
			assert.Greater(t, statuses["open"]+statuses["in_progress"], len(d.Actions)/2, "mostly open or in progress")
			for _, p := range d.People {
				assert.GreaterOrEqual(t, perPerson[p.Email], 3, "%s has actions", p.Name)
			}
			assert.True(t, slices.ContainsFunc(d.Actions, func(a recordstest.Action) bool {
				return a.Title == "Check <!channel> & <@U123> mentions in the newsletter"
			}), "the mrkdwn-hostile title is there")
		})
	}
}

// TestDatasetServed reads the story back through the records client
// from the in-memory records service, pages and all, as the bot will.
func TestDatasetServed(t *testing.T) {
	t.Parallel()
	now := demoNows()["mid year"]
	d := Dataset(now)
	srv := recordstest.NewServer(recordstest.WithDataset(d), recordstest.WithPageSize(7))
	t.Cleanup(srv.Close)
	rc, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	require.NoError(t, err)

	list, err := rc.ListActions(t.Context(), nil)
	require.NoError(t, err)
	require.False(t, list.Truncated)
	var ids, want []string
	for _, a := range list.Actions {
		ids = append(ids, a.ID)
	}
	for _, a := range d.Actions {
		want = append(want, a.ID)
	}
	assert.Equal(t, want, ids)

	// Only approved minutes and published drafts are served (Records API v1).
	visible, wantVisible := 0, 0
	for _, m := range d.Minutes {
		if m.Status == "approved" || m.Status == "published_draft" {
			wantVisible++
		}
	}
	for _, m := range d.Meetings {
		if _, err := rc.GetMinutes(t.Context(), m.Reference); err == nil {
			visible++
		}
	}
	assert.Equal(t, wantVisible, visible)

	// The hostile title survives the trip unchanged.
	var hostile string
	for _, a := range d.Actions {
		if strings.Contains(a.Title, "<!channel>") {
			hostile = a.ID
		}
	}
	got, err := rc.UpdateActionStatus(t.Context(), hostile, apiclient.Status("complete"))
	require.NoError(t, err)
	assert.Equal(t, "Check <!channel> & <@U123> mentions in the newsletter", got.Title)
}
