// Package minutespage serves recordsbot's public minutes pages over HTTP:
// GET /minutes/{meetingID}, rendered with html/template, goldmark and
// bluemonday, with its stylesheet. What may be shown, and the cache the
// pages share with Slack's unfurls, are package minutes'.
package minutespage

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/publicgate"
	"github.com/recordsbot/recordsbot/minutes"
)

// The public minutes pages: GET /minutes/{meetingID} and the stylesheet
// they link, GET /minutes/assets/style.css.
//
// A page is rendered from html/template files embedded in the binary, so
// record text is always escaped. The minutes body is the one piece of HTML
// that is not escaped: a Markdown body is rendered by goldmark, which drops
// raw HTML, and either kind then goes through bluemonday's UGC policy.
// Nothing on a page is script, and the Content-Security-Policy says so.

const (
	// maxMeetingIDLen is the longest meeting ID looked up. Anything longer
	// is no ID the records service issues, and would only cost a call.
	maxMeetingIDLen = 256
	// bodyHeadingShift demotes the headings of a Markdown body: the page
	// has its own h1 (the meeting) and h2 ("Minutes"), so the body's h1 is
	// an h3. The document outline then reads as the page looks.
	bodyHeadingShift = 2
)

// contentSecurityPolicy allows the page's own stylesheet and images, and
// images from the hosts the organisation names (Options.ImageHosts), and
// nothing else: no script at all, no frames, no <base>, and forms (the
// archive's search box) only to the bot itself. The headers every public
// answer carries besides (publicweb.SetShared) keep the page's address to
// itself when a reader follows a link in the minutes.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Cache-Control: approved minutes change rarely and are public, so
// browsers and shared caches may reuse them as long as the minutes
// domain's cache keeps them (Site.cacheShared). A draft can be corrected
// or withdrawn at any time, and a withdrawn draft must stop being shown,
// so caches must check with the bot before every reuse
// (publicweb.Revalidate); the ETag makes that check a cheap 304. Error
// pages describe a moment (records down) and are not kept
// (publicweb.NoStore); not-found pages are revalidated, so minutes
// published later are seen at once.

//go:embed templates
var templateFS embed.FS

var (
	minutesTemplate = parseTemplate("templates/minutes.html")
	problemTemplate = parseTemplate("templates/problem.html")

	stylesheet = mustRead(templateFS, "templates/style.css")
	// stylesheetHref is relative to /minutes/ (a page's base, see
	// pageBase), so it works behind a proxy that serves the bot under a
	// path prefix. The version changes with the file, so a browser never
	// styles a page with an old copy.
	stylesheetHref = "assets/style.css?v=" + etag(stylesheet)[1:13]
)

// Relative bases of the pages' links: a page at /minutes/{id} reaches the
// other pages from "", the archive at /minutes from "minutes/". Relative
// links keep working under a path prefix.
const (
	baseRecord  = ""
	baseArchive = "minutes/"
)

// Options are the public pages' settings.
type Options struct {
	// OrgName is the organisation's name (ORG_NAME), on every page and in
	// print; empty: none.
	OrgName string
	// Zone is the organisation's time zone (RECORDS_TIMEZONE): times are
	// shown there. Default UTC.
	Zone *time.Location
	// Search answers the archive's search box (?q=); nil: the archive says
	// search is not available.
	Search Search
	// Log gets one line per failed page. Default: discard.
	Log *slog.Logger
	// Gate admits every lookup a reader names (a meeting, a committee, an
	// archive cursor) before anything is read for it; the bot's is shared
	// with the calendar feeds. Nil: a gate over the minutes domain alone,
	// with no budget of its own for lookups it cannot vouch for.
	Gate *publicgate.Gate
	// Now is the clock (Last-Modified). Default time.Now.
	Now func() time.Time
	// Language is ORG_LANGUAGE: the pages' language for a reader who
	// accepts none of the shipped ones. The zero value is English.
	Language lang.Lang
	// AccessibilityContact is where the accessibility statement asks
	// readers to report a problem (ACCESSIBILITY_CONTACT: an address or a
	// URL); empty: the statement asks them to tell the organisation.
	AccessibilityContact string
	// ImageHosts are the https origins (ParseImageHosts) whose images a
	// minutes body may show (PUBLIC_IMAGE_HOSTS), besides the bot's own
	// and inline ones. Empty: no third-party image is loaded.
	ImageHosts []string
}

