package apiclient

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListEnvelopes(t *testing.T) {
	t.Parallel()
	two := `[{"id":"1"},{"id":"2"}]`
	tests := []struct {
		name    string
		body    string
		wantIDs []string
		wantErr error
	}{
		{name: "bare array", body: two, wantIDs: []string{"1", "2"}},
		{name: "bare array with whitespace", body: "\n [ {\"id\" : \"1\"} ,\n{\"id\":\"2\"} ] \n", wantIDs: []string{"1", "2"}},
		{name: "empty array", body: `[]`, wantIDs: []string{}},
		{name: "data", body: `{"data":` + two + `,"meta":{}}`, wantIDs: []string{"1", "2"}},
		{name: "items", body: `{"total":2,"items":` + two + `}`, wantIDs: []string{"1", "2"}},
		{name: "results", body: `{"count":2,"results":` + two + `}`, wantIDs: []string{"1", "2"}},
		{name: "resource name", body: `{"actions":` + two + `}`, wantIDs: []string{"1", "2"}},
		{name: "data preferred", body: `{"actions":[{"id":"x"}],"data":` + two + `}`, wantIDs: []string{"1", "2"}},
		{name: "data not an array", body: `{"data":{"kind":"x"},"actions":` + two + `}`, wantIDs: []string{"1", "2"}},
		{name: "data null", body: `{"data":null}`, wantIDs: []string{}},
		{name: "no list", body: `{"meetings":[]}`, wantErr: ErrInvalidResponse},
		{name: "string body", body: `"hello"`, wantErr: ErrInvalidResponse},
		{name: "element not an object", body: `[{"id":"1"},"2"]`, wantErr: ErrInvalidResponse},
		{name: "malformed", body: `[{"id":"1"}`, wantErr: ErrInvalidResponse},
		{name: "trailing garbage", body: `[] []`, wantErr: ErrInvalidResponse},
		{name: "empty body", body: ``, wantErr: ErrInvalidResponse},
		{name: "html", body: `<html>oops</html>`, wantErr: ErrInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			c := newTestClient(t, srv)
			list, err := c.ListActions(t.Context(), nil)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			ids := []string{}
			for _, a := range list.Actions {
				ids = append(ids, a.ID)
			}
			assert.Equal(t, tt.wantIDs, ids)
		})
	}
}

