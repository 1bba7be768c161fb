package apiclient_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// These tests drive the real client against recordstest speaking each
// common REST convention, so that envelopes, pagination, casing and PUT
// answers are proven end to end rather than only in the decoder.

// dialectWorld is a small organisation spread over several pages: 23
// actions in every status, with date and timestamp deadlines, 12 meetings
// with agendas, and minutes approved, published as a draft and unpublished.
func dialectWorld() recordstest.Dataset {
	var d recordstest.Dataset
	day := time.Date(2026, time.March, 2, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		d.Meetings = append(d.Meetings, recordstest.Meeting{
			ID:        fmt.Sprintf("M%02d", i),
			Reference: fmt.Sprintf("FIN-2026-%02d", i),
			Title:     fmt.Sprintf("Finance meeting %d", i),
			Committee: "Finance",
			Location:  "Room 2",
			Date:      day.AddDate(0, 0, 7*i).Add(18 * time.Hour),
			Agenda:    []recordstest.AgendaItem{{Number: 1, Title: "Budget", Description: "The forecast"}, {Number: 2, Title: "AOB"}},
		})
	}
	statuses := []string{"open", "in_progress", "complete", "cancelled", "deferred"}
	for i := range 23 {
		a := recordstest.Action{
			ID:            fmt.Sprintf("A%02d", i),
			Title:         fmt.Sprintf("Action number %d", i),
			Status:        statuses[i%len(statuses)],
			AssigneeEmail: fmt.Sprintf("person%d@example.org", i%4),
			AssigneeName:  fmt.Sprintf("Person %d", i%4),
			MeetingID:     fmt.Sprintf("M%02d", i%12),
			Deadline:      day.AddDate(0, 0, i).Add(time.Duration(i%2) * 15 * time.Hour),
			DateOnly:      i%2 == 0,
			CreatedAt:     day,
		}
		d.Actions = append(d.Actions, a)
	}
	d.Minutes = []recordstest.Minutes{
		{MeetingID: "M00", Status: "approved", Body: "# Minutes\nApproved.", UpdatedAt: day},
		{MeetingID: "M01", Status: "published_draft", Body: "<p>Draft</p>", HTML: true, UpdatedAt: day},
		{MeetingID: "M02", Status: "draft", Body: "secret", UpdatedAt: day},
	}
	return d
}

type dialectCase struct {
	name string
	opts []recordstest.Option
	// noMeetingTitle: the dialect does not repeat the meeting's title in an
	// action (JSON:API links the meeting as a relationship instead).
	noMeetingTitle bool
}

func dialectCases() []dialectCase {
	return []dialectCase{
		{name: "plain", opts: nil},
		{name: "plain camelCase", opts: []recordstest.Option{recordstest.WithCasing(recordstest.Camel)}},
		{name: "JSON:API", opts: []recordstest.Option{recordstest.WithDialect(recordstest.JSONAPI)}, noMeetingTitle: true},
		{name: "JSON:API kebab-case", opts: []recordstest.Option{recordstest.WithDialect(recordstest.JSONAPI), recordstest.WithCasing(recordstest.Kebab)}, noMeetingTitle: true},
		{name: "HAL", opts: []recordstest.Option{recordstest.WithDialect(recordstest.HAL)}},
		{name: "HAL PascalCase", opts: []recordstest.Option{recordstest.WithDialect(recordstest.HAL), recordstest.WithCasing(recordstest.Pascal)}},
		{name: "OData", opts: []recordstest.Option{recordstest.WithDialect(recordstest.OData)}},
		{name: "OData PascalCase", opts: []recordstest.Option{recordstest.WithDialect(recordstest.OData), recordstest.WithCasing(recordstest.Pascal)}},
		{name: "PostgREST", opts: []recordstest.Option{recordstest.WithDialect(recordstest.PostgREST)}},
		{name: "PostgREST camelCase", opts: []recordstest.Option{recordstest.WithDialect(recordstest.PostgREST), recordstest.WithCasing(recordstest.Camel)}},
	}
}

func newDialectE2E(t *testing.T, opts ...recordstest.Option) (*recordstest.Server, *apiclient.Client) {
	t.Helper()
	opts = append([]recordstest.Option{
		recordstest.WithDataset(dialectWorld()),
		recordstest.WithPathPrefix("/records"),
		recordstest.WithPageSize(5),
	}, opts...)
	srv := recordstest.NewServer(opts...)
	t.Cleanup(srv.Close)
	c, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey, apiclient.WithRetry(0, 0, 0))
	require.NoError(t, err)
	return srv, c
}