// Site is the public minutes pages: one meeting's minutes, the archive
// and its feed, over the minutes domain (which decides what may be shown
// and whether the pages are on at all).
type Site struct {
	svc  *minutes.Service
	opts Options
	// kept is each minutes page as last rendered (Last-Modified, and the
	// copy served while the records cannot be read).
	kept *keptPages
	// csp is the pages' Content-Security-Policy, body their sanitiser,
	// both with Options.ImageHosts.
	csp  string
	body *bluemonday.Policy
	// gate is Options.Gate, or one of the site's own.
	gate *publicgate.Gate
	// shared is cacheShared's value, written once.
	shared string
}

// New returns the pages over svc.
func New(svc *minutes.Service, opts Options) *Site {
	if opts.Zone == nil {
		opts.Zone = time.UTC
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	csp := contentSecurityPolicy
	if len(opts.ImageHosts) > 0 {
		csp = strings.Replace(csp, "img-src 'self' data:", "img-src 'self' data: "+strings.Join(opts.ImageHosts, " "), 1)
	}
	gate := opts.Gate
	if gate == nil {
		gate = publicgate.New(publicgate.Config{Held: svc, Log: opts.Log, Now: opts.Now})
	}
	return &Site{svc: svc, opts: opts, kept: &keptPages{}, csp: csp, body: newBodyPolicy(opts.ImageHosts), gate: gate,
		shared: publicweb.Shared(svc.CacheTTL())}
}

func (s *Site) now() time.Time { return s.opts.Now() }

// parseTemplate is the page in file inside the layout, with the
// templates' functions (funcs).
func parseTemplate(file string) *template.Template {
	return template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", file))
}

func mustRead(fsys embed.FS, name string) []byte {
	b, err := fsys.ReadFile(name)
	if err != nil {
		panic(err) // the file is embedded: only a broken build gets here
	}
	return b
}

// markdown renders Markdown bodies: CommonMark with tables, strikethrough
// and bare links, as records systems write them. Raw HTML in the source is
// left out (goldmark's default; never html.WithUnsafe), and goldmark
// blanks dangerous link destinations such as javascript:. A goldmark.Markdown
// is safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(headingShift(bodyHeadingShift), 100))),
)

// bodyPolicy sanitises every minutes body, Markdown's output included, for
// defence in depth: bluemonday's policy for user-generated content (text
// formatting, links, lists, tables, images; no script, style, event
// handlers or forms), with links that send no referrer. A configured
// policy is safe for concurrent use.
//
// An image from any host but the bot and Options.ImageHosts loses its
// address (its alt text stays): a minutes author could otherwise put a
// tracking pixel in front of every public reader. The CSP
// says the same to the browser.
func newBodyPolicy(imageHosts []string) *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoReferrerOnLinks(true)
	p.RewriteSrc(func(u *url.URL) {
		if u.Scheme == "data" || u.Scheme == "" && u.Host == "" {
			return // inline, or the bot's own
		}
		if slices.Contains(imageHosts, strings.ToLower(u.Scheme+"://"+u.Host)) {
			return
		}
		*u = url.URL{}
	})
	return p
}

// ParseImageHosts reads PUBLIC_IMAGE_HOSTS: comma-separated https origins
// ("https://images.example.org, https://cdn.example.org:8443") whose
// images the public pages may show. It returns them in lower case, or an
// error naming the first entry that is no https origin.
func ParseImageHosts(s string) ([]string, error) {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		u, err := url.Parse(f)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") != "" ||
			u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.ContainsAny(u.Host, " ;'*") {
			return nil, fmt.Errorf("not an https origin (https://host[:port]): %q", f)
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return out, nil
}

// headingShift is a goldmark AST transformer that demotes every heading by
// its value, down to h6 at most.
type headingShift int

// Transform implements parser.ASTTransformer.
func (d headingShift) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	d.shift(doc)
}

