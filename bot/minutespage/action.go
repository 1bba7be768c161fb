package minutespage

import (
	"html/template"
	"net/http"
	"time"

	"github.com/recordsbot/recordsbot/bot/publicweb"
)

// An action's own link, PUBLIC_URL/actions/{id} (actions.Service.Link),
// is made to be pasted in Slack, where it unfurls as the action's card for
// whoever may see it. Opened in a browser it shows nothing of the action:
// the same page for every ID, whether or not it exists, so it reads no
// records, asks no gate and gives nothing away. It says what the link is
// and leads into Slack. It is served whether or not PUBLIC_MINUTES is on,
// as the links are given whenever PUBLIC_URL is set.

var actionTemplate = parseTemplate("templates/action.html")

// openSlack is Slack's deep link that opens the Slack app
// (https://api.slack.com/reference/deep-linking, "slack://open"). It is
// not http(s), so html/template would refuse it as a string.
const openSlack = template.URL("slack://open")

// baseAction is the relative base of the page's links: it is at
// /actions/{id}, beside /minutes.
const baseAction = "../minutes/"

// actionDoc is the page's content beyond the catalogue's words.
type actionDoc struct {
	OpenSlack template.URL
}

// Action serves GET /actions/{id}: 200 with the page, in the reader's
// language, never indexed.
func (s *Site) Action() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.pageHeaders(w.Header())
		v := s.view(r)
		title := v.Lang.T("page.action.title")
		if s.opts.OrgName != "" {
			title = v.Lang.F("page.title_org", "title", title, "org", s.opts.OrgName)
		}
		data := s.frame(title, baseAction, v)
		data.NoIndex = true
		data.Action = &actionDoc{OpenSlack: openSlack}
		page, err := execute(actionTemplate, data)
		if err != nil {
			s.opts.Log.ErrorContext(r.Context(), "action page: render failed", "error", err)
			s.writeProblem(w, r, http.StatusInternalServerError, baseAction)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", s.cacheShared())
		publicweb.Serve(w, r, page, etag(page), time.Time{})
	}
}
