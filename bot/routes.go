package bot

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// eventsPath is where Slack sends everything: commands, clicks, events
// (the route below, which ServeHTTP also takes past the router).
const eventsPath = "/slack/events"

// addRoutes lists every route the bot serves. It returns the handler of
// eventsPath, which ServeHTTP also calls directly (see there).
func addRoutes(r chi.Router, s *Server) http.Handler {
	events := verified(s.cfg.SigningSecret, s.cfg.MaxBodyBytes, s.deps.Now, s.log, handleSlack(s))
	r.Method(http.MethodPost, "/slack/events", events)
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(s.deps.Ready))
	// No /metrics here: this router is the public port (PORT), and the
	// metrics (traffic, failures, versions) are for the cluster only.
	// serve answers them on their own listener, METRICS_ADDR, from
	// Deps.Metrics.Handler(); here /metrics is a 404 like any other path.
	// The public routes need no login; s.public bounds what they cost,
	// and each asks s.gate (internal/publicgate) about whatever its
	// address names before reading anything for it: a route added here
	// does too, and gets a row in docs/public-routes.md. They are the
	// minutes pages (PUBLIC_MINUTES) and the calendar feeds.
	r.Group(func(r chi.Router) {
		r.Use(s.public.wrap)
		// The archive, its feed, a meeting's minutes, the accessibility
		// statement: the page package's routes (minutespage.Site.Mount).
		s.site.Mount(r)
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
	return events
}