// shift demotes the headings under n: a walk of its own rather than
// ast.Walk, whose error result only carries a visitor's, and this one
// has none.
func (d headingShift) shift(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok {
			h.Level = min(h.Level+int(d), 6)
		}
		d.shift(c)
	}
}

// Minutes serves the public minutes page of a meeting: 200 with
// the page for approved or published_draft minutes, a friendly 404 for
// anything else (no such meeting, no minutes, minutes in another status,
// PUBLIC_MINUTES off), 503 when the records service cannot be read. GET
// and HEAD; If-None-Match is answered 304 when the page has not changed.
// Meetings and minutes are read through the domain's shared cache.
func (s *Site) Minutes() http.HandlerFunc {
	return s.publicOnly(baseRecord, func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id, ok := meetingIDParam(r)
		if !ok {
			s.writeProblem(w, r, http.StatusNotFound, baseRecord)
			return
		}
		lookup, err := s.gate.Meeting(ctx, id)
		if err != nil {
			s.writeProblem(w, r, http.StatusNotFound, baseRecord)
			return
		}
		e, err := s.svc.Get(lookup.Context(), id)
		switch {
		case errors.Is(err, apiclient.ErrNotFound), err == nil && e.Minutes == nil:
			s.opts.Log.DebugContext(ctx, "minutes page: nothing to show", "meeting", id)
			lookup.Missed()
			s.kept.drop(id)
			s.writeProblem(w, r, http.StatusNotFound, baseRecord)
		case err != nil:
			s.serveUnreadable(w, r, id, err)
		case r.URL.Query().Has("changes"):
			s.writeChanges(w, r, id, e)
		default:
			s.writeMinutes(w, r, id, e)
		}
	})
}

// serveUnreadable answers for meeting id's minutes when the records
// cannot be read (err): the copy kept of approved minutes, else 503.
func (s *Site) serveUnreadable(w http.ResponseWriter, r *http.Request, id string, err error) {
	ctx, log := r.Context(), s.opts.Log
	if kept, ok := s.kept.stale(keptKey(id, s.view(r).Lang)); ok {
		// The records cannot be read just now; the minutes were
		// approved when last read. A copy, revalidated next time.
		log.DebugContext(ctx, "minutes page: served the kept copy", "meeting", id, "error", err)
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", publicweb.Revalidate)
		publicweb.Serve(w, r, kept.page, kept.tag, kept.since)
		return
	}
	if errors.Is(err, apiclient.ErrOverBudget) {
		// The public pages' share of records calls is used up
		// (bot's PublicLimits): come back in a moment. Logged at
		// debug level only, as a flood would otherwise flood the
		// log too.
		log.DebugContext(ctx, "minutes page: public budget used up", "meeting", id)
	} else {
		log.WarnContext(ctx, "minutes page: records unavailable", "meeting", id, "error", err)
	}
	w.Header().Set("Retry-After", retryAfter(err))
	s.writeProblem(w, r, http.StatusServiceUnavailable, baseRecord)
}

// writeMinutes answers with the page of min, meeting m's minutes (its ID
// id), and keeps a copy for when the records cannot be read.
func (s *Site) writeMinutes(w http.ResponseWriter, r *http.Request, id string, e minutes.Entry) {
	min := e.Minutes
	v := s.view(r)
	page, err := s.renderMinutes(e, nil, v)
	if err != nil {
		s.opts.Log.ErrorContext(r.Context(), "minutes page: render failed", "meeting", id, "error", err)
		s.writeProblem(w, r, http.StatusInternalServerError, baseRecord)
		return
	}
	kept := s.kept.keep(keptKey(id, v.Lang), keptPage{page: page, tag: etag(page), draft: min.Draft(), since: s.now()})
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", s.cacheShared())
	if min.Draft() {
		h.Set("Cache-Control", publicweb.Revalidate)
	}
	publicweb.Serve(w, r, page, kept.tag, kept.since)
}