func TestDialectsListActions(t *testing.T) {
	t.Parallel()
	for _, tc := range dialectCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, c := newDialectE2E(t, tc.opts...)
			want := srv.Actions()
			list, err := c.ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.False(t, list.Truncated, "truncated: %s", list.TruncatedReason)
			require.Len(t, list.Actions, len(want), "every page followed")
			for i, a := range list.Actions {
				w := want[i]
				assert.Equal(t, w.ID, a.ID)
				assert.Equal(t, w.Title, a.Title)
				assert.Equal(t, apiclient.Status(w.Status), a.Status)
				assert.Equal(t, w.AssigneeEmail, a.Assignee.Email)
				assert.Equal(t, w.AssigneeName, a.Assignee.Name)
				assert.Equal(t, w.MeetingID, a.MeetingID, "action %s meeting", w.ID)
				if !tc.noMeetingTitle {
					assert.NotEmpty(t, a.MeetingTitle, "action %s meeting title", w.ID)
				}
				assert.Equal(t, "Finance", a.Committee)
				assert.True(t, w.Deadline.Equal(a.Deadline), "action %s deadline %v, want %v", w.ID, a.Deadline, w.Deadline)
				assert.Equal(t, !w.DateOnly, a.DeadlineHasTime, "action %s", w.ID)
			}
			assert.Equal(t, 5, srv.Count(http.MethodGet, "/actions"), "23 actions in pages of 5")

			open, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
			require.NoError(t, err)
			assert.Len(t, open.Actions, 5, "A00, A05, A10, A15, A20")
			assert.False(t, open.Truncated)
		})
	}
}

func TestDialectsMeetingsAndMinutes(t *testing.T) {
	t.Parallel()
	for _, tc := range dialectCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, c := newDialectE2E(t, tc.opts...)
			want := srv.Meetings()
			var got []apiclient.Meeting
			opts := &apiclient.ListMeetingsOptions{}
			for range 10 {
				page, err := c.ListMeetings(t.Context(), opts)
				require.NoError(t, err)
				assert.False(t, page.Truncated, page.TruncatedReason)
				got = append(got, page.Meetings...)
				if page.Next == "" {
					break
				}
				opts.Next = page.Next
			}
			require.Len(t, got, len(want), "every page reached through Next")
			for i, m := range got {
				assert.Equal(t, want[i].ID, m.ID)
				assert.Equal(t, want[i].Title, m.Title)
				assert.Equal(t, want[i].Reference, m.Reference)
				assert.True(t, want[i].Date.Equal(m.Date))
			}

			m, err := c.GetMeeting(t.Context(), "M03")
			require.NoError(t, err)
			assert.Equal(t, "M03", m.ID)
			assert.Equal(t, "Room 2", m.Location)
			require.Len(t, m.Agenda, 2)
			assert.Equal(t, apiclient.AgendaItem{Number: "1", Title: "Budget", Description: "The forecast"}, m.Agenda[0])

			mins, err := c.GetMinutes(t.Context(), "M00")
			require.NoError(t, err)
			assert.Equal(t, apiclient.MinutesApproved, mins.Status)
			assert.Equal(t, "# Minutes\nApproved.", mins.Body)
			mins, err = c.GetMinutes(t.Context(), "M01")
			require.NoError(t, err)
			assert.True(t, mins.Draft())
			assert.Equal(t, apiclient.FormatHTML, mins.Format)
			_, err = c.GetMinutes(t.Context(), "M02")
			assert.ErrorIs(t, err, apiclient.ErrNotFound)
		})
	}
}

func TestDialectsPUTAnswers(t *testing.T) {
	t.Parallel()
	answers := []struct {
		name string
		put  recordstest.PutAnswer
		// readBack: the answer has no body, so the client reads the action
		// back from the list.
		readBack bool
	}{
		{"row", recordstest.PutRow, false},
		{"one-element array", recordstest.PutArray, false},
		{"envelope", recordstest.PutEnvelope, false},
		{"204 No Content", recordstest.PutNoContent, true},
	}
	for _, tc := range dialectCases() {
		for _, ans := range answers {
			t.Run(tc.name+"/"+ans.name, func(t *testing.T) {
				t.Parallel()
				srv, c := newDialectE2E(t, append(tc.opts, recordstest.WithPutAnswer(ans.put))...)
				srv.ResetRequests()
				// A22 is on the last page of actions, and A04, A09, A14 and
				// A19 are deferred already: a read-back must pick it out.
				a, err := c.UpdateActionStatus(t.Context(), "A22", apiclient.StatusDeferred)
				require.NoError(t, err)
				assert.Equal(t, "A22", a.ID)
				assert.Equal(t, apiclient.StatusDeferred, a.Status)
				assert.Equal(t, "Action number 22", a.Title, "the whole row, not only the requested fields")
				assert.Equal(t, "person2@example.org", a.Assignee.Email)
				stored, ok := srv.Action("A22")
				require.True(t, ok)
				assert.Equal(t, "deferred", stored.Status)
				if ans.readBack {
					assert.Positive(t, srv.Count(http.MethodGet, "/actions"), "read back after 204")
				} else {
					assert.Zero(t, srv.Count(http.MethodGet, "/actions"), "no read-back needed")
				}
			})
		}
	}
}

// TestDialectPostgRESTRangeHeader checks the fake itself honours the
// request forms of a row API that the client does not send (a Range
// header, a counted total), so that the fake stays faithful.
func TestDialectPostgRESTRangeHeader(t *testing.T) {
	t.Parallel()
	srv, _ := newDialectE2E(t, recordstest.WithDialect(recordstest.PostgREST))
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/actions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+recordstest.DefaultKey)
	req.Header.Set("Range-Unit", "items")
	req.Header.Set("Range", "5-7")
	req.Header.Set("Prefer", "count=exact")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusPartialContent, resp.StatusCode)
	assert.Equal(t, "5-7/23", resp.Header.Get("Content-Range"))
}
