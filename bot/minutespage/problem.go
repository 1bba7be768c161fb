package minutespage

import (
	"net/http"
	"strconv"
)

// problemDoc is the content of a page shown instead of minutes.
type problemDoc struct {
	Heading, Message, Hint string
}

var problems = map[int]problemDoc{
	http.StatusNotFound: {
		Heading: "No published minutes here",
		Message: "There are no published minutes at this address. The meeting may not have minutes yet, or they may not be released for publication.",
		Hint:    "If someone shared this link with you, please check it with them.",
	},
	http.StatusServiceUnavailable: {
		Heading: "The minutes are unavailable just now",
		Message: "The committee records service is busy or didn't answer in time. Please try again in a minute.",
	},
	http.StatusInternalServerError: {
		Heading: "Something went wrong",
		Message: "These minutes could not be shown because of a fault on our side. It has been logged; please try again later.",
	},
}

// writeProblem writes the friendly page for status, which must be a key of
// problems, at base. The security headers are already set.
func (s *Site) writeProblem(w http.ResponseWriter, r *http.Request, status int, base string) {
	p := problems[status]
	contentType := "text/html; charset=utf-8"
	data := s.frame(p.Heading, base)
	data.NoIndex, data.Problem = true, &p
	page, err := execute(problemTemplate, data)
	if err != nil {
		// The problem pages hold no record data: only a broken template
		// gets here, and plain text still says what happened.
		page, contentType = []byte(p.Heading+"\n"), "text/plain; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", cacheError)
	if status == http.StatusNotFound {
		h.Set("Cache-Control", cacheNotFound)
	}
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page) // the reader went away; nothing to do
	}
}