// Stylesheet serves the pages' stylesheet, embedded in the binary.
func Stylesheet() http.HandlerFunc {
	tag := etag(stylesheet)
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		setPageHeaders(h)
		h.Set("Content-Type", "text/css; charset=utf-8")
		h.Set("Cache-Control", publicweb.Versioned)
		publicweb.Serve(w, r, stylesheet, tag, time.Time{})
	}
}

// meetingIDParam returns the {meetingID} of the request, unescaped once.
// chi matches against the escaped path when it differs from the decoded
// one (an ID with "%2F" in it), and against the decoded path otherwise, so
// only the first needs unescaping.
func meetingIDParam(r *http.Request) (string, bool) {
	id := chi.URLParam(r, "meetingID")
	if r.URL.RawPath != "" {
		var err error
		if id, err = url.PathUnescape(id); err != nil {
			return "", false
		}
	}
	return id, id != "" && len(id) <= maxMeetingIDLen
}

// publicOnly is serve behind what every page and feed does first: the
// site's headers, and a 404 (its problem page at base) while
// PUBLIC_MINUTES is off.
func (s *Site) publicOnly(base string, serve http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.pageHeaders(w.Header())
		if !s.svc.Public() {
			s.writeProblem(w, r, http.StatusNotFound, base)
			return
		}
		serve(w, r)
	}
}

// pageHeaders is setPageHeaders with the site's own CSP (its image hosts),
// and Vary: Accept-Language, as every page and feed is in the language
// the reader's browser asks for (view).
func (s *Site) pageHeaders(h http.Header) {
	setPageHeaders(h)
	h.Set("Content-Security-Policy", s.csp)
	publicweb.SetVary(h)
}

// cacheShared is the Cache-Control of a public answer built from what the
// minutes domain keeps: no cache downstream keeps it longer than the
// domain does.
func (s *Site) cacheShared() string { return s.shared }

// setPageHeaders sets the security headers of every public page response
// (the CSP without Options.ImageHosts: see Site.pageHeaders).
func setPageHeaders(h http.Header) {
	publicweb.SetShared(h)
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	// frame-ancestors says the same to browsers that read CSP.
	h.Set("X-Frame-Options", "DENY")
}

// etag is a strong entity tag for b: a hash of the exact bytes.
func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// layoutData is what layout.html and the pages in it read.
type layoutData struct {
	// Lang is the page's language; Keep the ?lang= its links keep
	// (view.Keep); Languages its language menu.
	Lang      lang.Lang
	Keep      string
	Languages []langLink
	Title     string // the document's <title>
	NoIndex   bool   // asks search engines not to index the page
	// OrgName is ORG_NAME; Base the relative base of the page's links
	// (baseRecord, baseArchive).
	OrgName string
	Base    string
	// Feed is the Atom feed the page offers (<link rel="alternate">),
	// relative to Base.
	Feed       string
	Stylesheet string
	// ArchiveHref is the archive, A11yHref the accessibility statement,
	// relative to the page.
	ArchiveHref string
	A11yHref    string
	Minutes     *minutesDoc
	// EventLD is the schema.org Event of a minutes page's meeting, as
	// JSON-LD (eventLD); nil on other pages.
	EventLD   map[string]any
	Archive   *archiveDoc
	Problem   *problemDoc
	Statement *statementDoc
	Action    *actionDoc
}

