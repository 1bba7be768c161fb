package minutespage

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

// hostile is record text with every kind of character package invisible
// strips: an override that reverses what follows, zero-width ones, and
// the line breaks some readers break at and others do not.
const hostile = "gnp\u202e.exe \u200bhid\u200dden \u2066x\u2069 line\u2028two\u0085three\u2029four"

func cleanSite() *Site {
	return New(minutes.New(nil, minutes.Config{PublicURL: "https://bot.example.org", Public: true}), Options{OrgName: "Org\u200f"})
}

// renderBoth renders a minutes page and a feed entry of a meeting whose
// every field is text.
func renderBoth(t testing.TB, text string) (page, feed []byte) {
	s := cleanSite()
	m := &apiclient.Meeting{ID: "m1", Title: text, Committee: text, Location: text, Reference: text,
		Date: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), DateHasTime: true,
		Agenda: []apiclient.AgendaItem{{Number: text, Title: text, Description: text}}}
	min := &apiclient.Minutes{MeetingID: "m1", Status: apiclient.MinutesApproved, Body: text + "\n\n" + text}
	page, err := s.renderMinutes(minutes.Entry{Meeting: m, Minutes: min}, nil, view{Lang: lang.English})
	require.NoError(t, err)
	feed, err = s.feed("https://bot.example.org", text, []minutes.Entry{{Meeting: m, Minutes: min}}, view{Lang: lang.English})
	require.NoError(t, err)
	return page, feed
}

// The pages' HTML and the Atom feed carry none of those characters,
// wherever in the record they came: one cleaning rule per format.
func TestPagesAndFeedCarryNoInvisibleCharacters(t *testing.T) {
	t.Parallel()
	page, feed := renderBoth(t, hostile)
	for name, out := range map[string][]byte{"html": page, "atom": feed} {
		for _, r := range []rune{0x202e, 0x200b, 0x200d, 0x2066, 0x2069, 0x2028, 0x0085, 0x2029, 0x200f} {
			assert.NotContains(t, string(out), string(r), "%s: U+%04X", name, r)
		}
		assert.Contains(t, string(out), "gnp.exe", name)
		assert.Contains(t, string(out), "line two three four", "%s: a line separator is a space", name)
	}
}

// FuzzPageClean: whatever the records say, the HTML page and the Atom
// feed hold no character package invisible strips, and the feed is
// well-formed XML.
func FuzzPageClean(f *testing.F) {
	for _, s := range []string{"", "plain", hostile, "\xe2\x80\u200b\xae", "<b>\u202e</b>", "a & \u2028 <x>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		page, feed := renderBoth(t, s)
		assert.False(t, strings.ContainsFunc(string(page), invisible.Is), "html: %q", page)
		assert.False(t, strings.ContainsFunc(string(feed), invisible.Is), "atom: %q", feed)
		var doc struct{}
		assert.NoError(t, xml.Unmarshal(feed, &doc), "the feed is XML")
	})
}
