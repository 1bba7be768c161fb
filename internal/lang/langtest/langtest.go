// Package langtest finds English that escaped the catalogue (package lang)
// in what a surface rendered in [lang.Pseudo]. Every catalogue message reads
// in the pseudo-language with no ASCII letter left (⟦Ðüé {date}⟧), so an
// ASCII word in a pseudo rendering came from somewhere else: record text the
// test gave the surface, a command keyword, or a string literal in the code
// that should have been a catalogue key. The tests say which words are their
// record text ([Known]); everything else is reported.
//
// Three shapes are read: Block Kit (anything that marshals to Slack's JSON:
// messages, views, attachments), HTML pages and plain text (Atom feeds and
// iCalendar text are read by [Text] on the human parts the caller picks).
// docs/languages.md says how the check is used.
package langtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// Known is the set of ASCII words a rendering may hold without having
// escaped the catalogue: the test data's record text (committee names,
// titles, people) and command keywords. Words are compared without regard
// to case. The zero value knows only [NotWords].
type Known map[string]bool

// Words returns the Known set of every word in texts: pass the test data's
// record text as it is written ("Circulate the revised budget").
func Words(texts ...string) Known {
	k := Known{}
	k.Add(texts...)
	return k
}

// Add puts every word of texts into k.
func (k Known) Add(texts ...string) {
	for _, s := range texts {
		for _, w := range asciiWords(s) {
			k[strings.ToLower(w)] = true
		}
	}
}

// NotWords are ASCII runs that are not English words in any language, so
// a pseudo rendering may hold them: the reason is given with each.
var NotWords = map[string]string{
	"utc":        "the time zone's name, the same in every language (Slack date fallbacks: 15:04 UTC)",
	"ics":        "the iCalendar file extension in calendar URLs written as text",
	"recordsbot": "the app's own name",
}

// Escape is one English word found in a pseudo rendering, with where it
// is and the whole text it is in.
type Escape struct {
	Where string // the JSON path, HTML element or label the text came from
	Word  string
	Text  string
}

func (e Escape) String() string {
	return fmt.Sprintf("%s: %s in %q", e.Where, e.Word, e.Text)
}

// ByText joins escapes of the same text into one, its words listed
// together ("Due, soon"), so that a sentence that escaped is one report.
func ByText(escapes []Escape) []Escape {
	var out []Escape
	for _, e := range escapes {
		if n := len(out); n > 0 && out[n-1].Where == e.Where && out[n-1].Text == e.Text {
			out[n-1].Word += ", " + e.Word
			continue
		}
		out = append(out, e)
	}
	return out
}

// Text returns the words of s, a text written in lang.Pseudo, that are
// neither catalogue text nor known. Slack's syntax is skipped as
// Pseudolocalize keeps it: control sequences and links up to their label
// (<@U1>, <!date^…|…>, <https://…|label>: the label is read), emoji codes
// (:tada:), a channel's or person's name in a mention, entities (&amp;), placeholders ({date}); so are URLs written
// out, e-mail addresses and code spans (`/actions overdue`: what a person
// types, command keywords and setting names, is not translated).
func Text(where, s string, known Known) []Escape {
	var out []Escape
	for _, w := range asciiWords(strip(s)) {
		lw := strings.ToLower(w)
		if known[lw] || NotWords[lw] != "" {
			continue
		}
		out = append(out, Escape{Where: where, Word: w, Text: s})
	}
	return out
}

// strip blanks out of s what is syntax rather than words.
func strip(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := syntax(s[i:]); n > 0 {
			b.WriteByte(' ')
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// syntax is the length of the syntax s starts with, or 0.
func syntax(s string) int {
	switch s[0] {
	case '<':
		if end := strings.IndexByte(s, '>'); end > 0 {
			// A link's label and a date's fallback after | are words; a
			// channel's or person's label is their name.
			if bar := strings.IndexByte(s[:end], '|'); bar > 0 && len(s) > 1 && s[1] != '#' && s[1] != '@' {
				return bar + 1
			}
			return end + 1
		}
	case '&':
		if end := strings.IndexByte(s, ';'); end > 1 && end < 10 {
			return end + 1
		}
	case '{':
		if end := strings.IndexByte(s, '}'); end > 0 && !strings.ContainsAny(s[:end], " \n") {
			return end + 1
		}
	case '`':
		if end := strings.IndexByte(s[1:], '`'); end >= 0 {
			return end + 2
		}
	case ':':
		end := 1
		for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9' || strings.IndexByte("_-+", s[end]) >= 0) {
			end++
		}
		if end > 1 && end < len(s) && s[end] == ':' {
			return end + 1
		}
	}
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "webcal://") {
		return wordEnd(s)
	}
	if at := strings.IndexByte(s[:wordEnd(s)], '@'); at > 0 {
		return wordEnd(s) // an e-mail address: record text
	}
	return 0
}

