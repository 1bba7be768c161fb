package blocks

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/minutes/body"
)

// Minutes as Slack text.
//
// Records write minutes in Markdown or HTML; Slack's mrkdwn is neither: it
// has no headings, bolds with one asterisk, and decodes only &amp; &lt;
// &gt; (https://docs.slack.dev/messaging/formatting-message-text). A body
// shown as written reads "# Finance", "**Present:**" and "[the
// report](https://…)" in Slack. So a body is read by package
// minutes/body (goldmark's AST for Markdown, golang.org/x/net/html for
// HTML) into one document, the same for both, and written out as mrkdwn:
//
//	# Heading / <h1>          *Heading* on a line of its own
//	**bold** / <b>, <strong>  *bold*
//	_em_ / <i>, <em>          _em_
//	~~strike~~ / <s>, <del>   ~strike~
//	`code` / <code>           `code`
//	- item / <ul><li>         • item (nested: ◦ item, indented)
//	1. item / <ol><li>        1. item
//	> quote / <blockquote>    > quote, every line
//	[text](url) / <a href>    <url|text>, http(s) and mailto only
//	```code``` / <pre>        ```code```
//
// Record text is escaped exactly once (Escape); a URL inside <…> has its
// &, < and > escaped as entities and | and spaces percent-encoded, as
// Slack's rules for links require. Anything else (images, raw HTML,
// scripts) leaves only its text, or nothing.

// Mrkdwn returns a minutes body (Markdown, or HTML when format says so) as
// Slack mrkdwn of at most max characters, escaped exactly once. A longer
// body keeps whole blocks (paragraphs, list items, headings) while they
// fit, else cuts the first block at a sentence or word boundary outside
// any link, entity or style, and ends in "…". max <= 0 gives the whole
// body. Invalid UTF-8 is replaced. The result is "" for a body with no
// text.
func Mrkdwn(text string, format apiclient.BodyFormat, max int) string {
	return docMrkdwn(body.Parse(text, format), max)
}

// rendered is one block written as mrkdwn, with the places it may be cut.
type rendered struct {
	text  string
	tight bool
	// cuts are byte offsets in text where it may end: after a word, outside
	// any style, link or entity; sentence marks those after ".", "!" or "?".
	cuts     []int
	sentence map[int]bool
}

// mrkdwn writes d as mrkdwn; see Mrkdwn.
func docMrkdwn(d body.Doc, max int) string {
	var out []body.Block
	for _, bl := range d.Blocks {
		if strings.TrimSpace(body.SpansText(bl.Spans)) != "" {
			out = append(out, bl)
		}
	}
	var b strings.Builder
	n := 0 // characters written
	for i, bl := range out {
		// Blocks are written only as far as max reaches: a long body costs
		// no more than its opening.
		r := renderBlock(bl)
		sep := ""
		if i > 0 {
			sep = "\n\n"
			if r.tight {
				sep = "\n"
			}
		}
		size := utf8.RuneCountInString(sep + r.text)
		if max <= 0 || n+size <= max && (i == len(out)-1 || n+size+3 <= max) {
			b.WriteString(sep + r.text)
			n += size
			continue
		}
		// Room for the ellipsis on a line of its own after whole blocks, or
		// at the end of a cut block.
		if b.Len() > 0 && n >= max/2 {
			return b.String() + "\n" + ellipsis
		}
		if cut := r.cutTo(max - n - utf8.RuneCountInString(sep) - 1); cut != "" {
			return b.String() + sep + cut + ellipsis
		}
		if b.Len() > 0 {
			return b.String() + "\n" + ellipsis
		}
		return ""
	}
	return b.String()
}

// cutTo returns the longest prefix of r of at most max characters that
// ends at one of its cut places, preferring a sentence's end in the second
// half; "" when none fits.
func (r rendered) cutTo(max int) string {
	best, bestSentence := -1, -1
	n, at := 0, 0 // characters in r.text[:at]
	for _, c := range r.cuts {
		n += utf8.RuneCountInString(r.text[at:c])
		at = c
		if n > max {
			break
		}
		best = c
		if r.sentence[c] {
			bestSentence = c
		}
	}
	if best < 0 {
		return ""
	}
	if bestSentence > 0 && bestSentence >= best/2 {
		best = bestSentence
	}
	return strings.TrimRightFunc(r.text[:best], unicode.IsSpace)
}

