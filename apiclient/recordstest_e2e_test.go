package apiclient_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

// These tests run the client against the in-memory records server, which is
// written independently of the client, under a path prefix and with small
// pages so that pagination is exercised.

var e2eNow = time.Date(2026, time.March, 16, 9, 0, 0, 0, time.UTC)

func newE2E(t *testing.T, opts ...recordstest.Option) (*recordstest.Server, *apiclient.Client) {
	t.Helper()
	opts = append([]recordstest.Option{
		recordstest.WithDataset(testworld.Dataset(e2eNow)),
		recordstest.WithPathPrefix("/records"),
		recordstest.WithPageSize(7),
	}, opts...)
	srv := recordstest.NewServer(opts...)
	t.Cleanup(srv.Close)
	require.True(t, strings.HasSuffix(srv.URL, "/records/api/v1"), "server URL %s", srv.URL)
	c, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey, apiclient.WithRetry(3, time.Millisecond, 5*time.Millisecond))
	require.NoError(t, err)
	return srv, c
}

func TestE2EListActions(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	want := srv.Actions()
	require.Greater(t, len(want), 7, "the dataset spans several pages")

	list, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	assert.False(t, list.Truncated)
	require.Len(t, list.Actions, len(want))
	for i, a := range list.Actions {
		w := want[i]
		assert.Equal(t, w.ID, a.ID)
		assert.Equal(t, w.Title, a.Title)
		assert.Equal(t, apiclient.Status(w.Status), a.Status)
		assert.Equal(t, w.AssigneeEmail, a.Assignee.Email)
		assert.Equal(t, w.AssigneeName, a.Assignee.Name)
		assert.Equal(t, w.MeetingID, a.MeetingID)
		assert.True(t, w.Deadline.Equal(a.Deadline), "action %s deadline %v, want %v", w.ID, a.Deadline, w.Deadline)
		assert.Equal(t, !w.DateOnly && !w.Deadline.IsZero(), a.DeadlineHasTime, "action %s", w.ID)
		assert.Empty(t, a.Raw, "Raw is kept only WithRawRecords")
	}
	assert.Equal(t, (len(want)+6)/7, srv.Count(http.MethodGet, "/actions"))

	open, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
	require.NoError(t, err)
	wantOpen := 0
	for _, a := range want {
		if a.Status == "open" {
			wantOpen++
		}
	}
	assert.Len(t, open.Actions, wantOpen)
	for _, a := range open.Actions {
		assert.Equal(t, apiclient.StatusOpen, a.Status)
	}
}

func TestE2EUpdateActionStatus(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	srv.AddAction(recordstest.Action{ID: "FIN 2026/07 ü", Title: "Circulate the forecast", Status: "open"})

	a, err := c.UpdateActionStatus(t.Context(), "FIN 2026/07 ü", apiclient.StatusComplete)
	require.NoError(t, err)
	assert.Equal(t, "FIN 2026/07 ü", a.ID)
	assert.Equal(t, apiclient.StatusComplete, a.Status)
	assert.Equal(t, "Circulate the forecast", a.Title)
	stored, ok := srv.Action("FIN 2026/07 ü")
	require.True(t, ok)
	assert.Equal(t, "complete", stored.Status)

	_, err = c.UpdateActionStatus(t.Context(), "no-such-action", apiclient.StatusComplete)
	assert.ErrorIs(t, err, apiclient.ErrNotFound)
}

