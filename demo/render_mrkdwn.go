package demo

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tokText tokKind = iota // escaped text, decoded when written
	tokAtom                // already rendered: a mention, a date, a link, an emoji
	tokCode                // the inside of a `code` span, decoded
	tokMark                // a formatting marker: * _ or ~
)

type token struct {
	kind tokKind
	text string
	// partner is the index of the marker that closes or opens this one, -1
	// when it has none; open says which end this is.
	partner int
	open    bool
}

// tokenize splits mrkdwn into text, atoms, code spans and markers. A
// shortcode becomes an atom even when unknown, so the underscores inside
// :white_check_mark: are never taken for italics.
func (r *renderer) tokenize(s, fg string) []token {
	var toks []token
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			toks = append(toks, token{kind: tokText, text: text.String(), partner: -1})
			text.Reset()
		}
	}
	add := func(k tokKind, s string) {
		flush()
		toks = append(toks, token{kind: k, text: s, partner: -1})
	}
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '<':
			if j := strings.IndexByte(s[i+1:], '>'); j >= 0 {
				add(tokAtom, r.sequence(s[i+1:i+1+j], fg))
				i += j + 2
				continue
			}
		case '`':
			if j := strings.IndexByte(s[i+1:], '`'); j > 0 && !strings.Contains(s[i+1:i+1+j], "\n") {
				add(tokCode, decodeEntities(s[i+1:i+1+j]))
				i += j + 2
				continue
			}
		case ':':
			if name, n := shortcode(s[i:]); n > 0 {
				e, ok := emoji[name]
				if !ok {
					e = s[i : i+n]
				}
				add(tokAtom, e)
				i += n
				continue
			}
		case '*', '_', '~':
			add(tokMark, string(c))
			i++
			continue
		}
		text.WriteByte(s[i])
		i++
	}
	flush()
	return toks
}

// shortcode reports the emoji name at the start of s (":name:") and the
// length of the whole shortcode, or 0 when s does not start with one.
func shortcode(s string) (name string, n int) {
	for i := 1; i < len(s) && i <= 64; i++ {
		c := s[i]
		switch {
		case c == ':':
			if i == 1 {
				return "", 0
			}
			return s[1:i], i + 1
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '+', c == '-':
		default:
			return "", 0
		}
	}
	return "", 0
}

// pairMarks matches formatting markers the way Slack roughly does: a
// marker opens when it follows the start, a space or punctuation and comes
// before a non-space; it closes at the first later marker of the same kind
// on the same line that follows a non-space and comes before the end, a
// space or punctuation. Atoms and code spans count as punctuation.
func pairMarks(toks []token) {
	for i := range toks {
		t := &toks[i]
		if t.kind != tokMark || t.partner >= 0 || !canOpen(toks, i) {
			continue
		}
		for j := i + 1; j < len(toks); j++ {
			u := toks[j]
			if u.kind == tokText && strings.Contains(u.text, "\n") {
				break
			}
			if u.kind == tokMark && u.text == t.text && u.partner < 0 && j > i+1 && canClose(toks, j) {
				t.partner, t.open = j, true
				toks[j].partner = i
				break
			}
		}
	}
}

func canOpen(toks []token, i int) bool {
	before, after := edge(toks, i, -1), edge(toks, i, +1)
	return !isWordRune(before) && after != 0 && !unicode.IsSpace(after)
}

func canClose(toks []token, i int) bool {
	before, after := edge(toks, i, -1), edge(toks, i, +1)
	return before != 0 && !unicode.IsSpace(before) && !isWordRune(after)
}

// edge is the character next to token i on side dir (-1 before, +1
// after): 0 at the start or end of the text, '.' for an atom, code span or
// marker, which behave like punctuation.
func edge(toks []token, i, dir int) rune {
	j := i + dir
	if j < 0 || j >= len(toks) {
		return 0
	}
	t := toks[j]
	if t.kind != tokText {
		return '.'
	}
	if dir < 0 {
		r, _ := utf8.DecodeLastRuneInString(t.text)
		return r
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	return r
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
