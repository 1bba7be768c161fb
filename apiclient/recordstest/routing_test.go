package recordstest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRouting(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	root := strings.TrimSuffix(srv.URL, "/api/v1")
	tests := []struct {
		name       string
		method     string
		url        string
		key        string
		wantStatus int
		wantAllow  string
	}{
		{name: "unknown endpoint", method: http.MethodGet, url: srv.URL + "/people", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "api root", method: http.MethodGet, url: srv.URL + "/", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "trailing slash", method: http.MethodGet, url: srv.URL + "/actions/", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "too deep", method: http.MethodGet, url: srv.URL + "/meetings/mtg-1/minutes/1", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "outside the api", method: http.MethodGet, url: root + "/actions", wantStatus: http.StatusNotFound},
		{name: "other version", method: http.MethodGet, url: root + "/api/v2/actions", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "prefix of the base", method: http.MethodGet, url: root + "/api/v1actions", key: DefaultKey, wantStatus: http.StatusNotFound},
		{name: "unknown endpoint without key", method: http.MethodGet, url: srv.URL + "/people", wantStatus: http.StatusUnauthorized},
		{name: "post actions", method: http.MethodPost, url: srv.URL + "/actions", key: DefaultKey, wantStatus: http.StatusMethodNotAllowed, wantAllow: "GET"},
		{name: "get action", method: http.MethodGet, url: srv.URL + "/actions/A-1", key: DefaultKey, wantStatus: http.StatusMethodNotAllowed, wantAllow: "PUT"},
		{name: "delete meeting", method: http.MethodDelete, url: srv.URL + "/meetings/mtg-1", key: DefaultKey, wantStatus: http.StatusMethodNotAllowed, wantAllow: "GET"},
		{name: "put minutes", method: http.MethodPut, url: srv.URL + "/meetings/mtg-1/minutes", key: DefaultKey, wantStatus: http.StatusMethodNotAllowed, wantAllow: "GET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := send(t, tt.method, tt.url, tt.key, "")
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			assert.Equal(t, "application/json", resp.header.Get("Content-Type"))
			assert.Equal(t, errorCode(tt.wantStatus), decode[errorBody](t, resp.body).Error)
			assert.Equal(t, tt.wantAllow, resp.header.Get("Allow"))
		})
	}
}

func TestRequestsAndCount(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	get(t, srv, "/actions?status=open")
	put(t, srv, "/actions/A-1", `{"status":"complete"}`)
	put(t, srv, "/actions/nope", `{"status":"complete"}`)
	send(t, http.MethodGet, srv.URL+"/meetings", "wrong-key", "")
	send(t, http.MethodGet, strings.TrimSuffix(srv.URL, "/api/v1")+"/healthz", "", "")

	assert.Equal(t, []Request{
		{Method: "GET", Path: "/api/v1/actions", Query: "status=open", Authorized: true, Status: 200},
		{Method: "PUT", Path: "/api/v1/actions/A-1", Authorized: true, Status: 200, Body: `{"status":"complete"}`},
		{Method: "PUT", Path: "/api/v1/actions/nope", Authorized: true, Status: 404, Body: `{"status":"complete"}`},
		{Method: "GET", Path: "/api/v1/meetings", Authorized: false, Status: 401},
		{Method: "GET", Path: "/healthz", Authorized: false, Status: 404},
	}, srv.Requests())

	tests := []struct {
		method, prefix string
		want           int
	}{
		{method: "", prefix: "", want: 5},
		{method: "GET", prefix: "", want: 3},
		{method: "PUT", prefix: "/actions/", want: 2},
		{method: "PUT", prefix: "/actions/A-", want: 1},
		{method: "GET", prefix: "/actions", want: 1},
		{method: "", prefix: "/actions", want: 3},
		{method: "GET", prefix: "/healthz", want: 0},
		{method: "DELETE", prefix: "", want: 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, srv.Count(tt.method, tt.prefix), "Count(%q, %q)", tt.method, tt.prefix)
	}

	srv.ResetRequests()
	assert.Empty(t, srv.Requests())
	assert.Zero(t, srv.Count("", ""))
	get(t, srv, "/meetings")
	assert.Equal(t, 1, srv.Count(http.MethodGet, "/meetings"))
}

