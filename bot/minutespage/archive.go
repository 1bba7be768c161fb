package minutespage

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/publicgate"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/minutes/body"
)

// The archive: GET /minutes, the published minutes newest first, a page
// at a time (?after= a page's cursor), of one committee (?committee=) or
// all, with a search box (?q=) answered by Options.Search.

// maxQueryLen bounds what the archive reads of ?q= and ?committee=.
const maxQueryLen = 200

// Search finds published minutes for the archive's search box: the best
// matches for what a person typed, at most a page of them. It is given
// the text as typed and must treat it as words, never as query syntax.
type Search func(ctx context.Context, typed string) ([]SearchHit, error)

// SearchHit is one minutes found by a Search.
type SearchHit struct {
	MeetingID, Title, Committee string
	Date                        time.Time
	DateHasTime                 bool
	Draft                       bool
	// Snippet is the text around the matched words, in parts; the parts
	// with Match set are shown highlighted. Every part is escaped.
	Snippet []SnippetPart
}

// SnippetPart is a run of a snippet's text.
type SnippetPart struct {
	Text  string
	Match bool
}

// archiveDoc is the archive page's content.
type archiveDoc struct {
	// Committee is the committee shown, as the records spell it, "" for
	// all; Committees those the filter offers.
	Committee  string
	Committees []string
	// Typed is ?committee= as typed; Unknown is set when it names no
	// committee with published minutes, Ambiguous when it is the start
	// of several committees' names (those).
	Typed     string
	Unknown   bool
	Ambiguous []string
	Entries   []archiveEntry
	// Next is the query string of the next page; empty on the last.
	Next string
	// Query is ?q=; Searched is set when a search ran, SearchOff when
	// there is no search to run it.
	Query     string
	Quoted    string // Query in quotes for the heading (minutes.QuoteQuery)
	Searched  bool
	SearchOff bool
	Hits      []archiveEntry
	// Feed is the feed of what the page shows, relative to the page.
	FeedHref string
}

// archiveEntry is one minutes in the archive or among search results.
type archiveEntry struct {
	// Lang is the page's language, for the entry's own words.
	Lang                   lang.Lang
	Href, Title, Committee string
	Date                   pageTime
	Draft                  bool
	// Approved is when the minutes were approved (published, for a
	// draft); zero when the record does not say.
	Approved pageTime
	Snippet  []SnippetPart
	Excerpt  string
}

var archiveTemplate = parseTemplate("templates/archive.html")

// archiveExcerpt is how much of the minutes' text an archive entry shows.
const archiveExcerptMax = 240

// Archive serves GET /minutes: 200 with a page of the archive, 404 when
// PUBLIC_MINUTES is off or ?after= is no cursor of the archive's, 503
// when the records service cannot be read.
func (s *Site) Archive() http.HandlerFunc {
	return s.publicOnly(baseArchive, s.serveArchive)
}

// serveArchive serves the page of the archive r asks for: a committee's
// (a name resolved first, perhaps redirected), search results, or the
// list, a page at a time.
func (s *Site) serveArchive(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, q := s.view(r), r.URL.Query()
	after := q.Get("after")
	doc := newArchiveDoc(q)
	// A cursor is bound to the list of the committee as named (a prefix
	// is not the list its name's cursors were made for): checked first,
	// as it costs nothing.
	if s.gate.Cursor(ctx, doc.Typed, after) != nil {
		s.writeProblem(w, r, http.StatusNotFound, baseArchive)
		return
	}
	var choice committeeChoice
	lookup := publicgate.Lookup{}
	if doc.Typed != "" {
		var err error
		if lookup, err = s.gate.Committee(ctx, doc.Typed); err != nil {
			// No committee by that name among the meetings the bot holds:
			// the page that says so, with nothing read.
			doc.Unknown, doc.Committee = true, ""
			doc.FeedHref = v.href(feedHref(""))
			s.writeArchive(w, r, doc, v, after)
			return
		}
		ctx = lookup.Context()
		r = r.WithContext(ctx)
		choice = s.resolveCommittee(ctx, doc.Typed)
		switch {
		case choice.Name != "" && choice.Name != doc.Typed:
			redirectToCommittee(w, q, choice.Name)
			return
		case choice.Name != "":
			doc.Committee = choice.Name
		case len(choice.Ambiguous) > 1:
			doc.Committee, doc.Ambiguous = "", choice.Ambiguous
		}
	}
	switch {
	case doc.Ambiguous != nil:
		// Nothing to list until the person picks one.
	case doc.Query != "" && s.opts.Search == nil:
		doc.SearchOff = true
	case doc.Query != "":
		if !s.searchArchive(w, r, doc, v) {
			return
		}
	}
	if !doc.Searched && doc.Ambiguous == nil && !s.listArchive(w, r, doc, v, choice, after) {
		return
	}
	if doc.Unknown {
		lookup.Missed()
		doc.Committee = ""
	}
	doc.FeedHref = v.href(feedHref(doc.Committee))
	doc.Committees = s.selectorCommittees(ctx, doc.Typed, choice)
	s.writeArchive(w, r, doc, v, after)
}

