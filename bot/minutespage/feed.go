package minutespage

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/publicgate"
	"github.com/recordsbot/recordsbot/minutes"
)

// The feed: GET /minutes/feed.atom (?committee= for one committee), the
// newest published minutes as Atom 1.0 (RFC 4287), so a website or a feed
// reader can follow them. Each entry links to its page on the bot;
// updated is when the minutes were approved (published, for a draft), and
// a draft says so in its title and its category.

// atomNS is Atom 1.0's namespace.
const atomNS = "http://www.w3.org/2005/Atom"

// Atom 1.0 as the feed writes it; the elements RFC 4287 requires of a
// feed (id, title, updated, author) and an entry (id, title, updated,
// link) are always present.
type (
	atomFeed struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		// Lang is xml:lang, the language of the feed's own words (RFC
		// 4287 §2); record text is as the records hold it.
		Lang    string      `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
		ID      string      `xml:"id"`
		Title   string      `xml:"title"`
		Updated string      `xml:"updated"`
		Author  atomPerson  `xml:"author"`
		Links   []atomLink  `xml:"link"`
		Entries []atomEntry `xml:"entry"`
	}
	atomPerson struct {
		Name string `xml:"name"`
	}
	atomLink struct {
		Rel  string `xml:"rel,attr"`
		Type string `xml:"type,attr,omitempty"`
		Href string `xml:"href,attr"`
	}
	atomCategory struct {
		Term  string `xml:"term,attr"`
		Label string `xml:"label,attr,omitempty"`
	}
	atomText struct {
		Type string `xml:"type,attr"`
		Text string `xml:",chardata"`
	}
	atomEntry struct {
		ID         string         `xml:"id"`
		Title      string         `xml:"title"`
		Published  string         `xml:"published,omitempty"`
		Updated    string         `xml:"updated"`
		Links      []atomLink     `xml:"link"`
		Categories []atomCategory `xml:"category"`
		Summary    *atomText      `xml:"summary,omitempty"`
	}
)

// feedSummaryMax is how much of the minutes' text an entry's summary holds.
const feedSummaryMax = 400

// Feed serves the Atom feed: 200 application/atom+xml with the first page
// of the archive (?committee= resolved as the archive page resolves it,
// minutes.MatchCommittee), 404 when PUBLIC_MINUTES is off or ?committee=
// names no committee or several, 503 when the records service cannot be
// read.
func (s *Site) Feed() http.HandlerFunc {
	return s.publicOnly(baseRecord, func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if q := limitText(r.URL.Query().Get("q")); strings.TrimSpace(q) != "" {
			s.topicFeed(w, r, q)
			return
		}
		committee := limitText(r.URL.Query().Get("committee"))
		var choice committeeChoice
		var lookup publicgate.Lookup
		if committee != "" {
			var err error
			if lookup, err = s.gate.Committee(ctx, committee); err != nil {
				// No committee by that name among the meetings the bot
				// holds: 404 at once (an empty feed would be accepted and
				// stay silent for ever; see below).
				s.writeProblem(w, r, http.StatusNotFound, baseRecord)
				return
			}
			ctx = lookup.Context()
			// A prefix is served as the committee's feed (its self link
			// the canonical one) rather than redirected: the committee is
			// already known here, and a reader that keeps the first URL
			// it was given still gets the right entries.
			choice = s.resolveCommittee(ctx, committee)
			if len(choice.Ambiguous) > 1 {
				// 404, not an empty feed: a reader subscribing to it is
				// told at once that the address is wrong, where an empty
				// feed would be accepted and stay silent for ever.
				s.writeProblem(w, r, http.StatusNotFound, baseRecord)
				return
			}
			if choice.Name != "" {
				committee = choice.Name
			}
		}
		page, err := s.svc.Archive(ctx, committee, "")
		if err != nil {
			s.opts.Log.WarnContext(ctx, "minutes feed: records unavailable", "error", err)
			w.Header().Set("Retry-After", retryAfter(err))
			s.writeProblem(w, r, http.StatusServiceUnavailable, baseRecord)
			return
		}
		if committee != "" && choice.Name == "" {
			if choice.Known && len(page.Entries) == 0 {
				// No committee of that name with recent minutes: 404, for
				// the reason above.
				lookup.Missed()
				s.writeProblem(w, r, http.StatusNotFound, baseRecord)
				return
			}
			committee = entriesCommittee(page.Entries, committee)
		}
		body, err := s.feed(siteRoot(s.svc, r), committee, page.Entries, s.view(r))
		s.serveFeed(w, r, body, err)
	})
}

// serveFeed answers with a rendered feed, or 500 when err says it could
// not be rendered.
func (s *Site) serveFeed(w http.ResponseWriter, r *http.Request, body []byte, err error) {
	if err != nil {
		s.opts.Log.ErrorContext(r.Context(), "minutes feed: render failed", "error", err)
		s.writeProblem(w, r, http.StatusInternalServerError, baseRecord)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/atom+xml; charset=utf-8")
	h.Set("Cache-Control", s.cacheShared())
	publicweb.Serve(w, r, body, etag(body), time.Time{})
}

// siteRoot is the bot's public base URL: PUBLIC_URL, else the request's
// own scheme and host (a feed's IDs and links must be absolute).
func siteRoot(svc *minutes.Service, r *http.Request) string {
	if u := svc.PublicURL(); u != "" {
		return u
	}
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// feedItem is one entry of a feed, from the archive or from a search.
type feedItem struct {
	meetingID, title, committee, summary string
	updated                              time.Time
	draft                                bool
	// published is when the minutes were approved (published, for a
	// draft) when an edit since moved updated; edited marks that edit.
	published time.Time
	edited    bool
}

// feedHead is what names a feed: its id and self link (relative to the
// site's /minutes/), its title and the archive page it mirrors.
type feedHead struct {
	href, title, archive string
}

// feed renders the feed of entries for committee ("" for all) at root,
// in v's language. Its id is the same in every language: it is one feed,
// whose self link keeps a ?lang= the reader chose.
func (s *Site) feed(root, committee string, entries []minutes.Entry, v view) ([]byte, error) {
	l := v.Lang
	head := feedHead{href: feedHref(committee), title: l.T("feed.title"), archive: root + "/minutes"}
	if committee != "" {
		head.title = l.F("feed.title_of", "committee", committee)
		head.archive += "?" + url.Values{"committee": {committee}}.Encode()
	}
	items := make([]feedItem, 0, len(entries))
	for _, e := range entries {
		m, min := e.Meeting, e.Minutes
		updated := min.Date
		if updated.IsZero() {
			updated = m.Date
		}
		it := feedItem{meetingID: m.ID, title: m.Name(), committee: m.Committee, summary: excerpt(min, feedSummaryMax),
			updated: updated, draft: min.Draft()}
		// Minutes changed after their approval are an updated entry
		// (RFC 4287 §4.2.15: updated is the last significant change;
		// published, the first): feed readers show it again.
		if r := minutes.RevisionsOf(e.Versions); !r.Edited.IsZero() {
			it.published, it.updated, it.edited = updated, r.Edited, true
		}
		items = append(items, it)
	}
	return s.writeFeed(root, head, items, v)
}

// writeFeed renders a feed of items under head.
func (s *Site) writeFeed(root string, head feedHead, items []feedItem, v view) ([]byte, error) {
	l := v.Lang
	id := root + "/minutes/" + head.href
	self := root + "/minutes/" + v.href(head.href)
	title := head.title
	author := s.opts.OrgName
	if author != "" {
		title = l.F("feed.title_org", "org", author, "title", title)
	} else {
		author = "recordsbot"
	}
	f := atomFeed{
		Lang: l.Code(), ID: id, Title: title, Author: atomPerson{Name: author},
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: self},
			{Rel: "alternate", Type: "text/html", Href: v.href(head.archive)},
		},
	}
	var newest time.Time
	for _, it := range items {
		if it.updated.After(newest) {
			newest = it.updated
		}
		href := root + "/minutes/" + url.PathEscape(it.meetingID)
		entry := atomEntry{
			ID:      href,
			Title:   nonBlank(invisible.Strip(it.title), l.T("page.untitled_meeting")),
			Updated: atomTime(it.updated),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: v.href(href)}},
		}
		// The terms are the feed's vocabulary, the same in every
		// language; their labels are for people.
		if it.draft {
			entry.Title = l.F("feed.draft", "title", entry.Title)
			entry.Categories = append(entry.Categories, atomCategory{Term: "draft", Label: l.T("feed.draft_label")})
		} else {
			entry.Categories = append(entry.Categories, atomCategory{Term: "approved", Label: l.T("feed.approved")})
		}
		if it.edited {
			entry.Published = atomTime(it.published)
			entry.Categories = append(entry.Categories, atomCategory{Term: "edited", Label: l.T("feed.edited")})
		}
		if c := strings.TrimSpace(invisible.Strip(it.committee)); c != "" {
			entry.Categories = append(entry.Categories, atomCategory{Term: c})
		}
		if it.summary != "" {
			entry.Summary = &atomText{Type: "text", Text: it.summary}
		}
		f.Entries = append(f.Entries, entry)
	}
	// An empty feed, or one whose entries have no dates, was last updated
	// at no time it can know; the epoch keeps it stable between reads.
	f.Updated = atomTime(newest)
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return cleanOutput(b.Bytes()), nil
}

// topicFeed answers /minutes/feed.atom?q=: a topic as a feed, for people
// outside Slack who follow a subject rather than a committee (what a topic
// watch is in Slack). The entries are the archive search's hits for q
// (the same index, the same query language, only minutes the records
// still serve), newest first. 404 without a search index, 503 when it
// cannot be read.
func (s *Site) topicFeed(w http.ResponseWriter, r *http.Request, q string) {
	ctx := r.Context()
	if s.opts.Search == nil {
		s.writeProblem(w, r, http.StatusNotFound, baseRecord)
		return
	}
	hits, err := s.opts.Search(ctx, q)
	if err != nil {
		s.opts.Log.WarnContext(ctx, "minutes topic feed: search failed", "error", err)
		w.Header().Set("Retry-After", "30")
		s.writeProblem(w, r, http.StatusServiceUnavailable, baseRecord)
		return
	}
	items := make([]feedItem, 0, len(hits))
	for _, h := range hits {
		var text strings.Builder
		for _, p := range h.Snippet {
			text.WriteString(p.Text)
		}
		items = append(items, feedItem{meetingID: h.MeetingID, title: h.Title, committee: h.Committee,
			summary: invisible.Strip(text.String()), updated: h.Date, draft: h.Draft})
	}
	slices.SortStableFunc(items, func(a, b feedItem) int { return b.updated.Compare(a.updated) })
	v := s.view(r)
	root := siteRoot(s.svc, r)
	head := feedHead{href: "feed.atom?" + url.Values{"q": {q}}.Encode(), title: v.Lang.F("feed.title_topic", "query", minutes.QuoteQuery(q)),
		archive: root + "/minutes?" + url.Values{"q": {q}}.Encode()}
	body, err := s.writeFeed(root, head, items, v)
	s.serveFeed(w, r, body, err)
}

// atomTime is t as RFC 3339 in UTC, the Unix epoch for a zero t.
func atomTime(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format(time.RFC3339)
}