// writer writes one block's spans as mrkdwn, noting where it may be cut.
type writer struct {
	b        strings.Builder
	lineLead string // what every line after the first starts with
	depth    int    // styles and links open
	active   map[body.SpanKind]bool
	r        rendered
}

func renderBlock(bl body.Block) rendered {
	w := &writer{active: map[body.SpanKind]bool{}, r: rendered{tight: bl.Tight, sentence: map[int]bool{}}}
	first := bl.Lead
	w.lineLead = strings.Repeat(" ", utf8.RuneCountInString(bl.Lead))
	if bl.Quote {
		first, w.lineLead = "> "+first, "> "+w.lineLead
	}
	w.b.WriteString(first)
	switch {
	case bl.Code:
		code := strings.Trim(body.SpansText(bl.Spans), "\n")
		code = strings.ReplaceAll(code, "```", "'''")
		w.b.WriteString("```\n")
		w.lines(Escape(code))
		w.b.WriteString("\n```")
	case bl.Heading:
		w.spans([]body.Span{{Kind: body.SpanStrong, Kids: bl.Spans}})
	default:
		w.spans(bl.Spans)
	}
	w.r.text = strings.TrimRightFunc(w.b.String(), unicode.IsSpace)
	return w.r
}

// lines writes s, starting every line after the first with lineLead.
func (w *writer) lines(s string) {
	w.b.WriteString(strings.ReplaceAll(s, "\n", "\n"+w.lineLead))
}

func (w *writer) spans(spans []body.Span) {
	for i, s := range spans {
		switch s.Kind {
		case body.SpanText:
			w.text(s.Text)
		case body.SpanBreak:
			if i < len(spans)-1 {
				w.b.WriteString("\n" + w.lineLead)
			}
		case body.SpanCode:
			code := strings.Join(strings.Fields(strings.ReplaceAll(s.Text, "`", "'")), " ")
			if code != "" {
				w.b.WriteString("`" + Escape(code) + "`")
			}
		case body.SpanLink:
			w.link(s)
		case body.SpanStrong, body.SpanEm, body.SpanStrike:
			w.styled(s)
		}
	}
}

// text writes record text escaped, a run of white space as one space, and
// notes the word breaks outside any style as places to cut.
func (w *writer) text(t string) {
	words := strings.FieldsFunc(t, unicode.IsSpace)
	if len(words) == 0 {
		if t != "" {
			w.space()
		}
		return
	}
	if unicode.IsSpace(rune(t[0])) {
		w.space()
	}
	for i, word := range words {
		if i > 0 {
			w.space()
		}
		w.b.WriteString(w.word(word))
	}
	if last, _ := utf8.DecodeLastRuneInString(t); unicode.IsSpace(last) {
		w.space()
	}
}

// word is one word of record text as mrkdwn (literalText), "#" treated as
// a heading's only at the start of a line.
func (w *writer) word(word string) string {
	if word[0] == '#' && w.atLineStart() {
		return notHeading(literalText(word))
	}
	return literalText(word)
}

// literalText is record text as mrkdwn that reads as it is written:
// escaped once, an entity written as it is kept as it looks (EscapeTyped),
// and Markdown the record spelled out literally (`\*\*not bold\*\*`, `\#
// not a heading`, `[a](b)`) kept from reading as Markdown with a
// zero-width space, so that no mrkdwn text ever shows standard Markdown
// syntax (slacktest.StandardMarkdown); text that starts a line also goes
// through notHeading. Minutes bodies (Mrkdwn) and search snippets
// (Snippet) both go through it.
func literalText(s string) string {
	s = EscapeTyped(s)
	if s == "" {
		return s
	}
	for strings.Contains(s, "**") {
		s = strings.ReplaceAll(s, "**", "*"+zwsp+"*")
	}
	if strings.Contains(s, "](") {
		s = strings.ReplaceAll(s, "](", "]"+zwsp+"(")
	}
	return s
}

// notHeading keeps literal text that starts a line, where "#" would begin
// a heading, from reading as one.
func notHeading(s string) string {
	if strings.HasPrefix(s, "#") {
		return zwsp + s
	}
	return s
}

