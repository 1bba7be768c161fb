package recordstest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		opts   []Option
		suffix string
	}{
		{name: "default", suffix: "/api/v1"},
		{name: "prefix", opts: []Option{WithPathPrefix("records")}, suffix: "/records/api/v1"},
		{name: "prefix with slashes", opts: []Option{WithPathPrefix("/records/")}, suffix: "/records/api/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t, tt.opts...)
			assert.Regexp(t, `^http://127\.0\.0\.1:\d+`+regexp.QuoteMeta(tt.suffix)+`$`, srv.URL)
			assert.Equal(t, http.StatusOK, get(t, srv, "/actions").status)
		})
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	tests := []struct {
		name        string
		header      string
		wantStatus  int
		wantMessage string
	}{
		{name: "no header", wantStatus: http.StatusUnauthorized, wantMessage: "missing Authorization header"},
		{name: "basic auth", header: "Basic dGVzdC1rZXk6", wantStatus: http.StatusUnauthorized, wantMessage: "Authorization header is not a bearer token"},
		{name: "unknown key", header: "Bearer nope", wantStatus: http.StatusUnauthorized, wantMessage: "invalid API key"},
		{name: "empty key", header: "Bearer ", wantStatus: http.StatusUnauthorized, wantMessage: "empty bearer token"},
		{name: "scheme only", header: "Bearer", wantStatus: http.StatusUnauthorized, wantMessage: "empty bearer token"},
		{name: "valid", header: "Bearer " + DefaultKey, wantStatus: http.StatusOK},
		{name: "scheme in lower case", header: "bearer " + DefaultKey, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/meetings", nil)
			require.NoError(t, err)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			resp := do(t, req)
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			if tt.wantStatus == http.StatusUnauthorized {
				assert.Equal(t, `Bearer realm="records"`, resp.header.Get("WWW-Authenticate"))
				assert.Equal(t, errorBody{Error: "unauthorized", Message: tt.wantMessage}, decode[errorBody](t, resp.body))
			}
		})
	}
}

func TestScopes(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithKeys(map[string][]Scope{
		"actions-read":  {ScopeActionsRead},
		"actions-write": {ScopeActionsWrite},
		"meetings-read": {ScopeMeetingsRead},
		"no-scope":      {},
	}))
	endpoints := []struct {
		method, path, body string
		scope              Scope
	}{
		{http.MethodGet, "/actions", "", ScopeActionsRead},
		{http.MethodPut, "/actions/A-1", `{"status":"open"}`, ScopeActionsWrite},
		{http.MethodGet, "/meetings", "", ScopeMeetingsRead},
		{http.MethodGet, "/meetings/mtg-1", "", ScopeMeetingsRead},
		{http.MethodGet, "/meetings/mtg-1/minutes", "", ScopeMeetingsRead},
	}
	for _, ep := range endpoints {
		for _, key := range []string{"actions-read", "actions-write", "meetings-read", "no-scope"} {
			t.Run(ep.method+" "+ep.path+" with "+key, func(t *testing.T) {
				t.Parallel()
				resp := send(t, ep.method, srv.URL+ep.path, key, ep.body)
				if key == strings.ReplaceAll(string(ep.scope), ":", "-") {
					assert.Equal(t, http.StatusOK, resp.status, "body: %s", resp.body)
					return
				}
				require.Equal(t, http.StatusForbidden, resp.status, "body: %s", resp.body)
				assert.Equal(t, errorBody{Error: "forbidden", Message: "missing scope " + string(ep.scope)}, decode[errorBody](t, resp.body))
			})
		}
	}
}

func TestWithKeysReplacesDefaultKey(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithKeys(map[string][]Scope{"other": AllScopes()}))
	assert.Equal(t, http.StatusUnauthorized, get(t, srv, "/actions").status)
	assert.Equal(t, http.StatusOK, send(t, http.MethodGet, srv.URL+"/actions", "other", "").status)
}

