package apiclient

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests cover the REST conventions the client reads, one signal at a time,
// against a local server under a path prefix. recordstest's dialects cover
// the same end to end (dialect_e2e_test.go).

func TestConventionEnvelopes(t *testing.T) {
	t.Parallel()
	want := []Action{{ID: "a1", Title: "Budget", Status: StatusOpen, Deadline: time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC), MeetingID: "m9"}}
	tests := []struct {
		name, body string
	}{
		{"OData value", `{"@odata.context":"$metadata#actions","value":[{"id":"a1","title":"Budget","status":"open","due_date":"2026-03-14","meeting_id":"m9"}]}`},
		{"HAL _embedded", `{"_embedded":{"actions":[{"id":"a1","title":"Budget","status":"open","due_date":"2026-03-14","meeting_id":"m9","_links":{"self":{"href":"/a/a1"}}}]},"_links":{"self":{"href":"/a"}}}`},
		{"HAL _embedded under another name", `{"_embedded":{"actionList":[{"id":"a1","title":"Budget","status":"open","due_date":"2026-03-14","meeting_id":"m9"}]}}`},
		{"JSON:API with a relationship", `{"data":[{"type":"actions","id":"a1","attributes":{"title":"Budget","status":"open","due-date":"2026-03-14"},"relationships":{"meeting":{"data":{"type":"meetings","id":"m9"}}}}],"meta":{"total":1}}`},
		{"camelCase", `{"data":[{"actionId":"a1","title":"Budget","status":"open","dueDate":"2026-03-14","meetingId":"m9"}]}`},
		{"kebab-case", `{"items":[{"action-id":"a1","title":"Budget","status":"open","due-date":"2026-03-14","meeting-id":"m9"}]}`},
		{"PascalCase envelope and fields", `{"Data":[{"Id":"a1","Title":"Budget","Status":"open","DueDate":"2026-03-14","MeetingId":"m9"}],"TotalCount":1}`},
		{"SCREAMING keys", `{"RESULTS":[{"ID":"a1","TITLE":"Budget","STATUS":"open","DUE_DATE":"2026-03-14","MEETING_ID":"m9"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Equal(t, want, noRaw(list.Actions))
			assert.False(t, list.Truncated, list.TruncatedReason)
		})
	}
}

func TestConventionCasingsOfEveryField(t *testing.T) {
	t.Parallel()
	// One spelling per casing of the multi-word aliases; all must give the
	// same action.
	spell := map[string]func(words ...string) string{
		"snake":  func(w ...string) string { return join(w, "_", false, false) },
		"camel":  func(w ...string) string { return join(w, "", true, false) },
		"kebab":  func(w ...string) string { return join(w, "-", false, false) },
		"pascal": func(w ...string) string { return join(w, "", true, true) },
	}
	for name, sp := range spell {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := fmt.Sprintf(`[{%q:"a1",%q:"T",%q:"open",%q:"x@y.org",%q:"2026-03-14T10:00:00Z",%q:"m9",%q:"Board",%q:"F"}]`,
				sp("row", "id"), sp("summary"), sp("status"), sp("assigned", "to"), sp("due", "at"), sp("meeting", "id"), sp("meeting", "title"), sp("committee", "name"))
			srv := newAPIServer(t, serveJSON(200, body))
			list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, list.Actions, 1, body)
			assert.Equal(t, Action{ID: "a1", Title: "T", Status: StatusOpen, Assignee: Person{Email: "x@y.org"},
				Deadline: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC), DeadlineHasTime: true,
				MeetingID: "m9", MeetingTitle: "Board", Committee: "F"}, noRaw(list.Actions)[0], body)
		})
	}
}

// join spells words with sep, capitalising all but the first (camel) or
// all (pascal) when upper is set.
func join(words []string, sep string, upper, first bool) string {
	out := ""
	for i, w := range words {
		if upper && (i > 0 || first) {
			w = string(w[0]-'a'+'A') + w[1:]
		}
		if i > 0 {
			out += sep
		}
		out += w
	}
	return out
}

func TestConventionPUTAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		want    Action
		wantErr error
	}{
		{name: "one-element array", body: `[{"id":"a1","title":"T","status":"complete"}]`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "JSON:API resource", body: `{"data":{"type":"actions","id":"a1","attributes":{"title":"T","status":"complete"}}}`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "PascalCase envelope", body: `{"Data":{"Id":"a1","Title":"T","Status":"complete"}}`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "array of two is not one row", body: `[{"id":"a1"},{"id":"a2"}]`, wantErr: ErrInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			got, err := newTestClient(t, srv).UpdateActionStatus(t.Context(), "a1", StatusComplete)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			got.Raw = nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestConventionPUT204ReadsBack(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		// Two pages of completed actions; a1 is on the first, so the
		// second is never asked for.
		if r.URL.Query().Get("cursor") == "" {
			serveJSON(200, `{"data":[{"id":"a0","status":"complete"},{"id":"a1","title":"Budget","status":"complete","assignee":"ann@x.org"}],"next_cursor":"2"}`)(w, r)
			return
		}
		serveJSON(200, `{"data":[{"id":"a2","status":"complete"}]}`)(w, r)
	})
	got, err := newTestClient(t, srv).UpdateActionStatus(t.Context(), "a1", StatusComplete)
	require.NoError(t, err)
	got.Raw = nil
	assert.Equal(t, Action{ID: "a1", Title: "Budget", Status: StatusComplete, Assignee: Person{Email: "ann@x.org"}}, *got)
	reqs := srv.requests()
	require.Len(t, reqs, 2, "the PUT and one page of the read-back")
	assert.Equal(t, "status=complete", reqs[1].Query, "read back among the actions with the new status")
}

// TestNoSilentTruncation covers every signal that an answer carries less
// than the list holds: the client either follows it to the end or says
// the list is truncated.
func TestNoSilentTruncation(t *testing.T) {
	t.Parallel()
	rows := func(from, n int) string {
		s := "["
		for i := range n {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprintf(`{"id":"r%d","status":"open"}`, from+i)
		}
		return s + "]"
	}
	tests := []struct {
		name          string
		handler       http.HandlerFunc
		wantRows      int
		wantTotal     int
		wantTruncated string // "" when the whole list must be read
		wantQueries   []string
	}{
		{
			name:          "envelope total beyond the rows, no next",
			handler:       serveJSON(200, `{"data":`+rows(0, 2)+`,"total":5}`),
			wantRows:      2,
			wantTotal:     5,
			wantTruncated: "the server reports 5 actions but sent 2",
			wantQueries:   []string{""},
		},
		{
			name:          "count (as Django REST framework) beyond the rows",
			handler:       serveJSON(200, `{"count":3,"next":null,"results":`+rows(0, 2)+`}`),
			wantRows:      2,
			wantTotal:     3,
			wantTruncated: "the server reports 3 actions but sent 2",
			wantQueries:   []string{""},
		},
		{
			name: "X-Total-Count beyond the rows",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Total-Count", "40")
				serveJSON(200, rows(0, 2))(w, r)
			},
			wantRows:      2,
			wantTotal:     40,
			wantTruncated: "the server reports 40 actions but sent 2",
			wantQueries:   []string{""},
		},
		{
			name:        "total equal to the rows is complete",
			handler:     serveJSON(200, `{"data":`+rows(0, 2)+`,"total_count":2}`),
			wantRows:    2,
			wantTotal:   2,
			wantQueries: []string{""},
		},
		{
			name:        "Content-Range with 206, followed by offset",
			handler:     contentRangeServer(5, 2, true, true),
			wantRows:    5,
			wantTotal:   5,
			wantQueries: []string{"", "limit=2&offset=2", "limit=2&offset=4"},
		},
		{
			name:        "Content-Range without a total, followed to a short page",
			handler:     contentRangeServer(5, 2, false, true),
			wantRows:    5,
			wantQueries: []string{"", "limit=2&offset=2", "limit=2&offset=4"},
		},
		{
			name:        "Content-Range without a total, followed to an empty page",
			handler:     contentRangeServer(4, 2, false, true),
			wantRows:    4,
			wantQueries: []string{"", "limit=2&offset=2", "limit=2&offset=4"},
		},
		{
			name:          "206 from a server that ignores offset",
			handler:       contentRangeServer(5, 2, true, false),
			wantRows:      2,
			wantTotal:     5,
			wantTruncated: "cannot follow the next page: the server answered offset 0 when asked for 2",
			wantQueries:   []string{"", "limit=2&offset=2"},
		},
		{
			name: "206 with no range and no next",
			handler: func(w http.ResponseWriter, r *http.Request) {
				serveJSON(http.StatusPartialContent, rows(0, 2))(w, r)
			},
			wantRows:      2,
			wantTruncated: "206 Partial Content with no Content-Range or next page",
			wantQueries:   []string{""},
		},
		{
			name: "body offset and total, followed",
			handler: func(w http.ResponseWriter, r *http.Request) {
				off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
				serveJSON(200, fmt.Sprintf(`{"data":%s,"offset":%d,"limit":2,"total":3}`, rows(off, min(2, 3-off)), off))(w, r)
			},
			wantRows:    3,
			wantTotal:   3,
			wantQueries: []string{"", "limit=2&offset=2"},
		},
		{
			name: "next link to another host",
			handler: func(w http.ResponseWriter, r *http.Request) {
				serveJSON(200, `{"value":`+rows(0, 2)+`,"@odata.nextLink":"https://elsewhere.example/api/v1/actions?$skip=2"}`)(w, r)
			},
			wantRows:      2,
			wantTruncated: "the next page link leads to https://elsewhere.example, not the records api host",
			wantQueries:   []string{""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, tt.handler)
			list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Len(t, list.Actions, tt.wantRows)
			assert.Equal(t, tt.wantTotal, list.Total)
			assert.Equal(t, tt.wantTruncated != "", list.Truncated)
			assert.Equal(t, tt.wantTruncated, list.TruncatedReason)
			var qs []string
			for _, r := range srv.requests() {
				qs = append(qs, r.Query)
			}
			assert.Equal(t, tt.wantQueries, qs)
		})
	}
}

// contentRangeServer serves n rows as a row API with pages of size rows:
// Content-Range (with the total when withTotal, and then 206 for a part),
// honouring ?offset=&limit= when honour is set.
func contentRangeServer(n, size int, withTotal, honour bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		off, lim := 0, size
		if honour {
			if v, err := strconv.Atoi(q.Get("offset")); err == nil {
				off = v
			}
			if v, err := strconv.Atoi(q.Get("limit")); err == nil {
				lim = min(v, size)
			}
		}
		end := min(off+lim, n)
		body := "["
		for i := off; i < end; i++ {
			if i > off {
				body += ","
			}
			body += fmt.Sprintf(`{"id":"r%d"}`, i)
		}
		body += "]"
		total := "*"
		if withTotal {
			total = strconv.Itoa(n)
		}
		status := http.StatusOK
		if end > off {
			w.Header().Set("Content-Range", fmt.Sprintf("%d-%d/%s", off, end-1, total))
			if withTotal && end-off < n {
				status = http.StatusPartialContent
			}
		} else {
			w.Header().Set("Content-Range", "*/"+total)
		}
		serveJSON(status, body)(w, r)
	}
}

func TestMeetingsTruncation(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(200, `{"meetings":[{"id":"m1"},{"id":"m2"}],"total":9}`))
	page, err := newTestClient(t, srv).ListMeetings(t.Context(), nil)
	require.NoError(t, err)
	assert.Len(t, page.Meetings, 2)
	assert.Equal(t, 9, page.Total)
	assert.True(t, page.Truncated)
	assert.Empty(t, page.Next)
	assert.Equal(t, "the server reports 9 meetings but sent 2 and no way to the next page", page.TruncatedReason)
}

func TestParseContentRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want contentRange
		ok   bool
	}{
		{"0-99/1234", contentRange{0, 99, 1234}, true},
		{"items 0-99/1234", contentRange{0, 99, 1234}, true},
		{" 5-9/* ", contentRange{5, 9, -1}, true},
		{"*/1234", contentRange{-1, -1, 1234}, true},
		{"*/*", contentRange{}, false},
		{"9-5/10", contentRange{}, false},
		{"0-10/10", contentRange{}, false},
		{"0-9", contentRange{}, false},
		{"a-b/c", contentRange{}, false},
		{"-1-5/10", contentRange{}, false},
		{"0-99999999999999999999/*", contentRange{}, false},
		{"", contentRange{}, false},
	}
	for _, tt := range tests {
		got, ok := parseContentRange(tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		if tt.ok {
			assert.Equal(t, tt.want, got, "%q", tt.in)
		}
	}
}

// TestRecordsOfDifferentShapes checks that remembering the members of the
// previous record never carries a field over to a record whose members
// differ in order, casing or number.
func TestRecordsOfDifferentShapes(t *testing.T) {
	t.Parallel()
	body := `[
		{"id":"1","title":"A","due_date":"2026-01-01"},
		{"title":"B","id":"2"},
		{"ID":"3","Title":"C","DueDate":"2026-03-03"},
		{"id":"4","subject":"x","title":"D","status":"open"},
		{"id":"5"},
		{"id":"6","title":"F","due_date":"2026-06-06","extra1":1,"extra2":2}
	]`
	srv := newAPIServer(t, serveJSON(200, body))
	list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
	require.NoError(t, err)
	day := func(m, d int) time.Time { return time.Date(2026, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	assert.Equal(t, []Action{
		{ID: "1", Title: "A", Deadline: day(1, 1)},
		{ID: "2", Title: "B"},
		{ID: "3", Title: "C", Deadline: day(3, 3)},
		{ID: "4", Title: "D", Status: StatusOpen},
		{ID: "5"},
		{ID: "6", Title: "F", Deadline: day(6, 6)},
	}, noRaw(list.Actions))
}
