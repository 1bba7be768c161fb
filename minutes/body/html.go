package body

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parseHTML parses an HTML body into a Doc: the same blocks and spans as
// the Markdown it would have been written in. Text outside any block
// element is a paragraph of its own; script, style and the like are
// dropped with their text.
func parseHTML(body string) Doc {
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		// html.Parse fails only when its reader does; a strings.Reader
		// does not.
		return Doc{Blocks: []Block{{Spans: []Span{{Kind: SpanText, Text: body}}}}}
	}
	p := &htmlParser{}
	p.children(root, blockCtx{})
	p.flush()
	return Doc{Blocks: p.out}
}

type htmlParser struct {
	out []Block
	// open is the block being filled with inline content.
	open    *Block
	ctx     blockCtx
	pending struct {
		Lead  string
		Tight bool
	}
}

// skipped are elements whose content is not minutes text.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Head: true, atom.Template: true, atom.Noscript: true,
	atom.Iframe: true, atom.Object: true, atom.Svg: true, atom.Math: true, atom.Select: true, atom.Button: true,
}

// flush ends the open block.
func (p *htmlParser) flush() {
	if p.open == nil {
		return
	}
	if strings.TrimSpace(SpansText(p.open.Spans)) != "" || p.open.Code {
		b := *p.open
		if b.Quote && len(p.out) > 0 && p.out[len(p.out)-1].Quote {
			b.Tight = true
		}
		p.out = append(p.out, b)
		p.pending.Lead, p.pending.Tight = "", false
	}
	p.open = nil
}

// start begins a block; a list item's lead goes to its first block.
func (p *htmlParser) start(b Block) *Block {
	p.flush()
	b.Quote = p.ctx.Quote
	if p.pending.Lead != "" {
		b.Lead, b.Tight = p.pending.Lead, p.pending.Tight
	} else if p.ctx.depth > 0 {
		b.Tight = true
	}
	p.open = &b
	return p.open
}

// appendSpan adds inline content to the open block, opening a paragraph
// when there is none.
func (p *htmlParser) appendSpan(s Span) {
	if p.open == nil {
		if s.Kind == SpanText && strings.TrimSpace(s.Text) == "" {
			return
		}
		p.start(Block{})
	}
	p.open.Spans = append(p.open.Spans, s)
}

func (p *htmlParser) children(n *html.Node, ctx blockCtx) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		p.node(c, ctx)
	}
}

// node writes n, in the blocks ctx puts it in: block elements as blocks,
// styled and inline elements as spans of the open block.
func (p *htmlParser) node(n *html.Node, ctx blockCtx) {
	p.ctx = ctx
	switch n.Type {
	case html.TextNode:
		p.appendSpan(Span{Kind: SpanText, Text: n.Data})
		return
	case html.ElementNode:
	default:
		p.children(n, ctx)
		return
	}
	if skipped[n.DataAtom] {
		return
	}
	switch n.DataAtom {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Main, atom.Dd, atom.Dt,
		atom.Figcaption, atom.Caption, atom.Address:
		p.block(n, ctx, Block{})
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		p.block(n, ctx, Block{Heading: true})
	case atom.Pre:
		b := p.start(Block{Code: true})
		b.Spans = []Span{{Kind: SpanText, Text: textContent(n)}}
		p.flush()
	case atom.Blockquote:
		p.quote(n, ctx)
	case atom.Ul, atom.Ol:
		p.list(n, ctx)
	case atom.Table:
		p.flush()
		p.table(n, ctx)
	case atom.Br:
		p.appendSpan(Span{Kind: SpanBreak})
	case atom.Hr:
		p.flush()
	case atom.B, atom.Strong:
		p.inline(n, ctx, SpanStrong)
	case atom.I, atom.Em, atom.Cite:
		p.inline(n, ctx, SpanEm)
	case atom.S, atom.Del, atom.Strike:
		p.inline(n, ctx, SpanStrike)
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		p.appendSpan(Span{Kind: SpanCode, Text: textContent(n)})
	case atom.A:
		label := textContent(n)
		p.appendSpan(Span{Kind: SpanLink, URL: attr(n, "href"), Kids: []Span{{Kind: SpanText, Text: label}}})
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			p.appendSpan(Span{Kind: SpanText, Text: alt})
		}
	default:
		p.children(n, ctx)
	}
}

// block makes n's content one block b.
func (p *htmlParser) block(n *html.Node, ctx blockCtx, b Block) {
	p.start(b)
	p.children(n, ctx)
	p.flush()
}

// quote writes n's content as quoted blocks.
func (p *htmlParser) quote(n *html.Node, ctx blockCtx) {
	p.flush()
	inner := ctx
	inner.Quote = true
	p.children(n, inner)
	p.flush()
	p.ctx = ctx
}

// list writes each item of the list n as a block led by its bullet or
// number (from the list's start), one level deeper than ctx.
func (p *htmlParser) list(n *html.Node, ctx blockCtx) {
	p.flush()
	inner := ctx
	inner.depth++
	num := 1
	if s := attr(n, "start"); s != "" {
		if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && v >= 0 && v < 1e6 {
			num = v
		}
	}
	first := true
	for li := n.FirstChild; li != nil; li = li.NextSibling {
		if li.Type != html.ElementNode || li.DataAtom != atom.Li {
			continue
		}
		p.flush()
		p.pending.Lead = itemLead(inner.depth, n.DataAtom == atom.Ol, num)
		p.pending.Tight = inner.depth > 1 || !first
		first = false
		num++
		p.start(Block{})
		p.children(li, inner)
		p.flush()
		p.pending.Lead = ""
	}
	p.ctx = ctx
}

// inline collects the content of a styled element into one span.
func (p *htmlParser) inline(n *html.Node, ctx blockCtx, kind SpanKind) {
	if p.open == nil {
		p.start(Block{})
	}
	outer := p.open
	saved := outer.Spans
	outer.Spans = nil
	p.children(n, ctx)
	if p.open != outer {
		// A block element inside the style ended the block: keep what was
		// collected as it is.
		return
	}
	kids := outer.Spans
	outer.Spans = append(saved, Span{Kind: kind, Kids: kids})
}

// table writes each row as a line, its cells joined by " · ", header
// cells bold.
func (p *htmlParser) table(n *html.Node, ctx blockCtx) {
	first := true
	var rows func(*html.Node)
	rows = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom != atom.Tr {
				rows(c)
				continue
			}
			var spans []Span
			for cell := c.FirstChild; cell != nil; cell = cell.NextSibling {
				if cell.Type != html.ElementNode || (cell.DataAtom != atom.Td && cell.DataAtom != atom.Th) {
					continue
				}
				t := strings.Join(strings.Fields(textContent(cell)), " ")
				if len(spans) > 0 {
					spans = append(spans, Span{Kind: SpanText, Text: " · "})
				}
				s := Span{Kind: SpanText, Text: t}
				if cell.DataAtom == atom.Th {
					s = Span{Kind: SpanStrong, Kids: []Span{s}}
				}
				spans = append(spans, s)
			}
			b := p.start(Block{})
			b.Spans, b.Tight = spans, !first
			first = false
			p.flush()
		}
	}
	rows(n)
	p.ctx = ctx
}

// textContent is the text of n and its descendants, scripts left out.
func textContent(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && skipped[n.DataAtom]:
		case n.Type == html.ElementNode && n.DataAtom == atom.Br:
			b.WriteByte('\n')
		default:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}
