package minutespage

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Mount adds the public pages' routes to r, GET and HEAD alike: the
// archive (/minutes, and /minutes/ sent on to it), its Atom feed, one
// meeting's minutes, the accessibility statement and the stylesheet. The
// caller puts whatever bounds their cost in front (bot's public guard);
// chi tries the fixed /minutes/feed.atom before the pattern.
func (s *Site) Mount(r chi.Router) {
	archive, feed, page, statement := s.Archive(), s.Feed(), s.Minutes(), s.Statement()
	r.Get("/minutes", archive)
	r.Head("/minutes", archive)
	// /minutes/ is the archive typed with a slash: sent on to it rather
	// than answered 404.
	r.Get("/minutes/", toArchive())
	r.Head("/minutes/", toArchive())
	r.Get("/minutes/feed.atom", feed)
	r.Head("/minutes/feed.atom", feed)
	r.Get("/minutes/{meetingID}", page)
	r.Head("/minutes/{meetingID}", page)
	// The accessibility statement, linked from every page's footer
	// (docs/accessibility.md).
	r.Get("/accessibility", statement)
	r.Head("/accessibility", statement)
	// An action's own link opened in a browser: what it is, and the way
	// into Slack (action.go).
	action := s.Action()
	r.Get("/actions/{actionID}", action)
	r.Head("/actions/{actionID}", action)
	r.Get("/minutes/assets/style.css", Stylesheet())
	r.Head("/minutes/assets/style.css", Stylesheet())
}

// toArchive redirects /minutes/ to the archive, /minutes, its query
// kept. The Location is relative ("../minutes"), so it holds behind a
// proxy that serves the bot under a path prefix, as the pages' own links
// do.
func toArchive() http.HandlerFunc {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := "../minutes"
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", to)
		w.WriteHeader(http.StatusMovedPermanently)
	})
}
