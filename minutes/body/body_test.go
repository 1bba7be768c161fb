package body

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/apiclient"
)

func TestPlainText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		format     apiclient.BodyFormat
		want       string
	}{
		{"markdown", "# Finance\n\n**Present:** Ana, [Ben](https://x.example)\n\n- one\n  - nested\n\n1. first\n\n> Draft minutes\n\n" +
			"~~deferred~~ agreed, <minor> changes, <b>bold</b> tag left out\n\n| Item | Cost |\n|---|---|\n| Cover | £4,200 |\n\n`code` and ![a chart](c.png)",
			apiclient.FormatMarkdown,
			"Finance\n\nPresent: Ana, Ben\n\none\n\nnested\n\nfirst\n\nDraft minutes\n\ndeferred agreed, <minor> changes, bold tag left out\n\nItem · Cost\n\nCover · £4,200\n\ncode and a chart"},
		{"html", "<h1>Finance</h1><p>Budget &amp; <b>insurance</b><br>next line</p><ul><li>a<ul><li>b</li></ul></li></ul>" +
			"<script>x()</script><style>p{}</style><table><tr><td>Cover</td><td>£4,200</td></tr></table>",
			apiclient.FormatHTML,
			"Finance\n\nBudget & insurance\nnext line\n\na\n\nb\n\nCover · £4,200"},
		{"invalid UTF-8", "ok \xff there", apiclient.FormatMarkdown, "ok \uFFFD there"},
		{"empty", "  \n\n ", apiclient.FormatHTML, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, PlainText(c.body, c.format))
		})
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add("# a\n\n**b** [c](https://d) <e> ~~f~~", false)
	f.Add("<p>a<br>b</p><ul><li>c<ul><li>d</li></ul></li></ul><script>x</script>", true)
	f.Fuzz(func(t *testing.T, text string, html bool) {
		format := apiclient.FormatMarkdown
		if html {
			format = apiclient.FormatHTML
		}
		got := PlainText(text, format)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if strings.TrimSpace(got) != got {
			t.Fatalf("not trimmed: %q", got)
		}
	})
}