func TestRequestBodyTooLarge(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	resp := put(t, srv, "/actions/A-1", `{"status":"`+strings.Repeat("x", maxRequestBody)+`"}`)
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.status)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, reqs[0].Status)
	assert.Len(t, reqs[0].Body, maxRequestBody)
}

func TestNewHandler(t *testing.T) {
	t.Parallel()
	s := NewHandler(WithDataset(fixture()))
	t.Cleanup(s.Close)
	assert.Empty(t, s.URL)

	req := httptest.NewRequestWithContext(t.Context(), http.MethodPut, "/api/v1/actions/A%2F1%20%C3%A9", strings.NewReader(`{"status":"open"}`))
	req.Header.Set("Authorization", "Bearer "+DefaultKey)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, "body: %s", rec.Body)
	a, ok := s.Action("A/1 é")
	require.True(t, ok)
	assert.Equal(t, "open", a.Status)
	assert.Equal(t, 1, s.Count(http.MethodPut, "/actions/"))
}

func TestStateMethods(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)

	srv.AddAction(Action{ID: "A-9", Title: "new", Status: "open"})
	srv.AddAction(Action{ID: "A-1", Title: "replaced", Status: "deferred"})
	ids := []string{}
	for _, a := range srv.Actions() {
		ids = append(ids, a.ID)
	}
	assert.Equal(t, []string{"A-1", "A/1 é", "A", "orphan", "A-9"}, ids, "a replaced action keeps its place")
	a, ok := srv.Action("A-1")
	require.True(t, ok)
	assert.Equal(t, "replaced", a.Title)
	a, ok = srv.Action("A-9")
	require.True(t, ok)
	assert.Equal(t, fixtureNow(), a.CreatedAt, "a zero CreatedAt is stamped with the clock")
	_, ok = srv.Action("missing")
	assert.False(t, ok)

	srv.SetActions([]Action{{ID: "only", Status: "open"}})
	assert.Len(t, srv.Actions(), 1)
	_, ok = srv.Action("A-1")
	assert.False(t, ok)

	srv.AddMeeting(Meeting{ID: "mtg-3", Title: "Newest", Date: fixtureNow()})
	srv.AddMeeting(Meeting{ID: "mtg-1", Title: "Moved back", Date: time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)})
	var titles []string
	for _, m := range srv.Meetings() {
		titles = append(titles, m.Title)
	}
	assert.Equal(t, []string{"Newest", "Governance Committee", "Moved back"}, titles)

	srv.SetMinutes(Minutes{MeetingID: "mtg-2", Status: "approved", Body: "now public"})
	resp := get(t, srv, "/meetings/mtg-2/minutes")
	require.Equal(t, http.StatusOK, resp.status)
	assert.JSONEq(t, `{"minutes": {"status": "approved", "body": "now public", "published_at": "2026-07-20T09:30:00Z"}}`, string(resp.body))
	assert.Len(t, srv.Minutes(), 2, "minutes replace those of the same meeting")
}

func TestServerCopiesRecords(t *testing.T) {
	t.Parallel()
	d := fixture()
	srv := newFixtureServer(t, WithDataset(d))
	d.Meetings[0].Agenda[0].Title = "changed by the caller"
	d.Actions[0].Status = "changed by the caller"

	meetings := srv.Meetings()
	meetings[1].Agenda[0].Title = "changed through Meetings"
	srv.Actions()[0].Status = "changed through Actions"

	resp := get(t, srv, "/meetings/mtg-1")
	assert.Contains(t, string(resp.body), `"title":"Apologies"`)
	a, _ := srv.Action("A-1")
	assert.Equal(t, "open", a.Status)
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			status := []string{"open", "complete"}[i%2]
			for range 10 {
				assert.Equal(t, http.StatusOK, put(t, srv, "/actions/A-1", `{"status":"`+status+`"}`).status)
				assert.Equal(t, http.StatusOK, get(t, srv, "/actions?status="+status).status)
				srv.AddAction(Action{ID: fmt.Sprint("c", i), Status: status})
				srv.AddMeeting(Meeting{ID: fmt.Sprint("m", i)})
				srv.SetMinutes(Minutes{MeetingID: fmt.Sprint("m", i), Status: "approved"})
				_ = srv.Requests()
				_ = srv.Count("PUT", "/actions/")
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 80, srv.Count(http.MethodPut, "/actions/A-1"))
	assert.Len(t, srv.Actions(), 4+8)
}
