package minutespage

import (
	"net/http"
	"net/url"

	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// problemDoc is the content of a page shown instead of minutes.
type problemDoc struct {
	Heading, Message, Hint string
	// Link and LinkText lead on from the problem, when there is somewhere
	// to go (the minutes a comparison was asked of).
	Link, LinkText string
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
	s.writeProblemDoc(w, r, status, base, v, p)
}

// writeNoChanges is the 404 of a comparison (?changes=) the minutes of
// meeting id do not have, on minutes that are published: it says so and
// leads to them, rather than "no published minutes here".
func (s *Site) writeNoChanges(w http.ResponseWriter, r *http.Request, id string) {
	v := s.view(r)
	// Relative to /minutes/{id}: "./" keeps an ID with a colon a path.
	s.writeProblemDoc(w, r, http.StatusNotFound, baseRecord, v, problemDoc{
		Heading: v.Lang.T("page.problem.no_changes"), Message: v.Lang.T("page.problem.no_changes_text"),
		Link: "./" + url.PathEscape(id), LinkText: v.Lang.T("page.problem.read_minutes"),
	})
}

// writeProblemDoc writes the friendly page p for status at base.
func (s *Site) writeProblemDoc(w http.ResponseWriter, r *http.Request, status int, base string, v view, p problemDoc) {
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
