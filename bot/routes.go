package bot

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// addRoutes lists every route the bot serves.
func addRoutes(r chi.Router, s *Server) {
	r.Method(http.MethodPost, "/slack/events", verified(s.cfg.SigningSecret, s.cfg.MaxBodyBytes, s.deps.Now, s.log, handleSlack(s)))
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(s.deps.Ready))
	r.Method(http.MethodGet, "/metrics", handleMetrics(s.deps.Metrics))
	r.Get("/minutes/{meetingID}", handleMinutesPage(s))
	r.Head("/minutes/{meetingID}", handleMinutesPage(s))
	r.Get("/minutes/assets/style.css", handleMinutesStylesheet())
	r.Head("/minutes/assets/style.css", handleMinutesStylesheet())
}