// zwsp is a zero-width space: invisible, it keeps two characters from
// forming syntax.
const zwsp = "\u200b"

// atLineStart reports whether nothing but a line's lead was written on the
// current line. Only the last few bytes are read: a lead is short, and a
// long paragraph must not cost a scan per word.
func (w *writer) atLineStart() bool {
	s := w.b.String()
	tail := s[max(0, len(s)-32):]
	i := strings.LastIndexByte(tail, '\n')
	if i < 0 && len(tail) < len(s) {
		return false
	}
	return strings.TrimLeft(tail[i+1:], "> •◦0123456789.") == ""
}

// space writes one space unless the text already ends in one (or a line
// lead), and notes the place before it as a cut.
func (w *writer) space() {
	s := w.b.String()
	if s == "" || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\n") {
		return
	}
	if w.depth == 0 {
		at := w.b.Len()
		w.r.cuts = append(w.r.cuts, at)
		if strings.ContainsAny(s[len(s)-1:], ".!?:;") {
			w.r.sentence[at] = true
		}
	}
	w.b.WriteByte(' ')
}

// markers are the mrkdwn characters of each style.
var markers = map[body.SpanKind]string{body.SpanStrong: "*", body.SpanEm: "_", body.SpanStrike: "~"}

// styled writes a style around its kids. Slack reads a style only when its
// marks touch the text, so space inside the span moves outside the marks; a
// style already open (bold inside bold) adds no marks; an empty one adds
// nothing.
func (w *writer) styled(s body.Span) {
	if w.active[s.Kind] {
		w.spans(s.Kids)
		return
	}
	inner := &writer{active: map[body.SpanKind]bool{s.Kind: true}, lineLead: w.lineLead, depth: 1, r: rendered{sentence: map[int]bool{}}}
	for k, v := range w.active {
		inner.active[k] = v
	}
	inner.spans(s.Kids)
	text := inner.b.String()
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		if text != "" {
			w.space()
		}
		return
	}
	if text != strings.TrimLeftFunc(text, unicode.IsSpace) {
		w.space()
	}
	m := markers[s.Kind]
	w.b.WriteString(m + strings.ReplaceAll(trimmed, m, "") + m)
	if text != strings.TrimRightFunc(text, unicode.IsSpace) {
		w.space()
	}
}

// link writes <url|text> for an http(s) or mailto link, else the text
// alone.
func (w *writer) link(s body.Span) {
	label := strings.Join(strings.Fields(body.SpansText(s.Kids)), " ")
	u, ok := linkURL(s.URL)
	if !ok {
		w.text(label)
		return
	}
	if label == "" || label == s.URL {
		w.b.WriteString("<" + u + ">")
		return
	}
	// Slack ends a link's text at ">", which Escape has made an entity.
	w.b.WriteString("<" + u + "|" + Escape(label) + ">")
}

// linkURL is raw as Slack reads a URL in <…>: &, < and > as entities, |
// and white space percent-encoded (https://docs.slack.dev/messaging/
// formatting-message-text#linking-urls). Only http, https and mailto URLs
// are links; ok is false for anything else.
func linkURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	p, err := url.Parse(raw)
	if err != nil || len(raw) > maxInlineURL {
		return "", false
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" {
			return "", false
		}
	case "mailto":
		if p.Opaque == "" {
			return "", false
		}
	default:
		return "", false
	}
	var b strings.Builder
	for i, r := range raw {
		switch {
		case r == '&' && entityAt(raw[i:]):
			// Escaped, "&lt;" would read as an entity escaped twice.
			b.WriteString("%26")
		case r == '|':
			b.WriteString("%7C")
		case unicode.IsSpace(r) || unicode.IsControl(r):
			b.WriteString(url.PathEscape(string(r)))
		default:
			b.WriteRune(r)
		}
	}
	return Escape(b.String()), true
}

// entityAt reports whether s starts with one of the entities Slack
// decodes.
func entityAt(s string) bool {
	return strings.HasPrefix(s, "&amp;") || strings.HasPrefix(s, "&lt;") || strings.HasPrefix(s, "&gt;")
}
