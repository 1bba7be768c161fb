package body

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// markdown parses Markdown bodies as the public pages render them:
// CommonMark with tables, strikethrough and bare links. A goldmark.Markdown
// is safe for concurrent use.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// parseMarkdown parses a Markdown body with goldmark into a Doc.
func parseMarkdown(body string) Doc {
	src := []byte(body)
	root := markdown.Parser().Parse(text.NewReader(src))
	p := &mdParser{src: src}
	p.blockChildren(root, blockCtx{})
	return Doc{Blocks: p.out}
}

// blockCtx is where a block sits: in a quote, how deep in lists.
type blockCtx struct {
	Quote bool
	depth int // list nesting
}

// itemPlace is how a block sits in a list item: lead goes before its
// first line (the item's marker, or spaces under it), and tight is set when
// it follows the line before without a blank line. The zero value is a
// block outside any item.
type itemPlace struct {
	lead  string
	tight bool
}

type mdParser struct {
	src []byte
	out []Block
}

func (p *mdParser) add(b Block) {
	if b.Quote && len(p.out) > 0 && p.out[len(p.out)-1].Quote {
		b.Tight = true
	}
	p.out = append(p.out, b)
}

// blockChildren adds the block children of n.
func (p *mdParser) blockChildren(n ast.Node, ctx blockCtx) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p.block(c, ctx, itemPlace{})
	}
}

// block adds n, placed at in a list item.
func (p *mdParser) block(n ast.Node, ctx blockCtx, at itemPlace) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		p.add(Block{Lead: at.lead, Tight: at.tight, Quote: ctx.Quote, Spans: p.inlines(n)})
	case *ast.Heading:
		p.add(Block{Lead: at.lead, Tight: at.tight, Quote: ctx.Quote, Heading: true, Spans: p.inlines(n)})
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(p.src))
		}
		p.add(Block{Lead: at.lead, Tight: at.tight, Quote: ctx.Quote, Code: true, Spans: []Span{{Kind: SpanText, Text: b.String()}}})
	case *ast.Blockquote:
		inner := ctx
		inner.Quote = true
		p.blockChildren(n, inner)
	case *ast.List:
		inner := ctx
		inner.depth++
		num := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			itemLeadText := itemLead(inner.depth, n.IsOrdered(), num)
			num++
			first := true
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				if first {
					// A list's items follow each other line by line; the
					// first follows what is before the list, tightly when
					// that is the item it is nested in.
					p.block(c, inner, itemPlace{lead: itemLeadText, tight: inner.depth > 1 || item != n.FirstChild()})
					first = false
					continue
				}
				if _, nested := c.(*ast.List); nested {
					p.block(c, inner, itemPlace{tight: true})
					continue
				}
				p.block(c, inner, itemPlace{lead: strings.Repeat(" ", len([]rune(itemLeadText))), tight: true})
			}
			if first { // an empty item
				p.add(Block{Lead: itemLeadText, Tight: true, Quote: ctx.Quote, Spans: []Span{{Kind: SpanText, Text: " "}}})
			}
		}
	case *extast.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			var spans []Span
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				if len(spans) > 0 {
					spans = append(spans, Span{Kind: SpanText, Text: " · "})
				}
				spans = append(spans, p.inlines(cell)...)
			}
			if _, head := row.(*extast.TableHeader); head {
				spans = []Span{{Kind: SpanStrong, Kids: spans}}
			}
			p.add(Block{Lead: at.lead, Tight: row != n.FirstChild(), Quote: ctx.Quote, Spans: spans})
		}
	case *ast.ThematicBreak, *ast.HTMLBlock:
		// A rule is the blank line between blocks; raw HTML is not shown.
	default:
		if n.HasChildren() {
			p.blockChildren(n, ctx)
		}
	}
}

// segText is the text of a source segment as the page shows it: backslash
// escapes and entities resolved (goldmark leaves both to its renderer).
func (p *mdParser) segText(v []byte) string {
	t := string(util.UnescapePunctuations(v))
	return strings.ReplaceAll(html.UnescapeString(t), "\x00", "\uFFFD")
}

// inlines returns the inline children of n as spans.
func (p *mdParser) inlines(n ast.Node) []Span {
	var out []Span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, p.inline(c)...)
	}
	return out
}

func (p *mdParser) inline(n ast.Node) []Span {
	switch n := n.(type) {
	case *ast.Text:
		t := p.segText(n.Value(p.src))
		out := []Span{{Kind: SpanText, Text: t}}
		switch {
		case n.HardLineBreak():
			out = append(out, Span{Kind: SpanBreak})
		case n.SoftLineBreak():
			out = append(out, Span{Kind: SpanText, Text: " "})
		}
		return out
	case *ast.String:
		return []Span{{Kind: SpanText, Text: p.segText(n.Value)}}
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(p.src))
			}
		}
		return []Span{{Kind: SpanCode, Text: b.String()}}
	case *ast.Emphasis:
		kind := SpanEm
		if n.Level >= 2 {
			kind = SpanStrong
		}
		return []Span{{Kind: kind, Kids: p.inlines(n)}}
	case *extast.Strikethrough:
		return []Span{{Kind: SpanStrike, Kids: p.inlines(n)}}
	case *ast.Link:
		return []Span{{Kind: SpanLink, URL: string(n.Destination), Kids: p.inlines(n)}}
	case *ast.AutoLink:
		u := string(n.URL(p.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		}
		return []Span{{Kind: SpanLink, URL: u, Kids: []Span{{Kind: SpanText, Text: string(n.Label(p.src))}}}}
	case *ast.Image:
		// The picture cannot be shown in text; its description can.
		return p.inlines(n)
	case *ast.RawHTML:
		// A tag HTML knows (<b>, <br>) is markup the pages leave out too;
		// anything else ("subject to <minor> changes") is the record's
		// text, which Slack shows as written.
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(p.src))
		}
		raw := b.String()
		name := strings.TrimLeft(raw, "</")
		if end := strings.IndexAny(name, " \t\n/>"); end >= 0 {
			name = name[:end]
		}
		if atom.Lookup([]byte(strings.ToLower(name))) != 0 || strings.HasPrefix(raw, "<!--") {
			return nil
		}
		return []Span{{Kind: SpanText, Text: raw}}
	}
	return p.inlines(n)
}
