package blocks

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// unescape undoes Escape.
func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// assertEscaped checks the property every escaped text has: no < or >, and
// every & starts one of the three entities.
func assertEscaped(t *testing.T, s string) {
	t.Helper()
	assert.NotContains(t, s, "<")
	assert.NotContains(t, s, ">")
	for i := strings.IndexByte(s, '&'); i >= 0; i = next(s, i) {
		rest := s[i:]
		assert.True(t, strings.HasPrefix(rest, "&amp;") || strings.HasPrefix(rest, "&lt;") || strings.HasPrefix(rest, "&gt;"),
			"bare & at %d in %q", i, s)
	}
}

func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '&')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func TestEscape(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"plain", "Budget 2026/27", "Budget 2026/27"},
		{"empty", "", ""},
		{"all three", "a & b < c > d", "a &amp; b &lt; c &gt; d"},
		{"mention", "<!channel> <@U123>", "&lt;!channel&gt; &lt;@U123&gt;"},
		{"already escaped is escaped again", "&amp;", "&amp;amp;"},
		{"multi-byte untouched", "Café — ünïcödé 😀 <x>", "Café — ünïcödé 😀 &lt;x&gt;"},
		{"markdown untouched", "*bold* _it_ `code` ~s~", "*bold* _it_ `code` ~s~"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Escape(tc.in))
		})
	}
}

// What a person typed is quoted back escaped once, and never reads as
// text escaped twice, even when they typed an entity as it is.
func TestEscapeTyped(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Audit & Risk":  "Audit &amp; Risk",
		"R&D <board>":   "R&amp;D &lt;board&gt;",
		"&gt;":          "＆gt;",
		"R&amp;D":       "R＆amp;D",
		"&lt;b&gt; & c": "＆lt;b＆gt; &amp; c",
		"&amp;amp;":     "＆amp;amp;",
		"&ampersand":    "&amp;ampersand",
		"":              "",
	} {
		got := EscapeTyped(in)
		assert.Equal(t, want, got, "%q", in)
		assert.NoError(t, CheckMessage(Message{Text: "I found nothing called `" + got + "`."}), "%q", in)
	}
}

func TestEscapeTrunc(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "a&b", 7, "a&amp;b"},
		{"entity not split", "a&b", 6, "a…"},
		{"cut before entity", "ab<cd", 5, "ab…"},
		{"runes not split", "éééééé", 4, "ééé…"},
		{"trailing space dropped", "ab cd", 4, "ab…"},
		{"zero", "abc", 0, ""},
		{"one", "abc", 1, "…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := escapeTrunc(tc.in, tc.max)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), max(tc.max, 0))
		})
	}
}

// Truncation cuts between words: German and French catalogue text and
// record text run longer than English, and a half word ("Tagesordnungs…")
// reads as a mistake. A single word longer than half the room is still cut
// inside, so most of it shows; every result keeps the limit.
func TestTruncateCutsOnWordBoundaries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cut  func(string, int) string
		in   string
		max  int
		want string
	}{
		{"plain mid-word", truncate, "Besprechung der Tagesordnungspunkte", 30, "Besprechung der…"},
		{"plain at a space", truncate, "Réunion du comité des finances", 20, "Réunion du comité…"},
		{"plain one long word", truncate, "Haushaltsüberwachungsausschuss", 12, "Haushaltsüb…"},
		{"plain long word after a short one", truncate, "Le Haushaltsüberwachungsausschuss", 12, "Le Haushalt…"},
		{"plain after punctuation", truncate, "Vorlage, Entwurf", 10, "Vorlage,…"},
		{"escaped mid-word", escapeTrunc, "Prüfung & Genehmigung des Protokolls", 28, "Prüfung &amp; Genehmigung…"},
		{"escaped keeps entities whole", escapeTrunc, "a <b> c déclarations", 16, "a &lt;b&gt; c…"},
		{"mrkdwn mid-word", truncateMrkdwn, "*Finanzen* erhält Entwürfe und Genehmigungen", 30, "*Finanzen* erhält Entwürfe…"},
		{"mrkdwn never inside a link", truncateMrkdwn, "voir <https://x.example/a|le procès-verbal complet> ici", 40, "voir…"},
		{"mrkdwn accent as a mark", truncateMrkdwn, "Réunion prévue demain matin", 20, "Réunion prévue…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.cut(tc.in, tc.max)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), tc.max)
		})
	}
}

