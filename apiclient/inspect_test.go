package apiclient_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// endpoint returns the report of one endpoint.
func endpoint(t *testing.T, in *apiclient.Inspection, name string) apiclient.EndpointReport {
	t.Helper()
	for _, e := range in.Endpoints {
		if e.Endpoint == name {
			return e
		}
	}
	require.Failf(t, "no report", "endpoint %s not inspected: %+v", name, in.Endpoints)
	return apiclient.EndpointReport{}
}

func field(t *testing.T, e apiclient.EndpointReport, name string) apiclient.FieldReport {
	t.Helper()
	for _, f := range e.Fields {
		if f.Field == name {
			return f
		}
	}
	require.Failf(t, "no field", "%s has no field %s", e.Endpoint, name)
	return apiclient.FieldReport{}
}

func scope(in *apiclient.Inspection, name string) apiclient.ScopeCheck {
	for _, s := range in.Scopes {
		if s.Scope == name {
			return s
		}
	}
	return apiclient.ScopeCheck{}
}

func TestInspectDialects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		opts               []recordstest.Option
		envelope, scheme   string
		deadlineAs         []string
		meetingIDAs        []string
		meetingsEnvelope   string
		meetingsPagination string
	}{
		{"plain", nil, "data", apiclient.SchemeCursor, []string{"due_date", "deadline"}, []string{"meeting.id"}, "meetings", apiclient.SchemeLinkHeader},
		{"JSON:API kebab-case", []recordstest.Option{recordstest.WithDialect(recordstest.JSONAPI), recordstest.WithCasing(recordstest.Kebab)}, "data", apiclient.SchemeNextLink, []string{"due-date", "deadline"}, []string{"relationships.meeting.data.id"}, "data", apiclient.SchemeNextLink},
		{"HAL camelCase", []recordstest.Option{recordstest.WithDialect(recordstest.HAL), recordstest.WithCasing(recordstest.Camel)}, "_embedded.actions", apiclient.SchemeNextLink, []string{"dueDate", "deadline"}, []string{"meeting.id"}, "_embedded.meetings", apiclient.SchemeNextLink},
		{"OData PascalCase", []recordstest.Option{recordstest.WithDialect(recordstest.OData), recordstest.WithCasing(recordstest.Pascal)}, "value", apiclient.SchemeNextLink, []string{"DueDate", "Deadline"}, []string{"Meeting.id"}, "value", apiclient.SchemeNextLink},
		{"PostgREST", []recordstest.Option{recordstest.WithDialect(recordstest.PostgREST)}, "array", apiclient.SchemeOffset, []string{"due_date", "deadline"}, []string{"meeting.id"}, "array", apiclient.SchemeOffset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c := newDialectE2E(t, tt.opts...)
			in, err := c.Inspect(t.Context(), &apiclient.InspectOptions{Pages: 5, MinutesOf: 12})
			require.NoError(t, err)
			assert.True(t, in.Reachable)
			assert.True(t, in.KeyAccepted)
			assert.Equal(t, apiclient.ScopeOK, scope(in, "actions:read").Result)
			assert.Equal(t, apiclient.ScopeOK, scope(in, "meetings:read").Result)
			assert.Equal(t, apiclient.ScopeNotChecked, scope(in, "actions:write").Result)
			assert.Zero(t, srv.Count(http.MethodPut, ""), "read-only without WriteCheck")

			acts := endpoint(t, in, "GET /actions")
			assert.True(t, acts.OK, acts.Error)
			assert.Equal(t, tt.envelope, acts.Envelope)
			assert.Equal(t, tt.scheme, acts.Pagination)
			assert.Equal(t, 23, acts.Records)
			assert.Empty(t, acts.Truncated)
			assert.Equal(t, tt.deadlineAs, field(t, acts, "action.deadline").FoundAs)
			assert.Equal(t, 23, field(t, acts, "action.deadline").Records)
			assert.Equal(t, tt.meetingIDAs, field(t, acts, "action.meeting_id").FoundAs)
			assert.Equal(t, 23, field(t, acts, "action.title").Records)
			assert.Equal(t, []string{apiclient.TimeRFC3339, apiclient.TimeDate}, acts.DateFormats)
			assert.Equal(t, []string{"string"}, acts.IDTypes)
			var unmapped []string
			for _, u := range acts.Unmapped {
				unmapped = append(unmapped, u.Name)
			}
			assert.Len(t, unmapped, 1, "only created_at is left unmapped: %v", unmapped)

			mtgs := endpoint(t, in, "GET /meetings")
			assert.True(t, mtgs.OK, mtgs.Error)
			assert.Equal(t, tt.meetingsEnvelope, mtgs.Envelope)
			assert.Equal(t, tt.meetingsPagination, mtgs.Pagination)
			assert.Equal(t, 12, mtgs.Records)
			assert.Equal(t, 12, in.Counts.Meetings)
			assert.Equal(t, 1, field(t, endpoint(t, in, "GET /meetings/{id}"), "meeting.agenda").Records)

			assert.Equal(t, map[apiclient.Status]int{"open": 5, "in_progress": 5, "complete": 5, "cancelled": 4, "deferred": 4}, in.Counts.ActionsByStatus)
			assert.True(t, in.Counts.ActionCountsExact)
			assert.True(t, in.MinutesRule.Held)
			assert.Equal(t, 12, in.MinutesRule.Tried)
			assert.Equal(t, 2, in.MinutesRule.Visible)
			assert.Contains(t, []string{"M00", "M01"}, in.Counts.NewestVisibleMinutes)

			// The report is meant to be printed as JSON too.
			_, err = json.Marshal(in)
			require.NoError(t, err)
		})
	}
}