func TestRawIsExactCopy(t *testing.T) {
	t.Parallel()
	records := []string{`{"id": 1, "x": {"y": [1, 2, "]}"]}}`, `{ "id" : "2", "note": "\"quoted\" \\ back" }`}
	body := "{\"data\": [\n  " + records[0] + ",\n  " + records[1] + "\n], \"meta\": {}}"
	var calls atomic.Int32
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			serveJSON(200, body)(w, r)
			return
		}
		// Different bytes of the same length overwrite a reused buffer.
		serveJSON(200, strings.Repeat(" ", len(body)-2)+"[]")(w, r)
	})
	c := newTestClient(t, srv, WithRawRecords())
	list, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, list.Actions, 2)
	for i, a := range list.Actions {
		assert.Equal(t, records[i], string(a.Raw))
		assert.True(t, json.Valid(a.Raw))
	}
	// Raw outlives the read buffer, which the next call reuses.
	_, err = c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, records[0], string(list.Actions[0].Raw))
	// Appending to one Raw must not write into its neighbour.
	_ = append(list.Actions[0].Raw, "XXXXXXXX"...)
	assert.Equal(t, records[1], string(list.Actions[1].Raw))

	m := newAPIServer(t, serveJSON(200, ` {"data": {"id": "m1", "agenda": []}} `))
	got, err := newTestClient(t, m).GetMeeting(t.Context(), "m1")
	require.NoError(t, err)
	assert.Equal(t, `{"id": "m1", "agenda": []}`, string(got.Raw))
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestActionFields(t *testing.T) {
	t.Parallel()
	due := date(2026, 3, 14)
	tests := []struct {
		name   string
		record string
		want   Action
	}{
		{
			name:   "stub shape",
			record: `{"id":"act-000001","meeting_id":"mtg-0001","title":"Draft the plan","description":"Raised in mtg-0001","status":"open","assignee":{"email":"user1@example.org","name":"User 1"},"due_date":"2026-03-14","created_at":"2026-11-02T09:01:00Z"}`,
			want:   Action{ID: "act-000001", MeetingID: "mtg-0001", Title: "Draft the plan", Status: StatusOpen, Assignee: Person{Email: "user1@example.org", Name: "User 1"}, Deadline: due},
		},
		{name: "numeric id", record: `{"id":42}`, want: Action{ID: "42"}},
		{name: "big numeric id", record: `{"id":12345678901234567890}`, want: Action{ID: "12345678901234567890"}},
		{name: "action_id", record: `{"action_id":"a-9"}`, want: Action{ID: "a-9"}},
		{name: "row_id number", record: `{"row_id":7}`, want: Action{ID: "7"}},
		{name: "id beats aliases in any order", record: `{"row_id":"r","action_id":"a","id":"i"}`, want: Action{ID: "i"}},
		{name: "null id falls through", record: `{"id":null,"action_id":"a"}`, want: Action{ID: "a"}},
		{name: "empty id falls through", record: `{"id":"","row_id":3}`, want: Action{ID: "3"}},
		{name: "duplicate key first wins", record: `{"id":"first","id":"second"}`, want: Action{ID: "first"}},
		{name: "title priority", record: `{"name":"n","summary":"s","text":"x","description":"d"}`, want: Action{Title: "d"}},
		{name: "empty title skipped", record: `{"title":"","description":"","text":"t"}`, want: Action{Title: "t"}},
		{name: "non-string title skipped", record: `{"title":5,"name":"n"}`, want: Action{Title: "n"}},
		{name: "escaped title", record: `{"title":"Caf\u00e9 \"Q&A\"\n"}`, want: Action{Title: "Café \"Q&A\"\n"}},
		{name: "status in capitals", record: `{"status":"IN_PROGRESS"}`, want: Action{Status: StatusInProgress}},
		{name: "unknown status kept", record: `{"status":"Blocked"}`, want: Action{Status: "Blocked"}},
		{name: "assignee email string", record: `{"assignee":"jane@example.org"}`, want: Action{Assignee: Person{Email: "jane@example.org"}}},
		{name: "assignee slack id", record: `{"assigned_to":"U024BE7LH"}`, want: Action{Assignee: Person{SlackID: "U024BE7LH"}}},
		{name: "assignee slack mention", record: `{"owner":"<@W0123ABCD|jane>"}`, want: Action{Assignee: Person{SlackID: "W0123ABCD"}}},
		{name: "assignee name", record: `{"owner":"Jane Doe"}`, want: Action{Assignee: Person{Name: "Jane Doe"}}},
		{name: "capital name not an id", record: `{"owner":"UNASSIGNED"}`, want: Action{Assignee: Person{Name: "UNASSIGNED"}}},
		{name: "assignee_email", record: `{"assignee_email":"j@x.org"}`, want: Action{Assignee: Person{Email: "j@x.org"}}},
		{name: "assignee object", record: `{"assignee":{"id":17,"name":"Jane","email":"j@x.org","slack_id":"U1234567"}}`, want: Action{Assignee: Person{ID: "17", Name: "Jane", Email: "j@x.org", SlackID: "U1234567"}}},
		{name: "assignee aliases merge", record: `{"assignee_email":"j@x.org","assignee":"Jane","owner":"Other"}`, want: Action{Assignee: Person{Name: "Jane", Email: "j@x.org"}}},
		{name: "assignee null", record: `{"assignee":null}`, want: Action{}},
		{name: "deadline date", record: `{"deadline":"2026-03-14"}`, want: Action{Deadline: due}},
		{name: "due rfc3339", record: `{"due":"2026-03-14T17:30:00Z"}`, want: Action{Deadline: time.Date(2026, 3, 14, 17, 30, 0, 0, time.UTC), DeadlineHasTime: true}},
		{name: "due_at with offset", record: `{"due_at":"2026-03-14T17:30:00.5+02:00"}`, want: Action{Deadline: time.Date(2026, 3, 14, 15, 30, 0, 5e8, time.UTC), DeadlineHasTime: true}},
		{name: "unparseable deadline is zero", record: `{"deadline":"next Tuesday"}`, want: Action{}},
		{name: "invalid date is zero", record: `{"due_date":"2026-02-30"}`, want: Action{}},
		{name: "bad deadline falls through", record: `{"deadline":"soon","due_date":"2026-03-14"}`, want: Action{Deadline: due}},
		{name: "meeting scalar", record: `{"meeting":12}`, want: Action{MeetingID: "12"}},
		{name: "meeting object", record: `{"meeting":{"id":"m1","title":"Board"}}`, want: Action{MeetingID: "m1", MeetingTitle: "Board"}},
		{name: "meeting_id beats meeting", record: `{"meeting":{"id":"m2","title":"Board"},"meeting_id":"m1"}`, want: Action{MeetingID: "m1", MeetingTitle: "Board"}},
		{name: "committee string", record: `{"committee":"Finance"}`, want: Action{Committee: "Finance"}},
		{name: "committee object", record: `{"committee":{"id":3,"name":"Finance"}}`, want: Action{Committee: "Finance"}},
		{name: "json api attributes", record: `{"id":"5","type":"action","attributes":{"title":"T","status":"open","id":"ignored"}}`, want: Action{ID: "5", Title: "T", Status: StatusOpen}},
		{name: "unknown fields ignored", record: `{"id":"1","extra":{"deep":[1,2,{"title":"no"}]}}`, want: Action{ID: "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, `[`+tt.record+`]`))
			list, err := newTestClient(t, srv, WithRawRecords()).ListActions(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, list.Actions, 1)
			got := list.Actions[0]
			assert.Equal(t, tt.record, string(got.Raw))
			got.Raw = nil
			if !tt.want.Deadline.IsZero() {
				assert.True(t, tt.want.Deadline.Equal(got.Deadline), "deadline %v, want %v", got.Deadline, tt.want.Deadline)
				got.Deadline = tt.want.Deadline
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMeetingFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want Meeting
	}{
		{
			name: "full",
			body: `{"id":"m1","reference":"FIN-2026-03","title":"Finance committee","committee":"Finance","date":"2026-03-02T18:00:00Z","location":"Room 4","agenda":[{"number":"1","title":"Apologies"},{"position":2,"name":"Budget","description":"Q2 numbers"}]}`,
			want: Meeting{ID: "m1", Reference: "FIN-2026-03", Title: "Finance committee", Committee: "Finance", Date: time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC), DateHasTime: true, Location: "Room 4",
				Agenda: []AgendaItem{{Number: "1", Title: "Apologies"}, {Number: "2", Title: "Budget", Description: "Q2 numbers"}}},
		},
		{
			name: "aliases",
			body: `{"meeting_id":9,"code":"B-1","name":"Board","committee_name":{"name":"Board"},"starts_at":"2026-03-02","location":{"name":"Hall"},"agenda_items":[{"order":"4b","text":"AOB","notes":"n"},"Close"]}`,
			want: Meeting{ID: "9", Reference: "B-1", Title: "Board", Committee: "Board", Date: date(2026, 3, 2), Location: "Hall",
				Agenda: []AgendaItem{{Number: "4b", Title: "AOB", Description: "n"}, {Title: "Close"}}},
		},
		{name: "row id and number", body: `{"row_id":"r1","number":12,"held_at":"2026-03-02 10:00:00"}`, want: Meeting{ID: "r1", Reference: "12", Date: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), DateHasTime: true}},
		{name: "scheduled_at and items", body: `{"id":"m","scheduled_at":"bogus","start":"2026-03-02","items":[{"title":"x"},7,null]}`, want: Meeting{ID: "m", Date: date(2026, 3, 2), Agenda: []AgendaItem{{Title: "x"}}}},
		{name: "under data", body: `{"data":{"id":"m1","title":"T"}}`, want: Meeting{ID: "m1", Title: "T"}},
		{name: "under meeting with agenda beside", body: `{"meeting":{"id":"m1","title":"T"},"agenda":[{"title":"A"}]}`, want: Meeting{ID: "m1", Title: "T", Agenda: []AgendaItem{{Title: "A"}}}},
		{name: "record with a data field is not unwrapped", body: `{"id":"m1","data":{"id":"other"}}`, want: Meeting{ID: "m1"}},
		{name: "missing id filled", body: `{"title":"T"}`, want: Meeting{ID: "asked", Title: "T"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			got, err := newTestClient(t, srv).GetMeeting(t.Context(), "asked")
			require.NoError(t, err)
			assert.NotEmpty(t, got.Raw)
			got.Raw = nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestListMeetings(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page") {
		case "":
			serveJSON(200, `{"meetings":[{"id":"m3","date":"2026-03-03"},{"id":"m2"}],"next_page":2}`)(w, r)
		case "2":
			serveJSON(200, `{"meetings":[{"id":"m1"}],"next_page":null}`)(w, r)
		default:
			t.Errorf("unexpected page %q", r.URL.RawQuery)
		}
	})
	c := newTestClient(t, srv)
	p1, err := c.ListMeetings(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, p1.Meetings, 2)
	assert.Equal(t, "m3", p1.Meetings[0].ID)
	assert.Equal(t, date(2026, 3, 3), p1.Meetings[0].Date)
	require.NotEmpty(t, p1.Next)

	p2, err := c.ListMeetings(t.Context(), &ListMeetingsOptions{Next: p1.Next})
	require.NoError(t, err)
	require.Len(t, p2.Meetings, 1)
	assert.Equal(t, "m1", p2.Meetings[0].ID)
	assert.Empty(t, p2.Next)
	rs := srv.requests()
	require.Len(t, rs, 2)
	assert.Equal(t, basePath+"/meetings?page=2", rs[1].RequestURI)
}

func TestListMeetingsBadToken(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(200, `[]`))
	c := newTestClient(t, srv)
	for _, tok := range []string{"//evil.example/api/v1/meetings", "https://evil.example/x", "meetings?page=2", `/\evil`, "/x#y"} {
		_, err := c.ListMeetings(t.Context(), &ListMeetingsOptions{Next: tok})
		assert.ErrorIs(t, err, ErrBadRequest, "token %q", tok)
	}
	assert.Empty(t, srv.requests())
}

func TestListMeetingsSelfLink(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<`+r.URL.Path+`>; rel="next"`)
		serveJSON(200, `[{"id":"m1"}]`)(w, r)
	})
	page, err := newTestClient(t, srv).ListMeetings(t.Context(), nil)
	require.NoError(t, err)
	assert.Empty(t, page.Next, "a next link to the same page ends the listing")
}

func TestMinutes(t *testing.T) {
	t.Parallel()
	approved := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		body    string
		want    Minutes
		wantErr error
	}{
		{
			name: "approved markdown",
			body: `{"meeting_id":"m1","status":"approved","body":"# Minutes","url":"https://records.example.org/m/1","approved_at":"2026-03-10T12:00:00Z"}`,
			want: Minutes{MeetingID: "m1", Status: MinutesApproved, Body: "# Minutes", Format: FormatMarkdown, URL: "https://records.example.org/m/1", Date: approved},
		},
		{
			name: "published draft html",
			body: `{"data":{"status":"published_draft","html":"<p>Hi</p>","public_url":"javascript:alert(1)","html_url":"http://x.org/m","published_at":"2026-03-10"}}`,
			want: Minutes{MeetingID: "asked", Status: MinutesPublishedDraft, Body: "<p>Hi</p>", Format: FormatHTML, URL: "http://x.org/m", Date: date(2026, 3, 10)},
		},
		{
			name: "under minutes, content, format html",
			body: `{"minutes":{"status":"Approved","content":"<b>x</b>","format":"text/html","meeting":{"id":5}}}`,
			want: Minutes{MeetingID: "5", Status: MinutesApproved, Body: "<b>x</b>", Format: FormatHTML},
		},
		{
			name: "minutes field is the body",
			body: `{"status":"approved","minutes":"text of the minutes","meeting":"m9","updated_at":"2026-03-10T12:00:00Z","url":"/relative"}`,
			want: Minutes{MeetingID: "m9", Status: MinutesApproved, Body: "text of the minutes", Format: FormatMarkdown, Date: approved},
		},
		{
			name: "body priority",
			body: `{"status":"approved","html":"<p>h</p>","markdown":"*m*","text":"t"}`,
			want: Minutes{MeetingID: "asked", Status: MinutesApproved, Body: "t", Format: FormatMarkdown},
		},
		{
			name: "jsend envelope",
			body: `{"status":"success","data":{"status":"approved","body":"b"}}`,
			want: Minutes{MeetingID: "asked", Status: MinutesApproved, Body: "b", Format: FormatMarkdown},
		},
		{
			name: "record with a data field is not unwrapped",
			body: `{"status":"approved","body":"b","data":{"status":"draft"}}`,
			want: Minutes{MeetingID: "asked", Status: MinutesApproved, Body: "b", Format: FormatMarkdown},
		},
		{name: "jsend envelope around a draft", body: `{"status":"success","data":{"status":"draft","body":"secret"}}`, wantErr: ErrNotFound},
		{name: "draft hidden", body: `{"status":"draft","body":"secret"}`, wantErr: ErrNotFound},
		{name: "missing status hidden", body: `{"body":"secret"}`, wantErr: ErrNotFound},
		{name: "null status hidden", body: `{"status":null,"body":"secret"}`, wantErr: ErrNotFound},
		{name: "internal status hidden", body: `{"data":{"status":"internal_review","body":"secret"}}`, wantErr: ErrNotFound},
		{name: "one-element array (row APIs)", body: `[{"status":"approved","body":"b"}]`, want: Minutes{MeetingID: "asked", Status: MinutesApproved, Body: "b", Format: FormatMarkdown}},
		{name: "one-element array of a draft", body: `[{"status":"draft","body":"secret"}]`, wantErr: ErrNotFound},
		{name: "array of two", body: `[{"status":"approved"},{"status":"approved"}]`, wantErr: ErrInvalidResponse},
		{name: "empty array", body: `[]`, wantErr: ErrInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			got, err := newTestClient(t, srv).GetMinutes(t.Context(), "asked")
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Nil(t, got)
				assert.NotContains(t, err.Error(), "secret")
				return
			}
			require.NoError(t, err)
			assert.NotEmpty(t, got.Raw)
			got.Raw = nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in          string
		want        time.Time
		wantHasTime bool
		wantOK      bool
	}{
		{in: "2026-03-14", want: date(2026, 3, 14), wantOK: true},
		{in: "2024-02-29", want: date(2024, 2, 29), wantOK: true},
		{in: "2026-02-29"},
		{in: "2026-13-01"},
		{in: "2026-00-10"},
		{in: "2026-1-014"},
		{in: "+026-01-01"},
		{in: "2026-03-14T09:30:00Z", want: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC), wantHasTime: true, wantOK: true},
		{in: "2026-03-14T09:30:00", want: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC), wantHasTime: true, wantOK: true},
		{in: "2026-03-14 09:30", want: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC), wantHasTime: true, wantOK: true},
		{in: "2026-03-14T09:30:00-05:00", want: time.Date(2026, 3, 14, 14, 30, 0, 0, time.UTC), wantHasTime: true, wantOK: true},
		{in: ""},
		{in: "14/03/2026"},
		{in: "1710408600"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, hasTime, ok := parseTime([]byte(tt.in))
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.wantHasTime, hasTime)
			assert.True(t, tt.want.Equal(got), "got %v, want %v", got, tt.want)
		})
	}
}