// newArchiveDoc is the archive page q asks for, before anything is read:
// the committee and the search as typed.
func newArchiveDoc(q url.Values) *archiveDoc {
	typedCommittee := limitText(q.Get("committee"))
	// Bidi controls and zero-width characters are dropped from what is
	// echoed, as from every other text on the pages: a query could
	// otherwise reorder the heading it is quoted in.
	typed := invisible.Strip(limitText(q.Get("q")))
	return &archiveDoc{Committee: typedCommittee, Typed: typedCommittee, Query: typed, Quoted: minutes.QuoteQuery(typed)}
}

// redirectToCommittee sends the reader of q to committee's own archive,
// the committee they typed a prefix of, or its name in another case, so
// what is bookmarked, shared and offered as the feed is the canonical
// one. 302, not 301: "fin" names Finance only until a "Fine Arts"
// committee meets, and a permanent redirect would be kept by browsers
// past that.
func redirectToCommittee(w http.ResponseWriter, q url.Values, committee string) {
	q.Set("committee", committee)
	h := w.Header()
	h.Set("Location", "?"+q.Encode())
	h.Set("Cache-Control", publicweb.Revalidate)
	w.WriteHeader(http.StatusFound)
}

// searchArchive fills doc with the minutes its query finds, for v. It
// reports false when the search failed and it has answered 503.
func (s *Site) searchArchive(w http.ResponseWriter, r *http.Request, doc *archiveDoc, v view) bool {
	ctx := r.Context()
	hits, err := s.opts.Search(ctx, doc.Query)
	if err != nil {
		s.opts.Log.WarnContext(ctx, "minutes archive: search failed", "error", err)
		w.Header().Set("Retry-After", "30")
		s.writeProblem(w, r, http.StatusServiceUnavailable, baseArchive)
		return false
	}
	doc.Searched = true
	for _, h := range hits {
		doc.Hits = append(doc.Hits, s.hitEntry(h, v))
	}
	return true
}

// listArchive fills doc with the page of the archive from cursor after
// ("" for the first), of doc's committee or all, for v; choice is what
// the committee typed resolved to. It reports false when it has answered
// instead: 404 for a cursor not the archive's, 503 when the records
// cannot be read.
func (s *Site) listArchive(w http.ResponseWriter, r *http.Request, doc *archiveDoc, v view, choice committeeChoice, after string) bool {
	ctx := r.Context()
	page, err := s.svc.Archive(ctx, doc.Committee, after)
	switch {
	case errors.Is(err, minutes.ErrBadCursor):
		s.writeProblem(w, r, http.StatusNotFound, baseArchive)
		return false
	case err != nil:
		s.opts.Log.WarnContext(ctx, "minutes archive: records unavailable", "error", err)
		w.Header().Set("Retry-After", retryAfter(err))
		s.writeProblem(w, r, http.StatusServiceUnavailable, baseArchive)
		return false
	}
	if doc.Committee != "" && choice.Name == "" {
		// Not among the committees with recent minutes: a whole
		// name whose minutes are older, or no committee at all.
		doc.Committee = entriesCommittee(page.Entries, doc.Committee)
		doc.Unknown = choice.Known && len(page.Entries) == 0 && after == ""
	}
	for _, e := range page.Entries {
		doc.Entries = append(doc.Entries, s.archiveEntry(e, v))
	}
	if page.Next != "" {
		doc.Next = nextArchivePage(page.Next, doc.Committee, v)
	}
	return true
}

// nextArchivePage is the query string of the archive's page from cursor
// next, of committee ("" for all), in v's language when it was chosen.
func nextArchivePage(next, committee string, v view) string {
	q := url.Values{"after": {next}}
	if committee != "" {
		q.Set("committee", committee)
	}
	if v.Keep != "" {
		q.Set("lang", v.Keep)
	}
	return "?" + q.Encode()
}

// selectorCommittees are the committees the archive's filter offers.
func (s *Site) selectorCommittees(ctx context.Context, typedCommittee string, choice committeeChoice) []string {
	// The committee selector is read after the list when no committee
	// was asked for, as it is the part the page can do without: on a
	// cold cache the list alone may take most of the public records
	// budget (bot.PublicLimits), and the first visitor must get the
	// minutes, not a 503. With a committee it was read first, to
	// resolve the name, and is reused.
	latest := choice.Latest
	if typedCommittee == "" {
		var err error
		if latest, err = s.svc.LatestPerCommittee(ctx); err != nil {
			s.opts.Log.DebugContext(ctx, "archive page: committee selector left out", "error", err)
		}
	}
	return committeeNames(latest)
}

