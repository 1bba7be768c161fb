package lang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// poEntry is one message of a gettext PO file
// (https://www.gnu.org/software/gettext/manual/html_node/PO-Files.html).
// recordsbot's files give every message a msgctxt, the [Key] the code
// asks for; msgid is the English text and msgstr its translation.
type poEntry struct {
	ctx      string
	id       string
	idPlural string
	// str is msgstr, or msgstr[0], msgstr[1], … for a plural message.
	str []string
	// hasCtx and plural say which keywords the entry had: a msgctxt ""
	// differs from none, and a plural message from a plain one.
	hasCtx, plural bool
	// fuzzy is the "#, fuzzy" flag a translator's tool (or msgmerge) sets
	// when msgid changed under a translation: gettext does not use such a
	// translation, and neither does recordsbot.
	fuzzy bool
	// line is where the entry starts, for messages.
	line int
}

// poFile is a parsed PO file: its header's fields and its messages, in
// the file's order.
type poFile struct {
	header  map[string]string
	entries []poEntry
}

// parsePO reads a PO file. name is used in errors, which give the line:
// "fr.po:12: msgstr without msgid". It accepts what gettext's tools write
// (comments, flags, obsolete "#~" entries, strings continued on the next
// lines, msgstr[n]) and refuses what they would: a keyword out of place,
// a string not quoted or with an unknown escape, a message defined twice,
// bytes that are not UTF-8.
func parsePO(name string, data []byte) (*poFile, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: not UTF-8", name)
	}
	p := &poParser{name: name, f: &poFile{}, seen: map[string]int{}}
	for i, raw := range strings.Split(string(data), "\n") {
		if err := p.line(i+1, strings.TrimSpace(raw)); err != nil {
			return nil, err
		}
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	if p.f.header == nil {
		return nil, fmt.Errorf("%s: no header (msgid \"\" with the Language and Plural-Forms fields)", name)
	}
	return p.f, nil
}

// What the message being read has reached (poParser.phase).
const (
	poNone = iota
	poHasCtx
	poHasID
	poHasPlural
	poHasStr
)

// poParser is parsePO's state between lines.
type poParser struct {
	name string
	f    *poFile
	seen map[string]int // each message's key, and the line it starts at
	cur  poEntry
	// phase is what cur has reached: one of the phases above.
	phase int
	// fuzzy is a "#, fuzzy" flag waiting for the next message.
	fuzzy bool
	// last is the string a continuation line extends.
	last *string
}

// line reads line n of the file, trimmed.
func (p *poParser) line(n int, line string) error {
	switch {
	case line == "":
		return p.flush()
	case strings.HasPrefix(line, "#~"):
		// An obsolete message, kept by msgmerge for reference.
		return nil
	case strings.HasPrefix(line, "#"):
		return p.comment(line)
	case line[0] == '"':
		if p.last == nil {
			return fmt.Errorf("%s:%d: a string outside any msgctxt, msgid or msgstr", p.name, n)
		}
		s, err := unquotePO(line)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p.name, n, err)
		}
		*p.last += s
		return nil
	}
	return p.keyword(n, line)
}

// comment reads a comment line: it ends a message read whole, and a
// "#, fuzzy" flag marks the next one.
func (p *poParser) comment(line string) error {
	if p.phase == poHasStr {
		if err := p.flush(); err != nil {
			return err
		}
	}
	if strings.HasPrefix(line, "#,") {
		for _, flag := range strings.Split(line[2:], ",") {
			if strings.TrimSpace(flag) == "fuzzy" {
				p.fuzzy = true
			}
		}
	}
	p.last = nil
	return nil
}