// wordEnd is the length of s's first run of non-space characters.
func wordEnd(s string) int {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return i
	}
	return len(s)
}

// asciiWords are the runs of ASCII letters in s; a run that touches a
// letter outside ASCII is part of a pseudo word ("⟦Ðüé⟧" has none, but a
// record's "Prüfung" is one word) and is kept whole.
func asciiWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		if strings.ContainsFunc(f, func(r rune) bool { return r < 0x80 }) {
			out = append(out, f)
		}
	}
	return out
}

// BlockKit returns the escapes in every text of v a person reads: v is a
// Block Kit value (a message, view or attachment, or a map holding one) as
// it is marshalled for Slack. Read are text objects (plain_text and
// mrkdwn), a message's and attachment's text and fallback, alt_text and an
// attachment's title and field values; identifiers, values, URLs and
// metadata are not words for anyone.
func BlockKit(v any, known Known) ([]Escape, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal block kit: %w", err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, fmt.Errorf("unmarshal block kit: %w", err)
	}
	var out []Escape
	walk("", generic, known, &out)
	return out, nil
}

// readKeys are the fields whose string values are read by people, in any
// object; a text object's "text" is read through its type.
var readKeys = []string{"fallback", "alt_text", "pretext", "title", "footer", "author_name"}

func walk(path string, v any, known Known, out *[]Escape) {
	switch v := v.(type) {
	case map[string]any:
		if t, _ := v["type"].(string); t == "plain_text" || t == "mrkdwn" {
			if s, ok := v["text"].(string); ok {
				*out = append(*out, Text(path, s, known)...)
			}
			return
		}
		for _, k := range sortedKeys(v) {
			if k == "metadata" || k == "private_metadata" {
				continue
			}
			child := path + "." + k
			if s, ok := v[k].(string); ok {
				if (k == "text" && !isBlock(v)) || slices.Contains(readKeys, k) {
					*out = append(*out, Text(child, s, known)...)
				}
				continue
			}
			walk(child, v[k], known, out)
		}
	case []any:
		for i, e := range v {
			walk(fmt.Sprintf("%s[%d]", path, i), e, known, out)
		}
	}
}

// isBlock reports whether m is a block or element (it has a type), whose
// string "text" would be an odd shape; a message's or attachment's own
// "text" has no type.
func isBlock(m map[string]any) bool {
	_, ok := m["type"]
	return ok
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// HTML returns the escapes in an HTML page: its text (not inside script,
// style, code or pre, nor an element with a lang of its own) and the attributes people read or hear (title, alt, aria-label,
// placeholder, a meta description's content, an input's value on a button).
func HTML(page string, known Known) ([]Escape, error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return nil, fmt.Errorf("parse html: %w", err)
	}
	var out []Escape
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "style", "code", "pre":
				return
			}
			// An element in a language of its own is not the page's: a
			// language switcher names each language in itself.
			if lang := attrOf(n, "lang"); lang != "" && n.Data != "html" {
				return
			}
			for _, a := range n.Attr {
				if readAttr(n, a) {
					out = append(out, Text("<"+n.Data+" "+a.Key+">", a.Val, known)...)
				}
			}
		}
		if n.Type == html.TextNode {
			where := "text"
			if p := n.Parent; p != nil {
				where = "<" + p.Data + ">"
			}
			out = append(out, Text(where, n.Data, known)...)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	return out, nil
}

// readAttr reports whether attribute a of n is read or heard by people.
func readAttr(n *html.Node, a html.Attribute) bool {
	switch a.Key {
	case "title", "alt", "aria-label", "placeholder", "aria-description":
		return true
	case "content":
		for _, b := range n.Attr {
			if b.Key == "name" && (b.Val == "description" || b.Val == "apple-mobile-web-app-title") {
				return true
			}
		}
	case "value":
		for _, b := range n.Attr {
			if b.Key == "type" && (b.Val == "submit" || b.Val == "button") {
				return true
			}
		}
	}
	return false
}

// attrOf is n's attribute key, or "".
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
