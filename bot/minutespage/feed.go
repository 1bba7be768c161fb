package minutespage

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/url"
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
		if err != nil {
			s.opts.Log.ErrorContext(ctx, "minutes feed: render failed", "error", err)
			s.writeProblem(w, r, http.StatusInternalServerError, baseRecord)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/atom+xml; charset=utf-8")
		h.Set("Cache-Control", s.cacheShared())
		publicweb.Serve(w, r, body, etag(body), time.Time{})
	})
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

// feed renders the feed of entries for committee ("" for all) at root,
// in v's language. Its id is the same in every language: it is one feed,
// whose self link keeps a ?lang= the reader chose.
func (s *Site) feed(root, committee string, entries []minutes.Entry, v view) ([]byte, error) {
	l := v.Lang
	id := root + "/minutes/" + feedHref(committee)
	self := root + "/minutes/" + v.href(feedHref(committee))
	archive := root + "/minutes"
	title := l.T("feed.title")
	if committee != "" {
		title = l.F("feed.title_of", "committee", committee)
		archive += "?" + url.Values{"committee": {committee}}.Encode()
	}
	archive = v.href(archive)
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
			{Rel: "alternate", Type: "text/html", Href: archive},
		},
	}
	var newest time.Time
	for _, e := range entries {
		m, min := e.Meeting, e.Minutes
		updated := min.Date
		if updated.IsZero() {
			updated = m.Date
		}
		if updated.After(newest) {
			newest = updated
		}
		href := root + "/minutes/" + url.PathEscape(m.ID)
		entry := atomEntry{
			ID:      href,
			Title:   nonBlank(invisible.Strip(m.Name()), l.T("page.untitled_meeting")),
			Updated: atomTime(updated),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: v.href(href)}},
		}
		// The terms are the feed's vocabulary, the same in every
		// language; their labels are for people.
		if min.Draft() {
			entry.Title = l.F("feed.draft", "title", entry.Title)
			entry.Categories = append(entry.Categories, atomCategory{Term: "draft", Label: l.T("feed.draft_label")})
		} else {
			entry.Categories = append(entry.Categories, atomCategory{Term: "approved", Label: l.T("feed.approved")})
		}
		if c := strings.TrimSpace(invisible.Strip(m.Committee)); c != "" {
			entry.Categories = append(entry.Categories, atomCategory{Term: c})
		}
		if text := excerpt(min, feedSummaryMax); text != "" {
			entry.Summary = &atomText{Type: "text", Text: text}
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
	return b.Bytes(), nil
}

// atomTime is t as RFC 3339 in UTC, the Unix epoch for a zero t.
func atomTime(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format(time.RFC3339)
}
