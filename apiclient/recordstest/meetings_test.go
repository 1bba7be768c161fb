package recordstest

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