func TestListActions(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)

	resp := get(t, srv, "/actions")
	require.Equal(t, http.StatusOK, resp.status)
	assert.Equal(t, "application/json", resp.header.Get("Content-Type"))
	// The whole body, so that every field name and format is pinned: the
	// client is written against exactly this.
	assert.JSONEq(t, `{"data": [
		{"id": "A-1", "title": "Circulate the forecast", "status": "open",
		 "assignee": {"email": "alice@example.org", "name": "Alice Adams"},
		 "due_date": "2026-07-22",
		 "meeting": {"id": "mtg-1", "title": "Finance Committee: Budget"}, "committee": "Finance",
		 "created_at": "2026-07-03T09:00:00Z"},
		{"id": "A/1 é", "title": "Check <!channel> & <@U123>", "status": "in_progress",
		 "assignee": {"email": "bob@example.org"},
		 "deadline": "2026-07-21T17:00:00Z",
		 "meeting": {"id": "mtg-2", "title": "Governance Committee"}, "committee": "Governance",
		 "created_at": "2026-07-10T09:00:00Z"},
		{"id": "A", "title": "Unassigned, no deadline, no meeting", "status": "complete",
		 "created_at": "2026-07-11T09:00:00Z"},
		{"id": "orphan", "title": "From a meeting the server lacks", "status": "open",
		 "meeting": {"id": "gone"}, "created_at": "2026-07-12T09:00:00Z"}
	]}`, string(resp.body))
	assert.Contains(t, string(resp.body), "<!channel> & <@U123>", "HTML characters are sent unescaped")
}

func TestListActionsStatusFilter(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	tests := []struct {
		query   string
		wantIDs []string
	}{
		{query: "", wantIDs: []string{"A-1", "A/1 é", "A", "orphan"}},
		{query: "?status=", wantIDs: []string{"A-1", "A/1 é", "A", "orphan"}},
		{query: "?status=open", wantIDs: []string{"A-1", "orphan"}},
		{query: "?status=in_progress", wantIDs: []string{"A/1 é"}},
		{query: "?status=complete", wantIDs: []string{"A"}},
		{query: "?status=cancelled", wantIDs: []string{}},
		{query: "?status=deferred", wantIDs: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			t.Parallel()
			resp := get(t, srv, "/actions"+tt.query)
			require.Equal(t, http.StatusOK, resp.status)
			page := decode[actionPage](t, resp.body)
			ids := []string{}
			for _, a := range page.Data {
				ids = append(ids, a.ID)
			}
			assert.Equal(t, tt.wantIDs, ids)
			assert.Nil(t, page.NextCursor, "a single page has no next_cursor")
			assert.Contains(t, string(resp.body), `"data":[`, "an empty list is [], not null")
		})
	}

	t.Run("unknown status", func(t *testing.T) {
		t.Parallel()
		resp := get(t, srv, "/actions?status=done")
		require.Equal(t, http.StatusBadRequest, resp.status)
		assert.Equal(t, errorBody{
			Error:   "bad_request",
			Message: `unknown status "done": want one of open, in_progress, complete, cancelled, deferred`,
		}, decode[errorBody](t, resp.body))
	})
}

// walkActions follows next_cursor from query to the last page and returns
// the IDs seen and the number of pages.
func walkActions(t *testing.T, srv *Server, query string) (ids []string, pages int) {
	t.Helper()
	next := ""
	for {
		q := url.Values{}
		if query != "" {
			q.Set("status", query)
		}
		if next != "" {
			q.Set("cursor", next)
		}
		resp := get(t, srv, "/actions?"+q.Encode())
		require.Equal(t, http.StatusOK, resp.status, "body: %s", resp.body)
		page := decode[actionPage](t, resp.body)
		pages++
		for _, a := range page.Data {
			ids = append(ids, a.ID)
		}
		if page.NextCursor == nil {
			return ids, pages
		}
		require.NotEmpty(t, *page.NextCursor)
		require.Less(t, pages, 100, "pagination does not end")
		next = *page.NextCursor
	}
}

