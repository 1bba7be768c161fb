package recordstest

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

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
