package blocks

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/minutes"
)

// richMarkdown is minutes as records write them: headings, bold, lists
// (nested, ordered), a quote, links, code, a table and raw HTML.
const richMarkdown = `# Finance Committee, 18 November 2026

> Draft minutes, subject to approval at the next meeting.

## 1. Welcome & apologies

**Present:** A. Jones (chair), B. Patel, _C. Wu_.
Apologies: D. Smith.

## 2. Insurance renewal

The committee reviewed [the broker's report](https://records.example.org/docs/ins?year=2027&v=2) and ~~deferred~~ agreed:

- renew with **Acme Mutual** for 2027
- raise the excess to ` + "`£500`" + `
  - review in six months
- contact <treasurer@example.org>

1. Treasurer to sign by 1 December.
2. Secretary to file the policy.

| Item | Cost |
|------|------|
| Cover | £4,200 |

Raw <span>HTML</span> is left out, <minor> text is not.
`

// richHTML is the same kind of minutes written in HTML.
const richHTML = `<h1>Finance Committee, 18 November 2026</h1>
<blockquote><p>Draft minutes, subject to approval.</p></blockquote>
<h2>1. Welcome &amp; apologies</h2>
<p><strong>Present:</strong> A. Jones (chair), B. Patel, <em>C. Wu</em>.<br>Apologies: D. Smith.</p>
<h2>2. Insurance renewal</h2>
<p>See <a href="https://records.example.org/docs/ins?year=2027&amp;v=2">the broker's report</a> &lt;attached&gt;.</p>
<ul><li>renew with <b>Acme Mutual</b></li><li>raise the excess to <code>£500</code><ul><li>review in six months</li></ul></li></ul>
<ol start="3"><li>Treasurer to sign.</li><li>Secretary to file.</li></ol>
<script>alert("not minutes")</script><a href="javascript:alert(1)">not a link</a>
<table><tr><th>Item</th><th>Cost</th></tr><tr><td>Cover</td><td>£4,200</td></tr></table>`

func TestMinutesGoldenMarkdownAndHTML(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]MinutesView{
		"minutes_markdown": {Display: minutes.Display{MeetingID: "M-9", Title: "Finance Committee, November", Committee: "Finance", Date: day(2026, 11, 18),
			Body: richMarkdown, URL: "https://records-bot.example.org/minutes/M-9"}, Shareable: true},
		"minutes_html": {Display: minutes.Display{MeetingID: "M-9", Title: "Finance Committee, November", Committee: "Finance", Date: day(2026, 11, 18),
			Body: richHTML, Format: apiclient.FormatHTML, Draft: true}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := Minutes(v)
			require.NoError(t, CheckMessage(m))
			assertGolden(t, name, func(l lang.Lang) any { return payload(Minutes(minutesIn(l, v))) })
			assertGolden(t, "unfurl_"+name, func(l lang.Lang) any { return UnfurlMinutes(minutesIn(l, v)) })
			whole := Mrkdwn(v.Body, v.Format, 0)
			assert.Empty(t, slacktest.StandardMarkdown(whole), "no standard Markdown in\n%s", whole)
			// The whole body as Slack text, as a message of text alone.
			assertGolden(t, name+"_text", func(lang.Lang) any { return map[string]any{"text": whole} })
		})
	}
}

func TestMrkdwnCutsAtABoundary(t *testing.T) {
	t.Parallel()
	long := "First sentence here. " + strings.Repeat("word ", 60) + "end."
	tests := []struct {
		name, body string
		max        int
		want       string
	}{
		{"whole blocks while they fit", "# One\n\nTwo two.\n\nThree three three three three.", 20, "*One*\n\nTwo two.\n…"},
		{"a sentence's end", "Word word word word word word. Then more words follow here", 40, "Word word word word word word.…"},
		{"a word's end when the sentence ends early", long, 60, "First sentence here. word word word word word word word…"},
		{"a word's end", strings.Repeat("word ", 30), 23, "word word word word…"},
		{"never inside a link", "[a long link text here](https://example.org/x) and more words", 55, "<https://example.org/x|a long link text here> and more…"},
		{"a link that does not fit is left out", "[a long link text here](https://example.org/x) and more words", 30, ""},
		{"never inside bold", "**bold words that run on** then plain words follow", 40, "*bold words that run on* then plain…"},
		{"fits whole", "Short.", 10, "Short."},
		{"nothing", "  \n\n<!-- a comment -->", 100, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Mrkdwn(tt.body, apiclient.FormatMarkdown, tt.max)
			assert.Equal(t, tt.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), tt.max)
		})
	}
}