func TestListActionsPagination(t *testing.T) {
	t.Parallel()
	var actions []Action
	var allIDs, openIDs []string
	for i := range 10 {
		a := Action{ID: fmt.Sprintf("act-%02d", i), Title: "t", Status: "open"}
		if i%3 == 0 {
			a.Status = "deferred"
		} else {
			openIDs = append(openIDs, a.ID)
		}
		actions = append(actions, a)
		allIDs = append(allIDs, a.ID)
	}
	tests := []struct {
		name      string
		pageSize  int
		status    string
		wantIDs   []string
		wantPages int
	}{
		{name: "uneven pages", pageSize: 3, wantIDs: allIDs, wantPages: 4},
		{name: "even pages", pageSize: 5, wantIDs: allIDs, wantPages: 2},
		{name: "one page", pageSize: 10, wantIDs: allIDs, wantPages: 1},
		{name: "filtered", pageSize: 3, status: "open", wantIDs: openIDs, wantPages: 2},
		{name: "filtered, uneven pages", pageSize: 4, status: "open", wantIDs: openIDs, wantPages: 2},
		{name: "filtered to nothing", pageSize: 3, status: "complete", wantIDs: nil, wantPages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t, WithPageSize(tt.pageSize))
			srv.SetActions(actions)
			ids, pages := walkActions(t, srv, tt.status)
			assert.Equal(t, tt.wantIDs, ids)
			assert.Equal(t, tt.wantPages, pages)
		})
	}
}

func TestListActionsDefaultPageSize(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	var actions []Action
	for i := range 250 {
		actions = append(actions, Action{ID: fmt.Sprint(i), Status: "open"})
	}
	srv.SetActions(actions)
	resp := get(t, srv, "/actions")
	require.Equal(t, http.StatusOK, resp.status)
	assert.Len(t, decode[actionPage](t, resp.body).Data, 100)
	ids, pages := walkActions(t, srv, "")
	assert.Len(t, ids, 250)
	assert.Equal(t, 3, pages)
}

func TestListActionsCursorSurvivesUpdates(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithPageSize(2))
	srv.SetActions([]Action{
		{ID: "1", Status: "open"}, {ID: "2", Status: "open"}, {ID: "3", Status: "open"},
		{ID: "4", Status: "open"}, {ID: "5", Status: "open"},
	})
	first := decode[actionPage](t, get(t, srv, "/actions?status=open").body)
	require.Len(t, first.Data, 2)
	require.NotNil(t, first.NextCursor)
	// Completing what the first page showed must not make the walk skip
	// the actions after it, as an offset would.
	for _, a := range first.Data {
		require.Equal(t, http.StatusOK, put(t, srv, "/actions/"+a.ID, `{"status":"complete"}`).status)
	}
	second := decode[actionPage](t, get(t, srv, "/actions?status=open&cursor="+url.QueryEscape(*first.NextCursor)).body)
	require.Len(t, second.Data, 2)
	assert.Equal(t, "3", second.Data[0].ID)
	assert.Equal(t, "4", second.Data[1].ID)
}

func TestListActionsBadCursor(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithPageSize(1))
	first := decode[actionPage](t, get(t, srv, "/actions").body)
	require.NotNil(t, first.NextCursor)
	stale := *first.NextCursor

	tests := []struct {
		name   string
		cursor string
	}{
		{name: "not base64", cursor: "%%%"},
		{name: "not ours", cursor: "QS0x"}, // base64 of "A-1"
		{name: "empty id", cursor: encodeCursor("")},
		{name: "unknown action", cursor: encodeCursor("no-such-action")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := get(t, srv, "/actions?cursor="+url.QueryEscape(tt.cursor))
			require.Equal(t, http.StatusBadRequest, resp.status, "body: %s", resp.body)
			assert.Equal(t, "bad_request", decode[errorBody](t, resp.body).Error)
		})
	}

	t.Run("stale after SetActions", func(t *testing.T) {
		t.Parallel()
		srv := newFixtureServer(t, WithPageSize(1))
		srv.SetActions([]Action{{ID: "new"}})
		assert.Equal(t, http.StatusBadRequest, get(t, srv, "/actions?cursor="+url.QueryEscape(stale)).status)
	})
}