func TestE2EMeetings(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	want := srv.Meetings()
	require.Greater(t, len(want), 7)

	var got []apiclient.Meeting
	opts := &apiclient.ListMeetingsOptions{}
	for range 100 {
		page, err := c.ListMeetings(t.Context(), opts)
		require.NoError(t, err)
		got = append(got, page.Meetings...)
		if page.Next == "" {
			break
		}
		opts.Next = page.Next
	}
	require.Len(t, got, len(want))
	for i, m := range got {
		assert.Equal(t, want[i].ID, m.ID)
		assert.Equal(t, want[i].Reference, m.Reference)
		assert.Equal(t, want[i].Title, m.Title)
		assert.Equal(t, want[i].Committee, m.Committee)
		assert.True(t, want[i].Date.Equal(m.Date), "meeting %s", m.ID)
	}

	w := want[len(want)/2]
	m, err := c.GetMeeting(t.Context(), w.ID)
	require.NoError(t, err)
	assert.Equal(t, w.ID, m.ID)
	assert.Equal(t, w.Location, m.Location)
	require.Len(t, m.Agenda, len(w.Agenda))
	for i, it := range m.Agenda {
		assert.Equal(t, w.Agenda[i].Title, it.Title)
		assert.Equal(t, w.Agenda[i].Description, it.Description)
	}

	_, err = c.GetMeeting(t.Context(), "no/such meeting")
	assert.ErrorIs(t, err, apiclient.ErrNotFound)
}

func TestE2EMinutes(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	all := srv.Minutes()
	var visible, hidden int
	for _, w := range all {
		got, err := c.GetMinutes(t.Context(), w.MeetingID)
		if w.Status != "approved" && w.Status != "published_draft" {
			hidden++
			assert.ErrorIs(t, err, apiclient.ErrNotFound, "minutes of %s in status %s", w.MeetingID, w.Status)
			continue
		}
		visible++
		require.NoError(t, err)
		assert.Equal(t, w.MeetingID, got.MeetingID)
		assert.Equal(t, apiclient.MinutesStatus(w.Status), got.Status)
		assert.Equal(t, w.Body, got.Body)
		assert.Equal(t, w.HTML, got.Format == apiclient.FormatHTML)
	}
	assert.Positive(t, visible)
	assert.Positive(t, hidden)

	// A server that sends hidden minutes anyway is not believed.
	srv.InjectFault(recordstest.Fault{PathPrefix: "/meetings/leak/minutes", Body: `{"minutes":{"status":"draft","body":"secret"}}`})
	_, err := c.GetMinutes(t.Context(), "leak")
	assert.ErrorIs(t, err, apiclient.ErrNotFound)
}

func TestE2EScopesAndFaults(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t, recordstest.WithKeys(map[string][]recordstest.Scope{
		recordstest.DefaultKey: {recordstest.ScopeActionsRead},
	}))
	acts, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	require.NotEmpty(t, acts.Actions)

	_, err = c.UpdateActionStatus(t.Context(), acts.Actions[0].ID, apiclient.StatusComplete)
	require.ErrorIs(t, err, apiclient.ErrForbidden)
	var e *apiclient.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "actions:write", e.Scope)
	assert.Equal(t, "records api: PUT /actions/{id}: 403 forbidden: missing scope actions:write", err.Error())

	_, err = c.ListMeetings(t.Context(), nil)
	require.ErrorIs(t, err, apiclient.ErrForbidden)

	srv.InjectFault(recordstest.Fault{PathPrefix: "/actions", Status: http.StatusServiceUnavailable, Times: 1})
	srv.InjectFault(recordstest.Fault{PathPrefix: "/actions", ResetMidBody: true, Times: 1})
	srv.ResetRequests()
	again, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err, "a 503 and a reset connection are retried")
	assert.Len(t, again.Actions, len(acts.Actions))

	srv.InjectFault(recordstest.Fault{PathPrefix: "/actions", Status: http.StatusInternalServerError, Times: 1})
	srv.ResetRequests()
	_, err = c.ListActions(t.Context(), nil)
	require.ErrorIs(t, err, apiclient.ErrUnavailable)
	assert.Equal(t, 1, srv.Count(http.MethodGet, "/actions"), "a 500 is not retried")

	bad, err := apiclient.NewClient(srv.URL, "wrong-key")
	require.NoError(t, err)
	_, err = bad.ListActions(t.Context(), nil)
	require.ErrorIs(t, err, apiclient.ErrUnauthorized)
	assert.NotContains(t, err.Error(), "wrong-key")
}