func TestInspectBrokenSetUps(t *testing.T) {
	t.Parallel()
	t.Run("wrong key", func(t *testing.T) {
		t.Parallel()
		srv, _ := newDialectE2E(t)
		c, err := apiclient.NewClient(srv.URL, "not-the-key", apiclient.WithRetry(0, 0, 0))
		require.NoError(t, err)
		in, err := c.Inspect(t.Context(), nil)
		require.NoError(t, err)
		assert.True(t, in.Reachable)
		assert.False(t, in.KeyAccepted)
		assert.False(t, endpoint(t, in, "GET /actions").OK)
		assert.Contains(t, endpoint(t, in, "GET /actions").Error, "401")
	})
	t.Run("missing scopes", func(t *testing.T) {
		t.Parallel()
		srv, _ := newDialectE2E(t, recordstest.WithKeys(map[string][]recordstest.Scope{"ro": {recordstest.ScopeActionsRead}}))
		c, err := apiclient.NewClient(srv.URL, "ro", apiclient.WithRetry(0, 0, 0))
		require.NoError(t, err)
		in, err := c.Inspect(t.Context(), &apiclient.InspectOptions{WriteCheck: true})
		require.NoError(t, err)
		assert.True(t, in.KeyAccepted)
		assert.Equal(t, apiclient.ScopeOK, scope(in, "actions:read").Result)
		assert.Equal(t, apiclient.ScopeMissing, scope(in, "meetings:read").Result)
		assert.Contains(t, scope(in, "meetings:read").Detail, "meetings:read")
		assert.Equal(t, apiclient.ScopeMissing, scope(in, "actions:write").Result)
		assert.Contains(t, scope(in, "actions:write").Detail, "actions:write")
	})
	t.Run("write check", func(t *testing.T) {
		t.Parallel()
		srv, c := newDialectE2E(t)
		before := srv.Actions()
		in, err := c.Inspect(t.Context(), &apiclient.InspectOptions{WriteCheck: true})
		require.NoError(t, err)
		assert.Equal(t, apiclient.ScopeOK, scope(in, "actions:write").Result)
		assert.Equal(t, 1, srv.Count(http.MethodPut, "/actions/"))
		assert.Equal(t, before, srv.Actions(), "the write changed nothing")
	})
	t.Run("unknown envelope", func(t *testing.T) {
		t.Parallel()
		c := fakeRecords(t, map[string]string{"/actions": `{"records":[{"id":"1","title":"T","status":"open"}]}`})
		in, err := c.Inspect(t.Context(), nil)
		require.NoError(t, err)
		acts := endpoint(t, in, "GET /actions")
		assert.False(t, acts.OK)
		assert.Contains(t, acts.Error, "no array under")
		assert.Equal(t, apiclient.ScopeFailed, scope(in, "actions:read").Result)
	})
	t.Run("unmapped title, then mapped", func(t *testing.T) {
		t.Parallel()
		body := map[string]string{"/actions": `[{"id":7,"subject":"Circulate the budget","status":"open","targetDate":"2026-05-01"}]`}
		in, err := fakeRecords(t, body).Inspect(t.Context(), nil)
		require.NoError(t, err)
		acts := endpoint(t, in, "GET /actions")
		assert.True(t, acts.OK)
		assert.Zero(t, field(t, acts, "action.title").Records, "no title found")
		assert.Equal(t, []apiclient.UnmappedField{
			{Name: "subject", Sample: `"Circulate the budget"`, Records: 1},
			{Name: "targetDate", Sample: `"2026-05-01"`, Records: 1},
		}, acts.Unmapped)
		assert.Equal(t, []string{"number"}, acts.IDTypes)

		fm, err := apiclient.ParseFieldMap("action.title=subject,action.deadline=target_date")
		require.NoError(t, err)
		in, err = fakeRecords(t, body, apiclient.WithFieldMap(fm)).Inspect(t.Context(), nil)
		require.NoError(t, err)
		acts = endpoint(t, in, "GET /actions")
		title := field(t, acts, "action.title")
		assert.Equal(t, []string{"subject"}, title.FoundAs)
		assert.True(t, title.FromFieldMap)
		assert.Equal(t, []string{"targetDate"}, field(t, acts, "action.deadline").FoundAs, "mapped name matched in another casing")
		assert.Empty(t, acts.Unmapped)
		assert.Equal(t, "action.deadline=target_date,action.title=subject", in.FieldMap)
	})
	t.Run("hidden minutes served", func(t *testing.T) {
		t.Parallel()
		c := fakeRecords(t, map[string]string{
			"/meetings":            `[{"id":"M1","title":"Board"},{"id":"M2","title":"Board"}]`,
			"/meetings/M1":         `{"id":"M1","title":"Board"}`,
			"/meetings/M1/minutes": `{"status":"draft","body":"not for you"}`,
			"/meetings/M2/minutes": `{"status":"approved","body":"fine"}`,
		})
		in, err := c.Inspect(t.Context(), nil)
		require.NoError(t, err)
		assert.False(t, in.MinutesRule.Held)
		assert.Equal(t, []string{"M1"}, in.MinutesRule.Violations)
		assert.Equal(t, 1, in.MinutesRule.Visible)
		assert.Equal(t, "M2", in.Counts.NewestVisibleMinutes)
	})
}

// fakeRecords serves fixed JSON bodies by path (after /api/v1); other
// paths get 404.
func fakeRecords(t *testing.T, bodies map[string]string, opts ...apiclient.Option) *apiclient.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := bodies[r.URL.Path[len("/api/v1"):]]
		w.Header().Set("Content-Type", "application/json")
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"not_found"}`))
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", append([]apiclient.Option{apiclient.WithRetry(0, 0, 0)}, opts...)...)
	require.NoError(t, err)
	return c
}

func TestInspectUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	c, err := apiclient.NewClient(url+"/api/v1", "k", apiclient.WithRetry(0, 0, 0))
	require.NoError(t, err)
	in, err := c.Inspect(t.Context(), nil)
	require.NoError(t, err)
	assert.False(t, in.Reachable)
	assert.NotEmpty(t, in.Error)
	assert.False(t, endpoint(t, in, "GET /actions").OK)
}
