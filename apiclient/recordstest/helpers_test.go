package recordstest

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// Every server a test starts must be gone, latency timers and all,
	// once the tests end.
	goleak.VerifyTestMain(m)
}

// fixtureNow is the clock of the fixture server.
func fixtureNow() time.Time { return time.Date(2026, time.July, 20, 9, 30, 0, 0, time.UTC) }

// fixture is a small dataset whose every field a test can predict.
func fixture() Dataset {
	return Dataset{
		Meetings: []Meeting{
			{
				ID: "mtg-1", Reference: "FIN-2026-07", Title: "Finance Committee: Budget", Committee: "Finance",
				Location: "Room 2", Date: time.Date(2026, time.July, 2, 17, 0, 0, 0, time.UTC),
				Agenda: []AgendaItem{
					{Number: 1, Title: "Apologies", Description: "Apologies for absence."},
					{Number: 2, Title: "Budget", Description: "Quarterly review."},
				},
			},
			{ID: "mtg-2", Title: "Governance Committee", Committee: "Governance", Date: time.Date(2026, time.July, 9, 18, 30, 0, 0, time.UTC)},
		},
		Actions: []Action{
			{
				ID: "A-1", Title: "Circulate the forecast", Status: "open",
				AssigneeEmail: "alice@example.org", AssigneeName: "Alice Adams", MeetingID: "mtg-1",
				Deadline: time.Date(2026, time.July, 22, 0, 0, 0, 0, time.UTC), DateOnly: true,
				CreatedAt: time.Date(2026, time.July, 3, 9, 0, 0, 0, time.UTC),
			},
			{
				ID: "A/1 é", Title: "Check <!channel> & <@U123>", Status: "in_progress",
				AssigneeEmail: "bob@example.org", MeetingID: "mtg-2",
				Deadline:  time.Date(2026, time.July, 21, 17, 0, 0, 0, time.UTC),
				CreatedAt: time.Date(2026, time.July, 10, 9, 0, 0, 0, time.UTC),
			},
			{ID: "A", Title: "Unassigned, no deadline, no meeting", Status: "complete", CreatedAt: time.Date(2026, time.July, 11, 9, 0, 0, 0, time.UTC)},
			{ID: "orphan", Title: "From a meeting the server lacks", Status: "open", MeetingID: "gone", CreatedAt: time.Date(2026, time.July, 12, 9, 0, 0, 0, time.UTC)},
		},
		Minutes: []Minutes{
			{MeetingID: "mtg-1", Status: "approved", Body: "# Minutes\n\n- agreed", URL: "https://records.example.org/m/1", UpdatedAt: time.Date(2026, time.July, 9, 20, 0, 0, 0, time.UTC)},
			{MeetingID: "mtg-2", Status: "in_review", Body: "secret", UpdatedAt: time.Date(2026, time.July, 10, 20, 0, 0, 0, time.UTC)},
		},
	}
}

// newFixtureServer starts a server with the fixture and closes it when the
// test ends.
func newFixtureServer(t *testing.T, opts ...Option) *Server {
	t.Helper()
	opts = append([]Option{WithDataset(fixture()), WithClock(fixtureNow)}, opts...)
	srv := NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// response is an answer read in full.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send makes a request to url with key as bearer token (none when empty)
// and body as JSON (none when empty).
func send(t *testing.T, method, url, key, body string) response {
	t.Helper()
	var rb io.Reader
	if body != "" {
		rb = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rb)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// get fetches path (after /api/v1) with the default key.
func get(t *testing.T, srv *Server, path string) response {
	t.Helper()
	return send(t, http.MethodGet, srv.URL+path, DefaultKey, "")
}

// put sends body to path (after /api/v1) with the default key.
func put(t *testing.T, srv *Server, path, body string) response {
	t.Helper()
	return send(t, http.MethodPut, srv.URL+path, DefaultKey, body)
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(b, &v), "body: %s", b)
	return v
}

// actionPage is the envelope of GET /actions.
type actionPage struct {
	Data []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"data"`
	NextCursor *string `json:"next_cursor"`
}

// errorBody is the envelope of every error.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// errorCode is the error code the service answers with status: the
// status text in snake case ("not_found").
func errorCode(status int) string {
	return strings.ToLower(strings.NewReplacer(" ", "_", "-", "_", "'", "").Replace(http.StatusText(status)))
}

// encodeCursor makes a cursor as the service does: "after:" and an
// action ID in unpadded base64url.
func encodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + id))
}
