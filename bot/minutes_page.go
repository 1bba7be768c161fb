package bot

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/recordsbot/recordsbot/apiclient"
)

// pageEntry is a meeting with its visible minutes (nil when none).
type pageEntry struct {
	meeting *apiclient.Meeting
	minutes *apiclient.Minutes
}

// pageData returns a meeting and its visible minutes through a short-lived
// cache, so a link shared in a busy channel (unfurls, clicks) is one records
// call per TTL, not a burst.
func (s *Server) pageData(ctx context.Context, id string) (*apiclient.Meeting, *apiclient.Minutes, error) {
	e, err := s.pages.get(ctx, id, func(ctx context.Context) (pageEntry, error) {
		m, min, err := s.meetingMinutes(ctx, id)
		return pageEntry{m, min}, err
	})
	return e.meeting, e.minutes, err
}

// handleMinutesPage serves the public minutes page of a meeting.
func handleMinutesPage(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.cfg.PublicMinutes {
			http.NotFound(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		id := chi.URLParam(r, "meetingID")
		m, min, err := s.pageData(ctx, id)
		if err != nil || min == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(m.Title + "\n\n" + min.Body))
	}
}
