// Package atomtest reads an Atom feed as a strict reader does, for the
// tests of the public feed in bot and bot/minutespage: one reader, so the
// two packages' tests hold the feed to the same rules.
package atomtest

import (
	"encoding/xml"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Feed and its parts are Atom 1.0 as a strict reader takes it (RFC 4287).
type (
	Feed struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		ID      string   `xml:"http://www.w3.org/2005/Atom id"`
		Title   string   `xml:"http://www.w3.org/2005/Atom title"`
		Updated string   `xml:"http://www.w3.org/2005/Atom updated"`
		Authors []Name   `xml:"http://www.w3.org/2005/Atom author"`
		Links   []Link   `xml:"http://www.w3.org/2005/Atom link"`
		Entries []Entry  `xml:"http://www.w3.org/2005/Atom entry"`
	}
	Name struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	}
	Link struct {
		Rel  string `xml:"rel,attr"`
		Type string `xml:"type,attr"`
		Href string `xml:"href,attr"`
	}
	Entry struct {
		ID         string `xml:"http://www.w3.org/2005/Atom id"`
		Title      string `xml:"http://www.w3.org/2005/Atom title"`
		Updated    string `xml:"http://www.w3.org/2005/Atom updated"`
		Authors    []Name `xml:"http://www.w3.org/2005/Atom author"`
		Links      []Link `xml:"http://www.w3.org/2005/Atom link"`
		Categories []struct {
			Term string `xml:"term,attr"`
		} `xml:"http://www.w3.org/2005/Atom category"`
		Summary string `xml:"http://www.w3.org/2005/Atom summary"`
	}
)

// Parse decodes body strictly and checks what RFC 4287 requires: a
// feed and each entry have an id (an absolute IRI), a title and an
// RFC 3339 updated; the feed an author (or each entry one) and a self
// link; each entry an alternate link.
func Parse(t testing.TB, body string) Feed {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(body))
	dec.Strict = true
	var f Feed
	require.NoError(t, dec.Decode(&f), "well-formed Atom")
	requireIRI := func(what, s string) {
		u, err := url.Parse(s)
		require.NoError(t, err, what)
		require.True(t, u.IsAbs(), "%s %q is an absolute IRI", what, s)
	}
	requireIRI("feed id", f.ID)
	require.NotEmpty(t, strings.TrimSpace(f.Title), "feed title")
	_, err := time.Parse(time.RFC3339, f.Updated)
	require.NoError(t, err, "feed updated")
	self := false
	for _, l := range f.Links {
		self = self || l.Rel == "self" && l.Href != ""
	}
	require.True(t, self, "a feed links to itself")
	for _, e := range f.Entries {
		requireIRI("entry id", e.ID)
		require.NotEmpty(t, strings.TrimSpace(e.Title), "entry title")
		_, err := time.Parse(time.RFC3339, e.Updated)
		require.NoError(t, err, "entry updated")
		require.True(t, len(f.Authors) > 0 && f.Authors[0].Name != "" || len(e.Authors) > 0, "an author for every entry")
		alt := false
		for _, l := range e.Links {
			alt = alt || (l.Rel == "alternate" || l.Rel == "") && l.Href != ""
		}
		require.True(t, alt, "entry %s links to its page", e.ID)
	}
	return f
}
