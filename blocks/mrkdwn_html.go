package blocks

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parseHTML parses an HTML body into a doc: the same blocks and spans as
// the Markdown it would have been written in. Text outside any block
// element is a paragraph of its own; script, style and the like are
// dropped with their text.
func parseHTML(body string) doc {
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		// html.Parse fails only when its reader does; a strings.Reader
		// does not.
		return doc{blocks: []docBlock{{spans: []span{{kind: spanText, text: body}}}}}
	}
	p := &htmlParser{}
	p.children(root, blockCtx{})
	p.flush()
	return doc{blocks: p.out}
}

type htmlParser struct {
	out []docBlock
	// open is the block being filled with inline content.
	open    *docBlock
	ctx     blockCtx
	pending struct {
		lead  string
		tight bool
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
	if strings.TrimSpace(plainSpans(p.open.spans)) != "" || p.open.code {
		b := *p.open
		if b.quote && len(p.out) > 0 && p.out[len(p.out)-1].quote {
			b.tight = true
		}
		p.out = append(p.out, b)
		p.pending.lead, p.pending.tight = "", false
	}
	p.open = nil
}

// start begins a block; a list item's lead goes to its first block.
func (p *htmlParser) start(b docBlock) *docBlock {
	p.flush()
	b.quote = p.ctx.quote
	if p.pending.lead != "" {
		b.lead, b.tight = p.pending.lead, p.pending.tight
	} else if p.ctx.depth > 0 {
		b.tight = true
	}
	p.open = &b
	return p.open
}

// appendSpan adds inline content to the open block, opening a paragraph
// when there is none.
func (p *htmlParser) appendSpan(s span) {
	if p.open == nil {
		if s.kind == spanText && strings.TrimSpace(s.text) == "" {
			return
		}
		p.start(docBlock{})
	}
	p.open.spans = append(p.open.spans, s)
}

func (p *htmlParser) children(n *html.Node, ctx blockCtx) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		p.node(c, ctx)
	}
}

func (p *htmlParser) node(n *html.Node, ctx blockCtx) {
	p.ctx = ctx
	switch n.Type {
	case html.TextNode:
		p.appendSpan(span{kind: spanText, text: n.Data})
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
		p.start(docBlock{})
		p.children(n, ctx)
		p.flush()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		p.start(docBlock{heading: true})
		p.children(n, ctx)
		p.flush()
	case atom.Pre:
		b := p.start(docBlock{code: true})
		b.spans = []span{{kind: spanText, text: textContent(n)}}
		p.flush()
	case atom.Blockquote:
		p.flush()
		inner := ctx
		inner.quote = true
		p.children(n, inner)
		p.flush()
		p.ctx = ctx
	case atom.Ul, atom.Ol:
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
			p.pending.lead = itemLead(inner.depth, n.DataAtom == atom.Ol, num)
			p.pending.tight = inner.depth > 1 || !first
			first = false
			num++
			p.start(docBlock{})
			p.children(li, inner)
			p.flush()
			p.pending.lead = ""
		}
		p.ctx = ctx
	case atom.Table:
		p.flush()
		p.table(n, ctx)
	case atom.Br:
		p.appendSpan(span{kind: spanBreak})
	case atom.Hr:
		p.flush()
	case atom.B, atom.Strong:
		p.inline(n, ctx, spanStrong)
	case atom.I, atom.Em, atom.Cite:
		p.inline(n, ctx, spanEm)
	case atom.S, atom.Del, atom.Strike:
		p.inline(n, ctx, spanStrike)
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		p.appendSpan(span{kind: spanCode, text: textContent(n)})
	case atom.A:
		label := textContent(n)
		p.appendSpan(span{kind: spanLink, url: attr(n, "href"), kids: []span{{kind: spanText, text: label}}})
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			p.appendSpan(span{kind: spanText, text: alt})
		}
	default:
		p.children(n, ctx)
	}
}

// inline collects the content of a styled element into one span.
func (p *htmlParser) inline(n *html.Node, ctx blockCtx, kind spanKind) {
	if p.open == nil {
		p.start(docBlock{})
	}
	outer := p.open
	saved := outer.spans
	outer.spans = nil
	p.children(n, ctx)
	if p.open != outer {
		// A block element inside the style ended the block: keep what was
		// collected as it is.
		return
	}
	kids := outer.spans
	outer.spans = append(saved, span{kind: kind, kids: kids})
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
			var spans []span
			for cell := c.FirstChild; cell != nil; cell = cell.NextSibling {
				if cell.Type != html.ElementNode || (cell.DataAtom != atom.Td && cell.DataAtom != atom.Th) {
					continue
				}
				t := strings.Join(strings.Fields(textContent(cell)), " ")
				if len(spans) > 0 {
					spans = append(spans, span{kind: spanText, text: " · "})
				}
				s := span{kind: spanText, text: t}
				if cell.DataAtom == atom.Th {
					s = span{kind: spanStrong, kids: []span{s}}
				}
				spans = append(spans, s)
			}
			b := p.start(docBlock{})
			b.spans, b.tight = spans, !first
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
