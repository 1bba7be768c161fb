package minutespage

import (
	"net/http"

	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// problemDoc is the content of a page shown instead of minutes.
type problemDoc struct {
	Heading, Message, Hint string
}

// problems are the catalogue's keys of each status's page.
var problems = map[int][3]lang.Key{
	http.StatusNotFound:            {"page.problem.404", "page.problem.404_text", "page.problem.404_hint"},
	http.StatusServiceUnavailable:  {"page.problem.503", "page.problem.503_text", ""},
	http.StatusInternalServerError: {"page.problem.500", "page.problem.500_text", ""},
}

// writeProblem writes the friendly page for status, which must be a key of
// problems, at base, in the reader's language. The security headers are
// already set.
func (s *Site) writeProblem(w http.ResponseWriter, r *http.Request, status int, base string) {
	v := s.view(r)
	keys := problems[status]
	p := problemDoc{Heading: v.Lang.T(keys[0]), Message: v.Lang.T(keys[1])}
	if keys[2] != "" {
		p.Hint = v.Lang.T(keys[2])
	}
	contentType := "text/html; charset=utf-8"
	data := s.frame(p.Heading, base, v)
	data.NoIndex, data.Problem = true, &p
	page, err := execute(problemTemplate, data)
	if err != nil {
		// The problem pages hold no record data: only a broken template
		// gets here, and plain text still says what happened.
		page, contentType = []byte(p.Heading+"\n"), "text/plain; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	publicweb.SetVary(h)
	h.Set("Cache-Control", publicweb.NoStore)
	if status == http.StatusNotFound {
		h.Set("Cache-Control", publicweb.Revalidate)
	}
	publicweb.WriteWhole(w, r, status, page)
}
