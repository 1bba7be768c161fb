package bot

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/recordsbot/recordsbot/bot/minutespage"
)

// addRoutes lists every route the bot serves.
func addRoutes(r chi.Router, s *Server) {
	r.Method(http.MethodPost, "/slack/events", verified(s.cfg.SigningSecret, s.cfg.MaxBodyBytes, s.deps.Now, s.log, handleSlack(s)))
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(s.deps.Ready))
	// No /metrics here: this router is the public port (PORT), and the
	// metrics (traffic, failures, versions) are for the cluster only.
	// serve answers them on their own listener, METRICS_ADDR, from
	// Deps.Metrics.Handler(); here /metrics is a 404 like any other path.
	// The public routes need no login; s.public bounds what they cost.
	// They are the archive, its feed and one meeting's minutes
	// (PUBLIC_MINUTES), and the calendar feeds; chi tries the fixed /minutes/feed.atom before the
	// pattern.
	r.Group(func(r chi.Router) {
		r.Use(s.public.wrap)
		archive, feed, page := s.site.Archive(), s.site.Feed(), s.site.Minutes()
		r.Get("/minutes", archive)
		r.Head("/minutes", archive)
		// /minutes/ is the archive typed with a slash: sent on to it
		// rather than answered 404.
		r.Get("/minutes/", handleToArchive())
		r.Head("/minutes/", handleToArchive())
		r.Get("/minutes/feed.atom", feed)
		r.Head("/minutes/feed.atom", feed)
		r.Get("/minutes/{meetingID}", page)
		r.Head("/minutes/{meetingID}", page)
		// The accessibility statement, linked from every page's footer
		// (docs/accessibility.md).
		statement := s.site.Statement()
		r.Get("/accessibility", statement)
		r.Head("/accessibility", statement)
		r.Get("/minutes/assets/style.css", minutespage.Stylesheet())
		r.Head("/minutes/assets/style.css", minutespage.Stylesheet())
		// The calendar feeds (docs/calendar.md): every committee's and one
		// committee's meetings and one meeting (PUBLIC_CALENDAR), and a
		// person's own deadlines (always, behind their private token).
		// chi tries the fixed /calendar/u/ and /calendar/meeting/ before
		// /calendar/{file}.
		all, committee, meeting, private := s.feeds.All(), s.feeds.Committee(), s.feeds.Meeting(), s.feeds.Private()
		r.Get("/calendar.ics", all)
		r.Head("/calendar.ics", all)
		r.Get("/calendar/u/{file}", private)
		r.Head("/calendar/u/{file}", private)
		r.Get("/calendar/meeting/{file}", meeting)
		r.Head("/calendar/meeting/{file}", meeting)
		r.Get("/calendar/{file}", committee)
		r.Head("/calendar/{file}", committee)
	})
}

// handleToArchive redirects /minutes/ to the archive, /minutes, its query
// kept. The Location is relative ("../minutes"), so it holds behind a
// proxy that serves the bot under a path prefix, as the pages' own links
// do.
func handleToArchive() http.HandlerFunc {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := "../minutes"
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", to)
		w.WriteHeader(http.StatusMovedPermanently)
	})
}