// writeArchive answers with doc, the archive page for v from cursor after
// ("" for the first): 200, or 404 when it names no committee with recent
// minutes; 500 when the page cannot be drawn.
func (s *Site) writeArchive(w http.ResponseWriter, r *http.Request, doc *archiveDoc, v view, after string) {
	data := s.frame(s.archiveTitle(v.Lang, doc.Committee), baseArchive, v)
	data.Feed, data.Archive = doc.FeedHref, doc
	// Search results and later pages are for people, not for search
	// engines' indexes.
	data.NoIndex = doc.Query != "" || after != "" || doc.Unknown || doc.Ambiguous != nil
	page, err := execute(archiveTemplate, data)
	if err != nil {
		s.opts.Log.ErrorContext(r.Context(), "minutes archive: render failed", "error", err)
		s.writeProblem(w, r, http.StatusInternalServerError, baseArchive)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", publicweb.Revalidate)
	if doc.Unknown {
		// The page, with its list link, but a 404: the address names
		// no committee with recent minutes (a dormant one's older
		// minutes are still offered, by the Older minutes link).
		publicweb.WriteWhole(w, r, http.StatusNotFound, page)
		return
	}
	publicweb.Serve(w, r, page, etag(page), time.Time{})
}

// archiveTitle is the archive page's title in l: of committee ("" for
// all), with the organisation's name when it has one.
func (s *Site) archiveTitle(l lang.Lang, committee string) string {
	title := l.T("page.archive.title")
	if committee != "" {
		title = l.F("page.archive.title_of", "committee", committee)
	}
	if s.opts.OrgName != "" {
		title = l.F("page.title_org", "title", title, "org", s.opts.OrgName)
	}
	return title
}

// hitEntry is h as the archive lists a search's hits for v.
func (s *Site) hitEntry(h SearchHit, v view) archiveEntry {
	l := v.Lang
	snippet := make([]SnippetPart, len(h.Snippet))
	for i, p := range h.Snippet {
		snippet[i] = SnippetPart{Text: invisible.Strip(p.Text), Match: p.Match}
	}
	return archiveEntry{
		Lang: l, Href: v.href(entryHref(h.MeetingID)), Title: nonBlank(invisible.Strip(h.Title), l.T("page.untitled_meeting")),
		Committee: invisible.Strip(h.Committee),
		Date:      newPageTime(h.Date, h.DateHasTime, s.opts.Zone, l), Draft: h.Draft, Snippet: snippet,
	}
}

// archiveEntry is e as the archive lists it for v.
func (s *Site) archiveEntry(e minutes.Entry, v view) archiveEntry {
	m, min := e.Meeting, e.Minutes
	l := v.Lang
	return archiveEntry{
		Lang:      l,
		Href:      v.href(entryHref(m.ID)),
		Title:     nonBlank(invisible.Strip(m.Name()), l.T("page.untitled_meeting")),
		Committee: invisible.Strip(m.Committee),
		Date:      newPageTime(m.Date, m.DateHasTime, s.opts.Zone, l),
		Draft:     min.Draft(),
		Approved:  pageDate(min.Date, l),
		Excerpt:   excerpt(min, archiveExcerptMax),
	}
}

// excerpt is the opening of the minutes' text, at most max characters,
// cut at a word.
func excerpt(min *apiclient.Minutes, max int) string {
	text := body.OneLine(invisible.Strip(body.PlainText(min.Body, min.Format)))
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	cut := []rune(text)[:max]
	if i := strings.LastIndexByte(string(cut), ' '); i > max/2 {
		return string(cut)[:i] + "…"
	}
	return string(cut) + "…"
}

// entryHref is a meeting's page relative to the archive.
func entryHref(meetingID string) string { return baseArchive + url.PathEscape(meetingID) }

// feedHref is the feed of a committee ("" for all), relative to a page's
// base.
func feedHref(committee string) string {
	if committee == "" {
		return "feed.atom"
	}
	return "feed.atom?" + url.Values{"committee": {committee}}.Encode()
}

// committeeNames are the committees of entries, in order, each once.
func committeeNames(es []minutes.Entry) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range es {
		k := minutes.CommitteeKey(e.Meeting.Committee)
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, strings.TrimSpace(e.Meeting.Committee))
		}
	}
	return out
}

// limitText is a query parameter trimmed and bounded, valid UTF-8.
func limitText(s string) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, ""))
	if len(s) > maxQueryLen {
		s = strings.ToValidUTF8(s[:maxQueryLen], "")
	}
	return s
}