func TestUpdateAction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		path        string
		contentType string
		body        string
		wantStatus  int
		wantMessage string // for errors; a prefix
	}{
		{name: "valid", path: "/actions/A-1", body: `{"status":"complete"}`, wantStatus: http.StatusOK},
		{name: "content type with charset", path: "/actions/A-1", contentType: "application/json; charset=utf-8", body: `{"status":"complete"}`, wantStatus: http.StatusOK},
		{name: "surrounding whitespace", path: "/actions/A-1", body: " {\"status\":\"complete\"}\n", wantStatus: http.StatusOK},
		{name: "unknown status", path: "/actions/A-1", body: `{"status":"done"}`, wantStatus: http.StatusBadRequest,
			wantMessage: `invalid status "done": want one of open, in_progress, complete, cancelled, deferred`},
		{name: "status in wrong case", path: "/actions/A-1", body: `{"status":"Complete"}`, wantStatus: http.StatusBadRequest, wantMessage: `invalid status "Complete"`},
		{name: "no status", path: "/actions/A-1", body: `{}`, wantStatus: http.StatusBadRequest, wantMessage: "status is required"},
		{name: "null body", path: "/actions/A-1", body: `null`, wantStatus: http.StatusBadRequest, wantMessage: "status is required"},
		{name: "status not a string", path: "/actions/A-1", body: `{"status":3}`, wantStatus: http.StatusBadRequest, wantMessage: "invalid JSON body"},
		{name: "unknown field", path: "/actions/A-1", body: `{"status":"complete","note":"x"}`, wantStatus: http.StatusBadRequest, wantMessage: "invalid JSON body"},
		{name: "malformed JSON", path: "/actions/A-1", body: `{"status":`, wantStatus: http.StatusBadRequest, wantMessage: "invalid JSON body"},
		{name: "two objects", path: "/actions/A-1", body: `{"status":"open"}{"status":"open"}`, wantStatus: http.StatusBadRequest, wantMessage: "invalid JSON body: data after the object"},
		{name: "empty body", path: "/actions/A-1", body: "", wantStatus: http.StatusBadRequest, wantMessage: "invalid JSON body"},
		{name: "form content type", path: "/actions/A-1", contentType: "application/x-www-form-urlencoded", body: `status=complete`, wantStatus: http.StatusBadRequest, wantMessage: "Content-Type must be application/json"},
		{name: "no content type", path: "/actions/A-1", contentType: "-", body: `{"status":"complete"}`, wantStatus: http.StatusBadRequest, wantMessage: "Content-Type must be application/json"},
		{name: "no such action", path: "/actions/A-2", body: `{"status":"complete"}`, wantStatus: http.StatusNotFound, wantMessage: `no action "A-2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t)
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, srv.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer "+DefaultKey)
			switch tt.contentType {
			case "":
				req.Header.Set("Content-Type", "application/json")
			case "-":
			default:
				req.Header.Set("Content-Type", tt.contentType)
			}
			resp := do(t, req)
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			assert.Equal(t, "application/json", resp.header.Get("Content-Type"))
			stored, ok := srv.Action("A-1")
			require.True(t, ok)
			if tt.wantStatus != http.StatusOK {
				got := decode[errorBody](t, resp.body)
				assert.Equal(t, errorCode(tt.wantStatus), got.Error)
				assert.True(t, strings.HasPrefix(got.Message, tt.wantMessage), "message %q, want prefix %q", got.Message, tt.wantMessage)
				assert.Equal(t, "open", stored.Status, "a refused update changes nothing")
				return
			}
			assert.JSONEq(t, `{"data": {"id": "A-1", "title": "Circulate the forecast", "status": "complete",
				"assignee": {"email": "alice@example.org", "name": "Alice Adams"}, "due_date": "2026-07-22",
				"meeting": {"id": "mtg-1", "title": "Finance Committee: Budget"}, "committee": "Finance",
				"created_at": "2026-07-03T09:00:00Z"}}`, string(resp.body))
			assert.Equal(t, "complete", stored.Status)
		})
	}
}

func TestUpdateActionEscapedID(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	// "A/1 é" must reach the action of that ID, not action "A" with a
	// stray "/1 é" nor a 404.
	escaped := url.PathEscape("A/1 é")
	require.Equal(t, "A%2F1%20%C3%A9", escaped)

	resp := put(t, srv, "/actions/"+escaped, `{"status":"deferred"}`)
	require.Equal(t, http.StatusOK, resp.status, "body: %s", resp.body)
	assert.Equal(t, "A/1 é", decode[struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}](t, resp.body).Data.ID)

	got, ok := srv.Action("A/1 é")
	require.True(t, ok)
	assert.Equal(t, "deferred", got.Status)
	untouched, ok := srv.Action("A")
	require.True(t, ok)
	assert.Equal(t, "complete", untouched.Status)

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/api/v1/actions/A%2F1%20%C3%A9", reqs[0].Path, "the path is recorded as sent")
	assert.Equal(t, 1, srv.Count(http.MethodPut, "/actions/A%2F1"))

	// Unescaped, the slash splits the path: no such endpoint.
	assert.Equal(t, http.StatusNotFound, put(t, srv, "/actions/A/1", `{"status":"open"}`).status)
}

func TestListMeetingsPagination(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithDataset(Dataset{}), WithPathPrefix("/records"))
	base := time.Date(2026, time.January, 1, 18, 0, 0, 0, time.UTC)
	// Added oldest first and out of order: the listing must sort.
	for _, day := range []int{3, 1, 11, 5, 2, 9, 4, 8, 6, 10, 7, 0} {
		srv.AddMeeting(Meeting{ID: fmt.Sprintf("m%02d", day), Title: "t", Date: base.AddDate(0, 0, day)})
	}

	var ids []string
	next := srv.URL + "/meetings"
	for pages := 1; ; pages++ {
		require.LessOrEqual(t, pages, 3, "more pages than 12 meetings at 5 a page need")
		resp := send(t, http.MethodGet, next, DefaultKey, "")
		require.Equal(t, http.StatusOK, resp.status, "body: %s", resp.body)
		page := decode[struct {
			Meetings []struct {
				ID string `json:"id"`
			} `json:"meetings"`
		}](t, resp.body)
		for _, m := range page.Meetings {
			ids = append(ids, m.ID)
		}
		links := parseLinks(resp.header.Get("Link"))
		if pages > 1 {
			assert.Equal(t, fmt.Sprintf("%s/meetings?page=%d", srv.URL, pages-1), links["prev"])
		} else {
			assert.NotContains(t, links, "prev")
		}
		if links["next"] == "" {
			assert.Equal(t, 3, pages)
			break
		}
		// The link is absolute, on the host asked, and keeps the prefix.
		assert.Equal(t, fmt.Sprintf("%s/meetings?page=%d", srv.URL, pages+1), links["next"])
		next = links["next"]
	}
	assert.Equal(t, []string{"m11", "m10", "m09", "m08", "m07", "m06", "m05", "m04", "m03", "m02", "m01", "m00"}, ids)
}

// parseLinks maps rel to URL in a Link header.
func parseLinks(h string) map[string]string {
	links := map[string]string{}
	for _, m := range regexp.MustCompile(`<([^>]*)>;\s*rel="([^"]*)"`).FindAllStringSubmatch(h, -1) {
		links[m[2]] = m[1]
	}
	return links
}

