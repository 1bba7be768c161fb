package blocks

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

// parseMarkdown parses a Markdown body with goldmark into a doc.
func parseMarkdown(body string) doc {
	src := []byte(body)
	root := markdown.Parser().Parse(text.NewReader(src))
	p := &mdParser{src: src}
	p.blocks(root, blockCtx{})
	return doc{blocks: p.out}
}

// blockCtx is where a block sits: in a quote, how deep in lists.
type blockCtx struct {
	quote bool
	depth int // list nesting
}

type mdParser struct {
	src []byte
	out []docBlock
}

func (p *mdParser) add(b docBlock) {
	if b.quote && len(p.out) > 0 && p.out[len(p.out)-1].quote {
		b.tight = true
	}
	p.out = append(p.out, b)
}

// blocks adds the block children of n.
func (p *mdParser) blocks(n ast.Node, ctx blockCtx) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p.block(c, ctx, "", false)
	}
}

// block adds n; lead and tight are set for the first block of a list item.
func (p *mdParser) block(n ast.Node, ctx blockCtx, lead string, tight bool) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		p.add(docBlock{lead: lead, tight: tight, quote: ctx.quote, spans: p.inlines(n)})
	case *ast.Heading:
		p.add(docBlock{lead: lead, tight: tight, quote: ctx.quote, heading: true, spans: p.inlines(n)})
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(p.src))
		}
		p.add(docBlock{lead: lead, tight: tight, quote: ctx.quote, code: true, spans: []span{{kind: spanText, text: b.String()}}})
	case *ast.Blockquote:
		inner := ctx
		inner.quote = true
		p.blocks(n, inner)
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
					p.block(c, inner, itemLeadText, inner.depth > 1 || item != n.FirstChild())
					first = false
					continue
				}
				if _, nested := c.(*ast.List); nested {
					p.block(c, inner, "", true)
					continue
				}
				p.block(c, inner, strings.Repeat(" ", len([]rune(itemLeadText))), true)
			}
			if first { // an empty item
				p.add(docBlock{lead: itemLeadText, tight: true, quote: ctx.quote, spans: []span{{kind: spanText, text: " "}}})
			}
		}
	case *extast.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			var spans []span
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				if len(spans) > 0 {
					spans = append(spans, span{kind: spanText, text: " · "})
				}
				spans = append(spans, p.inlines(cell)...)
			}
			if _, head := row.(*extast.TableHeader); head {
				spans = []span{{kind: spanStrong, kids: spans}}
			}
			p.add(docBlock{lead: lead, tight: row != n.FirstChild(), quote: ctx.quote, spans: spans})
		}
	case *ast.ThematicBreak, *ast.HTMLBlock:
		// A rule is the blank line between blocks; raw HTML is not shown.
	default:
		if n.HasChildren() {
			p.blocks(n, ctx)
		}
	}
}

// text is the text of a source segment as the page shows it: backslash
// escapes and entities resolved (goldmark leaves both to its renderer).
func (p *mdParser) text(v []byte) string {
	t := string(util.UnescapePunctuations(v))
	return strings.ReplaceAll(html.UnescapeString(t), "\x00", "\uFFFD")
}

// inlines returns the inline children of n as spans.
func (p *mdParser) inlines(n ast.Node) []span {
	var out []span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, p.inline(c)...)
	}
	return out
}

func (p *mdParser) inline(n ast.Node) []span {
	switch n := n.(type) {
	case *ast.Text:
		t := p.text(n.Value(p.src))
		out := []span{{kind: spanText, text: t}}
		switch {
		case n.HardLineBreak():
			out = append(out, span{kind: spanBreak})
		case n.SoftLineBreak():
			out = append(out, span{kind: spanText, text: " "})
		}
		return out
	case *ast.String:
		return []span{{kind: spanText, text: p.text(n.Value)}}
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(p.src))
			}
		}
		return []span{{kind: spanCode, text: b.String()}}
	case *ast.Emphasis:
		kind := spanEm
		if n.Level >= 2 {
			kind = spanStrong
		}
		return []span{{kind: kind, kids: p.inlines(n)}}
	case *extast.Strikethrough:
		return []span{{kind: spanStrike, kids: p.inlines(n)}}
	case *ast.Link:
		return []span{{kind: spanLink, url: string(n.Destination), kids: p.inlines(n)}}
	case *ast.AutoLink:
		u := string(n.URL(p.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		}
		return []span{{kind: spanLink, url: u, kids: []span{{kind: spanText, text: string(n.Label(p.src))}}}}
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
		return []span{{kind: spanText, text: raw}}
	}
	return p.inlines(n)
}