// keyword reads line n, a keyword and its string: msgctxt, msgid,
// msgid_plural, msgstr or msgstr[i], each only where gettext allows it.
func (p *poParser) keyword(n int, line string) error {
	kw, rest, _ := strings.Cut(line, " ")
	if k, r, ok := strings.Cut(line, "\t"); ok && len(k) < len(kw) {
		kw, rest = k, r
	}
	s, err := unquotePO(strings.TrimSpace(rest))
	if err != nil {
		return fmt.Errorf("%s:%d: %s: %w", p.name, n, kw, err)
	}
	if p.phase == poHasStr && !strings.HasPrefix(kw, "msgstr[") {
		if err := p.flush(); err != nil {
			return err
		}
	}
	cur := &p.cur
	if p.phase == poNone {
		cur.line = n
		cur.fuzzy, p.fuzzy = p.fuzzy, false
	}
	switch {
	case kw == "msgctxt":
		if p.phase != poNone {
			return fmt.Errorf("%s:%d: msgctxt must come first in a message", p.name, n)
		}
		cur.ctx, cur.hasCtx, p.phase = s, true, poHasCtx
		p.last = &cur.ctx
	case kw == "msgid":
		if p.phase != poNone && p.phase != poHasCtx {
			return fmt.Errorf("%s:%d: msgid out of place", p.name, n)
		}
		cur.id, p.phase = s, poHasID
		p.last = &cur.id
	case kw == "msgid_plural":
		if p.phase != poHasID {
			return fmt.Errorf("%s:%d: msgid_plural out of place", p.name, n)
		}
		cur.idPlural, cur.plural, p.phase = s, true, poHasPlural
		p.last = &cur.idPlural
	case kw == "msgstr":
		if p.phase != poHasID {
			return fmt.Errorf("%s:%d: msgstr out of place (a plural message has msgstr[0], msgstr[1], …)", p.name, n)
		}
		cur.str, p.phase = []string{s}, poHasStr
		p.last = &cur.str[0]
	case strings.HasPrefix(kw, "msgstr[") && strings.HasSuffix(kw, "]"):
		idx, err := strconv.Atoi(kw[len("msgstr[") : len(kw)-1])
		if err != nil || !cur.plural || idx != len(cur.str) {
			return fmt.Errorf("%s:%d: %s out of place (a plural message's forms are msgstr[0], msgstr[1], … in order)", p.name, n, kw)
		}
		cur.str, p.phase = append(cur.str, s), poHasStr
		p.last = &cur.str[idx]
	default:
		return fmt.Errorf("%s:%d: unknown keyword %q", p.name, n, kw)
	}
	return nil
}

// flush ends the message being read: the header, or one more entry.
func (p *poParser) flush() error {
	cur := p.cur
	defer func() { p.cur, p.phase, p.last = poEntry{}, poNone, nil }()
	switch p.phase {
	case poNone:
		return nil
	case poHasStr:
	default:
		return fmt.Errorf("%s:%d: message without msgstr", p.name, cur.line)
	}
	if !cur.hasCtx && cur.id == "" {
		if p.f.header != nil {
			return fmt.Errorf("%s:%d: a second header", p.name, cur.line)
		}
		p.f.header = parseHeader(cur.str[0])
		return nil
	}
	k := cur.ctx + "\x04" + cur.id
	if !cur.hasCtx {
		k = cur.id
	}
	if at, dup := p.seen[k]; dup {
		return fmt.Errorf("%s:%d: message %q defined again (first at line %d)", p.name, cur.line, cur.ctx, at)
	}
	p.seen[k] = cur.line
	p.f.entries = append(p.f.entries, cur)
	return nil
}

// unquotePO is the value of a PO string, "…" with C's escapes.
func unquotePO(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", errors.New("want a string in double quotes")
	}
	s = s[1 : len(s)-1]
	if !strings.ContainsAny(s, `\"`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return "", errors.New(`a " inside a string must be written \"`)
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", errors.New(`a string ends with \`)
		}
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		default:
			return "", fmt.Errorf(`unknown escape \%c (PO strings know \n, \t, \r, \" and \\)`, s[i])
		}
	}
	return b.String(), nil
}

// quotePO is s as a PO string, the inverse of unquotePO.
func quotePO(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// parseHeader reads a header's "Name: value" lines.
func parseHeader(s string) map[string]string {
	h := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			h[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return h
}