// FuzzTruncate holds the three truncation helpers to their contract for
// any text and room: the limit is kept, what is kept is the text's start
// (escaped once for escapeTrunc), valid UTF-8 stays valid, and a cut never
// ends inside a word when a word break was available in the second half
// of the room.
func FuzzTruncate(f *testing.F) {
	f.Add("Besprechung der Tagesordnungspunkte", 30)
	f.Add("Réunion du comité des finances", 20)
	f.Add("Haushaltsüberwachungsausschuss", 12)
	f.Add("voir <https://x.example/a|le procès-verbal> ici &amp; là", 25)
	f.Add("a&b c<d e>f", 7)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 4000
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		src := invisible.Strip(s)
		for name, got := range map[string]string{
			"truncate": truncate(s, n), "escapeTrunc": escapeTrunc(s, n), "truncateMrkdwn": truncateMrkdwn(Escape(s), n),
		} {
			require.LessOrEqual(t, utf8.RuneCountInString(got), max(n, 0), name)
			require.True(t, utf8.ValidString(got), "%s: invalid UTF-8 %q", name, got)
			kept := strings.TrimSuffix(got, ellipsis)
			if name != "truncate" {
				assertEscaped(t, got)
				kept = unescape(kept)
			}
			require.True(t, strings.HasPrefix(src, kept), "%s: %q is not the start of %q", name, got, src)
			if name == "truncate" && kept != src && n > 1 {
				room := prefixRunes(src, n-1)
				last, _ := utf8.DecodeLastRuneInString(kept)
				next, _ := utf8.DecodeRuneInString(src[len(kept):])
				if isWordRune(last) && isWordRune(next) {
					i := strings.LastIndexFunc(room, unicode.IsSpace)
					assert.False(t, i > 0 && i >= len(room)/2, "%s: %q ends inside a word though %q has a break", name, got, room)
				}
			}
		}
	})
}

func TestTruncateMrkdwn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "hi <@U1>", 8, "hi <@U1>"},
		{"inside a mention", "hi <@U12345> there", 8, "hi…"},
		{"inside an entity", "a b &amp; c", 7, "a b…"},
		{"after a mention", "<@U1> and more text", 10, "<@U1> and…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := truncateMrkdwn(tc.in, tc.max)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), tc.max)
		})
	}
}

func TestDate(t *testing.T) {
	t.Parallel()
	auckland := time.FixedZone("NZDT", 13*3600)
	cases := []struct {
		name    string
		t       time.Time
		hasTime bool
		want    string
	}{
		{"zero", time.Time{}, false, ""},
		{"zero with time", time.Time{}, true, ""},
		{
			"date only is shown at noon UTC", day(2026, 3, 9), false,
			"<!date^1773057600^{date_short_pretty}|Mar 9, 2026>",
		},
		{
			"date only keeps the calendar date of its zone",
			time.Date(2026, 3, 9, 0, 0, 0, 0, auckland), false,
			"<!date^1773057600^{date_short_pretty}|Mar 9, 2026>",
		},
		{
			"with time", time.Date(2026, 3, 4, 17, 0, 0, 0, time.UTC), true,
			"<!date^1772643600^{date_short_pretty} at {time}|Mar 4, 2026 at 17:00 UTC>",
		},
		{
			"with time in another zone falls back in UTC",
			time.Date(2026, 3, 5, 6, 0, 0, 0, auckland), true,
			"<!date^1772643600^{date_short_pretty} at {time}|Mar 4, 2026 at 17:00 UTC>",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Date(lang.English, tc.t, tc.hasTime))
		})
	}
}

func TestMention(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, id, want string
	}{
		{"user", "U0123ABCD", "<@U0123ABCD>"},
		{"enterprise user", "W0123ABCD", "<@W0123ABCD>"},
		{"lower case", "u0123abcd", "u0123abcd"},
		{"channel", "C0123ABCD", "C0123ABCD"},
		{"special", "<!channel>", "&lt;!channel&gt;"},
		{"smuggled", "U1><!channel", "U1&gt;&lt;!channel"},
		{"too long", "U" + strings.Repeat("A", 40), "U" + strings.Repeat("A", 22) + "…"},
		{"empty", "", "someone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, mention(lang.English, tc.id))
		})
	}
}

func TestSafeURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		url  string
		want bool
	}{
		{"https", "https://records.example.org/m/7?a=1&b=2", true},
		{"http upper case", "HTTP://records.example.org/", true},
		{"javascript", "javascript:alert(1)", false},
		{"no host", "https:///path", false},
		{"relative", "/meetings/7", false},
		{"pipe", "https://x.example/|<!channel>", false},
		{"angle", "https://x.example/>", false},
		{"space", "https://x.example/a b", false},
		{"newline", "https://x.example/\n", false},
		{"empty", "", false},
		{"too long", "https://x.example/" + strings.Repeat("a", 600), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, safeURL(tc.url, maxInlineURL))
		})
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		body string
		max  int
		want string
	}{
		{"fits", "One.\n\nTwo.", 100, "One.\n\nTwo."},
		{"blank runs collapse", "\n\nOne.  \r\n\r\n\r\n\t\nTwo.\n\n", 100, "One.\n\nTwo."},
		{"whole paragraphs", "First para.\n\nSecond para.\n\nThird para.", 27, "First para.\n\nSecond para.\n…"},
		{"word boundary", "alpha beta gamma delta", 15, "alpha beta…"},
		{"line boundary", "alpha beta\ngamma delta epsilon", 20, "alpha beta…"},
		{"no boundary", strings.Repeat("x", 20), 10, strings.Repeat("x", 9) + "…"},
		{"runes", strings.Repeat("é", 20), 5, "éééé…"},
		{"invalid utf-8", "ok \xff\xfe ok", 100, "ok \uFFFD ok"},
		{"zero max", "text", 0, ""},
		{"empty", "", 10, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Excerpt(tc.body, tc.max)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), max(tc.max, 0))
		})
	}
}

// Slack text carries no line separator either: mrkdwn, plain_text and the
// minutes' body read as Slack shows them, one line where the record has
// one, in every client.
func TestSlackTextCarriesNoLineSeparator(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a b c d", Escape("a\u2028b\u0085c\u2029d"))
	assert.Equal(t, "a b", truncate("a\u2028b", 10))
	body := Mrkdwn("Item one\u2028continued\u0085here.\n\nSecond \u202eparagraph.", apiclient.FormatMarkdown, 3000)
	assert.False(t, strings.ContainsFunc(body, invisible.Is), "%q", body)
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "<!channel> <@U123> & co", "&amp;&lt;&gt;", "é<>&😀", "\xff<", "\u202Egnp.exe", "a\u200B&\u2066<b>\uFEFF", "a\u2028b\u0085c\u2029<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		assertEscaped(t, got)
		assert.Equal(t, invisible.Strip(s), unescape(got), "only the three entities and the invisible characters change")
		assert.False(t, strings.ContainsFunc(got, invisible.Is), "no bidi control or zero-width character in %q", got)
		if !strings.ContainsAny(s, "&<>") {
			assert.Equal(t, invisible.Strip(s), got)
		}
		// What a person typed, quoted back: escaped, and never the
		// pattern of text escaped twice, whatever they typed.
		typed := EscapeTyped(s)
		assertEscaped(t, typed)
		for _, twice := range []string{"&amp;amp;", "&amp;lt;", "&amp;gt;"} {
			assert.NotContains(t, typed, twice)
		}
		if !strings.Contains(s, "&") {
			assert.Equal(t, got, typed, "without an ampersand it is Escape")
		}
	})
}

func FuzzEscapeTrunc(f *testing.F) {
	f.Add("a&b<c>d", 4)
	f.Add("ééé&", 3)
	f.Add("\u202Egnp.exe & co", 6)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 4000
		got := escapeTrunc(s, n)
		assertEscaped(t, got)
		assert.LessOrEqual(t, utf8.RuneCountInString(got), max(n, 0))
		if utf8.ValidString(s) {
			assert.True(t, utf8.ValidString(got))
			assert.True(t, strings.HasPrefix(invisible.Strip(s), strings.TrimSuffix(unescape(got), ellipsis)),
				"%q is not a prefix of %q", got, s)
			assert.False(t, strings.ContainsFunc(got, invisible.Is), "no bidi control or zero-width character in %q", got)
		}
	})
}

func FuzzExcerpt(f *testing.F) {
	f.Add("Para one.\n\nPara two is longer than one.", 20)
	f.Add("\r\n\r\nword word word", 5)
	f.Add("ééééé", 2)
	f.Fuzz(func(t *testing.T, body string, n int) {
		n = n % 5000
		got := Excerpt(body, n)
		assert.True(t, utf8.ValidString(got), "invalid UTF-8 out: %q", got)
		assert.LessOrEqual(t, utf8.RuneCountInString(got), max(n, 0))
		assert.NotContains(t, got, "\n\n\n")
	})
}