func TestListMeetingsPages(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithPageSize(1))
	tests := []struct {
		query      string
		wantStatus int
		wantBody   string
	}{
		{query: "", wantStatus: http.StatusOK, wantBody: `{"meetings": [{"id": "mtg-2", "title": "Governance Committee", "committee": "Governance", "date": "2026-07-09T18:30:00Z"}]}`},
		{query: "?page=2", wantStatus: http.StatusOK, wantBody: `{"meetings": [{"id": "mtg-1", "reference": "FIN-2026-07", "title": "Finance Committee: Budget", "committee": "Finance", "date": "2026-07-02T17:00:00Z", "location": "Room 2"}]}`},
		{query: "?page=3", wantStatus: http.StatusOK, wantBody: `{"meetings": []}`},
		{query: "?page=9223372036854775807", wantStatus: http.StatusOK, wantBody: `{"meetings": []}`},
		{query: "?page=0", wantStatus: http.StatusBadRequest},
		{query: "?page=-1", wantStatus: http.StatusBadRequest},
		{query: "?page=two", wantStatus: http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			t.Parallel()
			resp := get(t, srv, "/meetings"+tt.query)
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			if tt.wantBody != "" {
				assert.JSONEq(t, tt.wantBody, string(resp.body))
			}
		})
	}
}

