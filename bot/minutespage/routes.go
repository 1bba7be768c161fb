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
	get := func(path string, h http.Handler) {
		r.Method(http.MethodGet, path, h)
		r.Method(http.MethodHead, path, h)
	}
	get("/minutes", s.Archive())
	// /minutes/ is the archive typed with a slash: sent on to it rather
	// than answered 404.
	get("/minutes/", toArchive())
	get("/minutes/feed.atom", s.Feed())
	get("/minutes/{meetingID}", s.Minutes())
	// The accessibility statement, linked from every page's footer
	// (docs/accessibility.md).
	get("/accessibility", s.Statement())
	get("/minutes/assets/style.css", Stylesheet())
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
