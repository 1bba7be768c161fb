package apiclient

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFieldMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    FieldMap
		wantErr string
	}{
		{name: "empty", in: "", want: FieldMap{}},
		{name: "the documented example", in: "action.title=subject,action.deadline=target_date,meeting.date=held_on,action.assignee=responsible.email",
			want: FieldMap{"action.title": "subject", "action.deadline": "target_date", "meeting.date": "held_on", "action.assignee": "responsible.email"}},
		{name: "spaces and empty pairs", in: " action.title = subject ,, ", want: FieldMap{"action.title": "subject"}},
		{name: "field key in another casing", in: "Action.MeetingId=mtg,minutes.meeting-id=m", want: FieldMap{"action.meeting_id": "mtg", "minutes.meeting_id": "m"}},
		{name: "unknown field", in: "action.colour=hue", wantErr: `unknown field "action.colour" (known: action.id, action.title,`},
		{name: "unknown record", in: "person.email=mail", wantErr: `unknown field "person.email"`},
		{name: "no record", in: "title=subject", wantErr: `unknown field "title"`},
		{name: "no equals", in: "action.title", wantErr: `"action.title" is not field=name`},
		{name: "no name", in: "action.title=", wantErr: `"action.title=" is not field=name`},
		{name: "empty path segment", in: "action.assignee=responsible..email", wantErr: "action.assignee=responsible..email: empty name in the path"},
		{name: "only separators in a segment", in: "action.title=__", wantErr: "empty name in the path"},
		{name: "mapped twice", in: "action.title=a,action.title=b", wantErr: "action.title is mapped twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFieldMap(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), "\n", "one line for the start-up error")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestFieldMapDecoding(t *testing.T) {
	t.Parallel()
	fm, err := ParseFieldMap("action.title=subject,action.deadline=target_date,action.assignee=responsible.email,action.meeting_id=origin.meeting.ref,meeting.date=held_on,minutes.body=minutes_text")
	require.NoError(t, err)
	tests := []struct {
		name string
		body string
		want Action
	}{
		{
			name: "names and a nested path",
			body: `[{"id":"a1","subject":"Budget","status":"open","target_date":"2026-05-01","responsible":{"email":"ann@x.org","name":"Ann"},"origin":{"meeting":{"ref":"M7"}}}]`,
			want: Action{ID: "a1", Title: "Budget", Status: StatusOpen, Deadline: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Assignee: Person{Email: "ann@x.org"}, MeetingID: "M7"},
		},
		{
			name: "mapped names in another casing",
			body: `[{"Id":"a1","Subject":"Budget","Status":"open","targetDate":"2026-05-01","Responsible":{"Email":"ann@x.org"},"Origin":{"Meeting":{"Ref":"M7"}}}]`,
			want: Action{ID: "a1", Title: "Budget", Status: StatusOpen, Deadline: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Assignee: Person{Email: "ann@x.org"}, MeetingID: "M7"},
		},
		{
			name: "mapped names come before the built-in ones",
			body: `[{"id":"a1","title":"Internal code 77","subject":"Budget","due_date":"2020-01-01","target_date":"2026-05-01","assignee":"bob@x.org","responsible":{"email":"ann@x.org"}}]`,
			want: Action{ID: "a1", Title: "Budget", Deadline: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Assignee: Person{Email: "ann@x.org"}},
		},
		{
			name: "built-in names still work when the mapped one is absent",
			body: `[{"id":"a1","title":"Budget","due_date":"2026-05-01","assignee":{"email":"bob@x.org","name":"Bob"}}]`,
			want: Action{ID: "a1", Title: "Budget", Deadline: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Assignee: Person{Email: "bob@x.org", Name: "Bob"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(200, tt.body))
			list, err := newTestClient(t, srv, WithFieldMap(fm)).ListActions(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, list.Actions, 1)
			assert.Equal(t, tt.want, noRaw(list.Actions)[0])
		})
	}

	t.Run("meetings and minutes", func(t *testing.T) {
		t.Parallel()
		srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/minutes") {
				serveJSON(200, `{"status":"approved","minutes_text":"# Hello"}`)(w, r)
				return
			}
			serveJSON(200, `{"id":"M7","title":"Board","held_on":"2026-04-01T18:00:00Z"}`)(w, r)
		})
		c := newTestClient(t, srv, WithFieldMap(fm))
		m, err := c.GetMeeting(t.Context(), "M7")
		require.NoError(t, err)
		assert.Equal(t, time.Date(2026, 4, 1, 18, 0, 0, 0, time.UTC), m.Date)
		mins, err := c.GetMinutes(t.Context(), "M7")
		require.NoError(t, err)
		assert.Equal(t, "# Hello", mins.Body)
	})

	t.Run("a hand-built map with an unknown field fails NewClient", func(t *testing.T) {
		t.Parallel()
		_, err := NewClient("http://records.test/api/v1", "k", WithFieldMap(FieldMap{"action.colour": "hue"}))
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown field "action.colour"`)
	})

	t.Run("the map does not leak into other clients", func(t *testing.T) {
		t.Parallel()
		srv := newAPIServer(t, serveJSON(200, `[{"id":"a1","subject":"Budget","title":"T"}]`))
		list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, "T", list.Actions[0].Title)
	})
}

func TestKnownFieldsMatchTables(t *testing.T) {
	t.Parallel()
	known := KnownFields()
	assert.Contains(t, known, "action.title")
	assert.Contains(t, known, "action.deadline")
	assert.Contains(t, known, "meeting.date")
	assert.Contains(t, known, "action.assignee")
	// Each canonical alias is unique within its record after normalising,
	// or two fields would fight over one member.
	for _, ft := range fieldTables() {
		seen := map[string]string{}
		for _, f := range ft.fields {
			for _, a := range f.aliases {
				n := normString(a)
				if prev, dup := seen[n]; dup {
					t.Errorf("%s: alias %q of %s collides with %s", ft.record, a, f.name, prev)
				}
				seen[n] = f.name
			}
		}
	}
}