// frame is the layout of a page at base, in v's language.
func (s *Site) frame(title, base string, v view) layoutData {
	archive, a11y := "../minutes", "../accessibility"
	if base == baseArchive {
		archive, a11y = "minutes", "accessibility"
	}
	return layoutData{
		Lang: v.Lang, Keep: v.Keep, Languages: v.languages(),
		Title: title, OrgName: s.opts.OrgName, Base: base, Feed: v.href("feed.atom"), Stylesheet: stylesheetHref,
		ArchiveHref: v.href(archive), A11yHref: v.href(a11y),
	}
}

// keptKey is the key of a minutes page kept in one language.
func keptKey(id string, l lang.Lang) string { return id + "\x00" + l.Code() }

// minutesDoc is the minutes page's content.
type minutesDoc struct {
	Title, Committee, Location, Reference string
	Date                                  pageTime
	Agenda                                *agendaDoc
	Draft                                 bool
	// Body is sanitised HTML; see renderBody.
	Body template.HTML
	// Updated is the minutes' own date (when they were approved, for
	// approved minutes); SourceURL the record's own page.
	Updated   pageTime
	SourceURL string
	// Revisions is what the versions kept say, with the link to their
	// comparison; nil when nothing is known. Changes, when set, is the
	// comparison itself (?changes=), shown above the minutes.
	Revisions *revisionsDoc
	Changes   *changesDoc
}

// pageTime is a time as a <time> element shows it; zero when unknown.
type pageTime struct {
	Machine string // the datetime attribute
	Day     string // "Wednesday 18 November 2026", "mercredi 18 novembre 2026"
	Clock   string // "17:00 UTC"; empty for a date without a time
}

// newPageTime is t as a page in l shows it: a date-only value as its
// date, a time in zone (RECORDS_TIMEZONE), the zone's abbreviation after
// it (24-hour clock, which every shipped language reads).
func newPageTime(t time.Time, hasTime bool, zone *time.Location, l lang.Lang) pageTime {
	switch {
	case t.IsZero():
		return pageTime{}
	case !hasTime:
		return pageDate(t, l)
	}
	t = t.In(zone)
	return pageTime{Machine: t.Format(time.RFC3339), Day: pageDay(t, l), Clock: t.Format("15:04 MST")}
}

// pageDate is a date-only value (minutes are dated by day) as a page in l
// shows it; zero when t is.
func pageDate(t time.Time, l lang.Lang) pageTime {
	if t.IsZero() {
		return pageTime{}
	}
	return pageTime{Machine: t.Format(time.DateOnly), Day: pageDay(t, l)}
}

// pageDay is t's date with its weekday, the month spelt out, in l.
func pageDay(t time.Time, l lang.Lang) string {
	y, m, d := t.Date()
	return l.F("page.day", "weekday", l.T(weekdayKeys[t.Weekday()]), "day", strconv.Itoa(d), "month", l.Month(m), "year", strconv.Itoa(y))
}

var weekdayKeys = [7]lang.Key{
	"page.weekday.0", "page.weekday.1", "page.weekday.2", "page.weekday.3",
	"page.weekday.4", "page.weekday.5", "page.weekday.6",
}

// agendaDoc is the agenda as an ordered list.
type agendaDoc struct {
	Items []agendaItemDoc
	// OwnNumbers is set when the record numbers its items in a way a list
	// cannot ("4b"): the list then shows the record's numbers as text.
	OwnNumbers bool
}

type agendaItemDoc struct {
	Value              int    // the list number (the value attribute); 0: the next one
	Label              string // the record's number, shown as text when OwnNumbers
	Title, Description string
}

func newAgendaDoc(items []apiclient.AgendaItem, l lang.Lang) *agendaDoc {
	if len(items) == 0 {
		return nil
	}
	// A copy: the meeting is shared through the cache.
	items = slices.Clone(items)
	for i, it := range items {
		items[i].Title, items[i].Description, items[i].Number = invisible.Strip(it.Title), invisible.Strip(it.Description), invisible.Strip(it.Number)
	}
	a := &agendaDoc{Items: make([]agendaItemDoc, len(items))}
	for i, it := range items {
		a.Items[i] = agendaItemDoc{Title: nonBlank(it.Title, l.T("page.untitled_item")), Description: it.Description}
		if it.Number == "" {
			continue
		}
		if n, err := strconv.Atoi(it.Number); err == nil && n > 0 {
			a.Items[i].Value = n
		} else {
			a.OwnNumbers = true
		}
	}
	if a.OwnNumbers {
		for i, it := range items {
			a.Items[i].Value, a.Items[i].Label = 0, it.Number
		}
	}
	return a
}