func TestMrkdwnEscapesOnce(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		body   string
		format apiclient.BodyFormat
		want   string
	}{
		"markdown entity":          {"R&amp;D &lt;3", apiclient.FormatMarkdown, "R&amp;D &lt;3"},
		"markdown character":       {"R&D <3 > 2", apiclient.FormatMarkdown, "R&amp;D &lt;3 &gt; 2"},
		"html entity":              {"<p>R&amp;D &lt;3</p>", apiclient.FormatHTML, "R&amp;D &lt;3"},
		"an entity written as is":  {"R&amp;amp;D", apiclient.FormatMarkdown, "R＆amp;D"},
		"literal markdown escaped": {`\*\*not bold\*\* \[x\](https://e.org)`, apiclient.FormatMarkdown, "*\u200b*not bold*\u200b* [x]\u200b(<https://e.org>)"},
		"literal heading":          {`\# not a heading`, apiclient.FormatMarkdown, "\u200b# not a heading"},
		"url with a pipe":          {"[x](https://e.org/a|b?c=1&d=2)", apiclient.FormatMarkdown, "<https://e.org/a%7Cb?c=1&amp;d=2|x>"},
		"unsafe link is text":      {"[click](javascript:alert(1))", apiclient.FormatMarkdown, "click"},
		"mention-like text":        {"<!channel> @here <@U123>", apiclient.FormatHTML, "@here &lt;@U123&gt;"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := Mrkdwn(tt.body, tt.format, 0)
			assert.Equal(t, tt.want, got)
		})
	}
}

// FuzzMrkdwn: whatever a record's body holds, Markdown or HTML, its Slack
// text is valid UTF-8, within the length asked, escaped exactly once (no
// raw <, > or & outside Slack's own link syntax), and shows no standard
// Markdown.
func FuzzMrkdwn(f *testing.F) {
	for _, s := range []string{richMarkdown, richHTML, "**a**", "# h", "[t](https://x.org)", "&amp;gt; x", "<a href='https://x.org/|'>&gt;</a>",
		"`code **x**`", "***bold em***", "* * *", "> > nested", "1) one\n2) two", "\\# x", "a\x00b", "<p>\xff</p>"} {
		f.Add(s, false, 200)
		f.Add(s, true, 3000)
	}
	f.Fuzz(func(t *testing.T, body string, isHTML bool, max int) {
		format := apiclient.FormatMarkdown
		if isHTML {
			format = apiclient.FormatHTML
		}
		max = max%MaxSectionText + 1
		if max < 0 {
			max = -max
		}
		got := Mrkdwn(body, format, max)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if n := utf8.RuneCountInString(got); max > 0 && n > max {
			t.Fatalf("%d characters, max %d: %q", n, max, got)
		}
		if md := slacktest.StandardMarkdown(got); len(md) > 0 {
			t.Fatalf("standard Markdown %v in %q", md, got)
		}
		// Outside <url|text> links, every <, > and & is an entity; a quote's
		// "> " starts a line.
		rest := linkSyntax.ReplaceAllString(got, "")
		rest = quoteLead.ReplaceAllString(rest, "")
		rest = entity.ReplaceAllString(rest, "")
		if strings.ContainsAny(rest, "<>&") {
			t.Fatalf("unescaped <, > or & in %q", got)
		}
	})
}

var (
	linkSyntax = regexp.MustCompile(`<(?:https?|mailto):[^<>|\s]*(?:\|[^<>]*)?>`)
	quoteLead  = regexp.MustCompile(`(?m)^> `)
	entity     = regexp.MustCompile(`&(?:amp|lt|gt);`)
)
