package minutespage

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/minutes/diff"
)

// revisionsDoc is the line a minutes page shows of its versions.
type revisionsDoc struct {
	Text string
	// URL is the comparison of the versions the line speaks of.
	URL string
}

// revisionsDoc is the line for r: "Approved on 17 March; 4 changes since
// the draft of 3 March", "Edited after approval on …"; nil when nothing
// is known.
func (s *Site) revisionsDoc(meetingID string, r minutes.Revisions, l lang.Lang) *revisionsDoc {
	if !r.Known() {
		return nil
	}
	var parts []string
	switch {
	case r.Draft.IsZero():
	case r.Changes == 0:
		parts = append(parts, l.F("versions.as_drafted", "approved", pageDate(r.Approved, l).Day, "draft", pageDate(r.Draft, l).Day))
	default:
		parts = append(parts, l.N("versions.approved_changes", r.Changes, "approved", pageDate(r.Approved, l).Day, "draft", pageDate(r.Draft, l).Day))
	}
	if !r.Edited.IsZero() {
		parts = append(parts, l.N("versions.edited_changes", r.EditChanges, "date", pageDate(r.Edited, l).Day))
	}
	return &revisionsDoc{Text: strings.Join(parts, " "), URL: "?" + url.Values{"changes": {strconv.Itoa(r.From) + "-" + strconv.Itoa(r.To)}}.Encode()}
}

// changesDoc is a comparison of two versions as a page shows it.
type changesDoc struct {
	From, To   pageTime
	Paragraphs []changeParagraph
}

type changeParagraph struct {
	Changed bool
	Runs    []changeRun
}

type changeRun struct {
	Added, Removed bool
	Text           string
}

// writeChanges answers ?changes=from-to: the page with the comparison of
// two kept versions of its minutes above them, computed once per pair
// (minutes.Service.Compare); 404 for versions not kept or a value the
// page never wrote (saying the minutes are there, with a link to them).
func (s *Site) writeChanges(w http.ResponseWriter, r *http.Request, id string, e minutes.Entry) {
	from, to, ok := parseChanges(r.URL.Query().Get("changes"))
	if !ok {
		s.writeNoChanges(w, r, id)
		return
	}
	c, ok, err := s.svc.Compare(r.Context(), id, from, to)
	if err != nil || !ok {
		s.writeNoChanges(w, r, id)
		return
	}
	v := s.view(r)
	doc := &changesDoc{}
	for _, ver := range e.Versions {
		switch ver.N {
		case from:
			doc.From = pageDate(ver.FirstSeen, v.Lang)
		case to:
			doc.To = pageDate(ver.FirstSeen, v.Lang)
		}
	}
	for _, p := range c.Paragraphs {
		cp := changeParagraph{Changed: p.Changed}
		for _, run := range p.Runs {
			cp.Runs = append(cp.Runs, changeRun{Added: run.Kind == diff.Added, Removed: run.Kind == diff.Removed, Text: invisible.Strip(run.Text)})
		}
		doc.Paragraphs = append(doc.Paragraphs, cp)
	}
	page, err := s.renderMinutes(e, doc, v)
	if err != nil {
		s.opts.Log.ErrorContext(r.Context(), "minutes changes page: render failed", "meeting", id, "error", err)
		s.writeProblem(w, r, http.StatusInternalServerError, baseRecord)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", publicweb.Revalidate)
	publicweb.Serve(w, r, page, etag(page), e.Minutes.Date)
}

// parseChanges reads ?changes=from-to: two version numbers, from before
// to.
func parseChanges(v string) (from, to int, ok bool) {
	a, b, found := strings.Cut(v, "-")
	from, errA := strconv.Atoi(a)
	to, errB := strconv.Atoi(b)
	if !found || errA != nil || errB != nil || from < 1 || to <= from {
		return 0, 0, false
	}
	return from, to, true
}
