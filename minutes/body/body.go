// Package body reads a minutes body, Markdown or HTML as the records write
// it, into one document of blocks and spans: the minutes domain's one
// reading of minutes text. Package blocks writes a Doc as Slack mrkdwn
// (blocks.Mrkdwn); PlainText is the text a reader sees, which the search
// index holds, unfurls and the public archive quote.
//
// Markdown is read with goldmark's AST (CommonMark with tables,
// strikethrough and bare links, as the public pages render it), HTML with
// golang.org/x/net/html, into the same blocks and spans. Images, raw HTML
// tags and scripts leave only their text, or nothing; text that only
// looks like a tag ("subject to <minor> changes") is the record's text
// and is kept.
package body

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Block is one block of a minutes document: a paragraph, a heading line,
// one list item, a quoted paragraph or a code block.
type Block struct {
	// Lead is what the block's first line starts with ("• ", "1. ",
	// indentation); Quote puts "> " before every line.
	Lead  string
	Quote bool
	// Heading, Code: the block is a heading (shown bold) or preformatted.
	Heading, Code bool
	// Tight joins the block to the one before with a line break rather
	// than a blank line (list items, a quote's paragraphs, table rows).
	Tight bool
	Spans []Span
}

// SpanKind is what a span of a block's text is.
type SpanKind int

// The kinds of span.
const (
	SpanText SpanKind = iota
	SpanStrong
	SpanEm
	SpanStrike
	SpanCode
	SpanLink
	SpanBreak // a hard line break
)

// Span is a run of a block's text: plain text, a style over its Kids,
// code or a link.
type Span struct {
	Kind SpanKind
	Text string // SpanText, SpanCode: the text as the record has it
	URL  string // SpanLink, as the record has it
	Kids []Span
}

// Doc is a minutes body read into blocks.
type Doc struct {
	Blocks []Block
}

// Parse reads body in format (Markdown unless apiclient.FormatHTML).
// Invalid UTF-8 is replaced. It never fails: what cannot be read is text.
func Parse(body string, format apiclient.BodyFormat) Doc {
	body = strings.ToValidUTF8(body, "\uFFFD")
	if format == apiclient.FormatHTML {
		return parseHTML(body)
	}
	return parseMarkdown(body)
}

// PlainText returns a minutes body as the words a reader sees: no markup,
// one block a paragraph, separated by blank lines, not escaped for any
// place it is shown. It is what the search index holds and what unfurls
// and the public archive quote.
func PlainText(body string, format apiclient.BodyFormat) string {
	d := Parse(body, format)
	var b strings.Builder
	for _, bl := range d.Blocks {
		t := strings.TrimSpace(SpansText(bl.Spans))
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	return b.String()
}

// BlockSeparator is what stands between two blocks (or the lines of one)
// of PlainText when it is shown on one line: a snippet, an excerpt, an
// unfurl. Without it a heading runs into the text after it ("Town Hall
// 1. Welcome").
const BlockSeparator = " · "

// OneLine folds PlainText (or any part of it) onto one line: a run of
// whitespace holding a line break becomes BlockSeparator, any other run
// one space, and the ends are trimmed.
func OneLine(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	pending, broke := false, false
	for _, r := range text {
		if unicode.IsSpace(r) {
			pending = true
			broke = broke || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
			continue
		}
		if pending && b.Len() > 0 {
			if broke {
				b.WriteString(BlockSeparator)
			} else {
				b.WriteByte(' ')
			}
		}
		pending, broke = false, false
		b.WriteRune(r)
	}
	return b.String()
}

// SpansText is the text of spans without their marks: code as written, a
// link as its label, a hard break as a line break.
func SpansText(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		switch s.Kind {
		case SpanText, SpanCode:
			b.WriteString(s.Text)
		case SpanBreak:
			b.WriteByte('\n')
		default:
			b.WriteString(SpansText(s.Kids))
		}
	}
	return b.String()
}

// itemLead is the lead of a list item: "• " (nested: "◦ ", indented by four
// spaces a level) or "n. ".
func itemLead(depth int, ordered bool, n int) string {
	indent := strings.Repeat("    ", max(depth-1, 0))
	switch {
	case ordered:
		return indent + strconv.Itoa(n) + ". "
	case depth > 1:
		return indent + "◦ "
	}
	return indent + "• "
}