func TestGetMeeting(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	const mtg1 = `{"data": {"id": "mtg-1", "reference": "FIN-2026-07", "title": "Finance Committee: Budget",
		"committee": "Finance", "date": "2026-07-02T17:00:00Z", "location": "Room 2",
		"agenda": [{"number": 1, "title": "Apologies", "description": "Apologies for absence."},
		           {"number": 2, "title": "Budget", "description": "Quarterly review."}]}}`
	tests := []struct {
		name       string
		id         string
		wantStatus int
		wantBody   string
	}{
		{name: "by id", id: "mtg-1", wantStatus: http.StatusOK, wantBody: mtg1},
		{name: "by reference", id: "FIN-2026-07", wantStatus: http.StatusOK, wantBody: mtg1},
		{name: "by reference in lower case", id: "fin-2026-07", wantStatus: http.StatusOK, wantBody: mtg1},
		{name: "no agenda", id: "mtg-2", wantStatus: http.StatusOK, wantBody: `{"data": {"id": "mtg-2", "title": "Governance Committee",
			"committee": "Governance", "date": "2026-07-09T18:30:00Z", "agenda": []}}`},
		{name: "id is case-sensitive", id: "MTG-1", wantStatus: http.StatusNotFound, wantBody: `{"error": "not_found", "message": "no meeting \"MTG-1\""}`},
		{name: "unknown", id: "FIN-2026-08", wantStatus: http.StatusNotFound, wantBody: `{"error": "not_found", "message": "no meeting \"FIN-2026-08\""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := get(t, srv, "/meetings/"+url.PathEscape(tt.id))
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			assert.JSONEq(t, tt.wantBody, string(resp.body))
		})
	}
}

func TestGetMinutes(t *testing.T) {
	t.Parallel()
	updated := time.Date(2026, time.July, 9, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		minutes    *Minutes // stored for mtg-1 in place of the fixture's
		path       string
		wantStatus int
		wantBody   string
	}{
		{
			name: "approved", path: "mtg-1", wantStatus: http.StatusOK,
			wantBody: `{"minutes": {"status": "approved", "body": "# Minutes\n\n- agreed",
				"url": "https://records.example.org/m/1", "published_at": "2026-07-09T20:00:00Z"}}`,
		},
		{
			name: "by reference", path: "fin-2026-07", wantStatus: http.StatusOK,
			wantBody: `{"minutes": {"status": "approved", "body": "# Minutes\n\n- agreed",
				"url": "https://records.example.org/m/1", "published_at": "2026-07-09T20:00:00Z"}}`,
		},
		{
			name:    "published draft without url",
			minutes: &Minutes{MeetingID: "mtg-1", Status: "published_draft", Body: "draft", UpdatedAt: updated},
			path:    "mtg-1", wantStatus: http.StatusOK,
			wantBody: `{"minutes": {"status": "published_draft", "body": "draft", "published_at": "2026-07-09T20:00:00Z"}}`,
		},
		{
			name:    "html",
			minutes: &Minutes{MeetingID: "mtg-1", Status: "approved", Body: "<p>Agreed</p>", HTML: true, UpdatedAt: updated},
			path:    "mtg-1", wantStatus: http.StatusOK,
			wantBody: `{"minutes": {"status": "approved", "html": "<p>Agreed</p>", "published_at": "2026-07-09T20:00:00Z"}}`,
		},
		{name: "in review", path: "mtg-2", wantStatus: http.StatusNotFound},
		{name: "draft", minutes: &Minutes{MeetingID: "mtg-1", Status: "draft", Body: "x"}, path: "mtg-1", wantStatus: http.StatusNotFound},
		{name: "no status", minutes: &Minutes{MeetingID: "mtg-1", Body: "x"}, path: "mtg-1", wantStatus: http.StatusNotFound},
		{name: "status in wrong case", minutes: &Minutes{MeetingID: "mtg-1", Status: "Approved", Body: "x"}, path: "mtg-1", wantStatus: http.StatusNotFound},
		{name: "no minutes", minutes: &Minutes{MeetingID: "other"}, path: "mtg-3", wantStatus: http.StatusNotFound},
		{
			name:    "minutes of a meeting the server lacks",
			minutes: &Minutes{MeetingID: "x/y", Status: "approved", Body: "b", UpdatedAt: updated},
			path:    url.PathEscape("x/y"), wantStatus: http.StatusOK,
			wantBody: `{"minutes": {"status": "approved", "body": "b", "published_at": "2026-07-09T20:00:00Z"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t)
			if tt.minutes != nil {
				srv.SetMinutes(*tt.minutes)
			}
			resp := get(t, srv, "/meetings/"+tt.path+"/minutes")
			require.Equal(t, tt.wantStatus, resp.status, "body: %s", resp.body)
			if tt.wantStatus == http.StatusNotFound {
				assert.Equal(t, "not_found", decode[errorBody](t, resp.body).Error)
				assert.NotContains(t, string(resp.body), "secret")
				return
			}
			assert.JSONEq(t, tt.wantBody, string(resp.body))
		})
	}
}

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