// nonBlank returns s, or fallback when s is only white space.
func nonBlank(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}

// renderMinutes renders the minutes page of m for v.
func (s *Site) renderMinutes(e minutes.Entry, changes *changesDoc, v view) ([]byte, error) {
	m, min := e.Meeting, e.Minutes
	body, err := s.renderBody(min)
	if err != nil {
		return nil, err
	}
	// Record text on the page is escaped by html/template; the characters
	// that would reorder or hide it (bidi controls, zero-width) are removed
	// too, as in Slack (package invisible).
	l := v.Lang
	title := invisible.Strip(m.Name())
	doc := &minutesDoc{
		Title:     title,
		Committee: invisible.Strip(m.Committee),
		Location:  invisible.Strip(m.Location),
		Reference: invisible.Strip(m.Reference),
		Date:      newPageTime(m.Date, m.DateHasTime, s.opts.Zone, l),
		Agenda:    newAgendaDoc(m.Agenda, l),
		Draft:     min.Draft(),
		Body:      body,
		Updated:   pageDate(min.Date, l),
		SourceURL: min.URL,
		Revisions: s.revisionsDoc(m.ID, minutes.RevisionsOf(e.Versions), l),
		Changes:   changes,
	}
	page := l.F("page.minutes.title", "title", title)
	if doc.Draft {
		page = l.F("page.minutes.title_draft", "title", title)
	}
	// Drafts are published for information, not for search engines to keep
	// after they are approved or withdrawn.
	data := s.frame(page, baseRecord, v)
	data.NoIndex, data.Minutes = doc.Draft, doc
	data.EventLD = s.eventLD(m, doc)
	return execute(minutesTemplate, data)
}

// renderBody turns a minutes body into sanitised HTML.
func (s *Site) renderBody(min *apiclient.Minutes) (template.HTML, error) {
	src := invisible.Strip(min.Body)
	if min.Format != apiclient.FormatHTML {
		var b strings.Builder
		if err := markdown.Convert([]byte(src), &b); err != nil {
			return "", fmt.Errorf("render markdown: %w", err)
		}
		src = b.String()
	}
	// The only conversion to template.HTML in the bot: the sanitiser's
	// output is what may be shown unescaped.
	return template.HTML(s.body.Sanitize(src)), nil
}

// execute renders t into memory, so a failure mid-way never sends half a
// page, and the ETag can be the hash of the whole.
func execute(t *template.Template, data layoutData) ([]byte, error) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		return nil, fmt.Errorf("render %s: %w", t.Name(), err)
	}
	return cleanOutput(b.Bytes()), nil
}

// eventLD is the meeting as a schema.org Event (https://schema.org/Event):
// its name, its start (a date-time, or a date for a date-only meeting),
// its committee as organizer, its place, and the page's own address when
// PUBLIC_URL is set; search engines and calendar tools read it.
func (s *Site) eventLD(m *apiclient.Meeting, doc *minutesDoc) map[string]any {
	ev := map[string]any{"@context": "https://schema.org", "@type": "Event", "name": doc.Title}
	if doc.Date.Machine != "" {
		ev["startDate"] = doc.Date.Machine
	}
	if doc.Committee != "" {
		ev["organizer"] = map[string]any{"@type": "Organization", "name": doc.Committee}
	}
	if doc.Location != "" {
		ev["location"] = map[string]any{"@type": "Place", "name": doc.Location}
	}
	if u := s.svc.PageURL(m.ID); u != "" {
		ev["url"] = u
	}
	return ev
}
