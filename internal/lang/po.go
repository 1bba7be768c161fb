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
	f := &poFile{}
	seen := map[string]int{}
	var (
		cur   poEntry
		phase int     // what cur has reached: one of the phases below
		fuzzy bool    // a "#, fuzzy" flag waits for the next message
		last  *string // the string a continuation line extends
	)
	const (
		none = iota
		hasCtx
		hasID
		hasPlural
		hasStr
	)
	flush := func() error {
		defer func() { cur, phase, last = poEntry{}, none, nil }()
		switch phase {
		case none:
			return nil
		case hasStr:
		default:
			return fmt.Errorf("%s:%d: message without msgstr", name, cur.line)
		}
		if !cur.hasCtx && cur.id == "" {
			if f.header != nil {
				return fmt.Errorf("%s:%d: a second header", name, cur.line)
			}
			f.header = parseHeader(cur.str[0])
			return nil
		}
		k := cur.ctx + "\x04" + cur.id
		if !cur.hasCtx {
			k = cur.id
		}
		if at, dup := seen[k]; dup {
			return fmt.Errorf("%s:%d: message %q defined again (first at line %d)", name, cur.line, cur.ctx, at)
		}
		seen[k] = cur.line
		f.entries = append(f.entries, cur)
		return nil
	}
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			if err := flush(); err != nil {
				return nil, err
			}
		case strings.HasPrefix(line, "#~"):
			// An obsolete message, kept by msgmerge for reference.
		case strings.HasPrefix(line, "#"):
			if phase == hasStr {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			if strings.HasPrefix(line, "#,") {
				for _, flag := range strings.Split(line[2:], ",") {
					if strings.TrimSpace(flag) == "fuzzy" {
						fuzzy = true
					}
				}
			}
			last = nil
		case line[0] == '"':
			if last == nil {
				return nil, fmt.Errorf("%s:%d: a string outside any msgctxt, msgid or msgstr", name, n)
			}
			s, err := unquotePO(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			*last += s
		default:
			kw, rest, _ := strings.Cut(line, " ")
			if k, r, ok := strings.Cut(line, "\t"); ok && len(k) < len(kw) {
				kw, rest = k, r
			}
			s, err := unquotePO(strings.TrimSpace(rest))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %w", name, n, kw, err)
			}
			if phase == hasStr && !strings.HasPrefix(kw, "msgstr[") {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			if phase == none {
				cur.line = n
				cur.fuzzy, fuzzy = fuzzy, false
			}
			switch {
			case kw == "msgctxt":
				if phase != none {
					return nil, fmt.Errorf("%s:%d: msgctxt must come first in a message", name, n)
				}
				cur.ctx, cur.hasCtx, phase = s, true, hasCtx
				last = &cur.ctx
			case kw == "msgid":
				if phase != none && phase != hasCtx {
					return nil, fmt.Errorf("%s:%d: msgid out of place", name, n)
				}
				cur.id, phase = s, hasID
				last = &cur.id
			case kw == "msgid_plural":
				if phase != hasID {
					return nil, fmt.Errorf("%s:%d: msgid_plural out of place", name, n)
				}
				cur.idPlural, cur.plural, phase = s, true, hasPlural
				last = &cur.idPlural
			case kw == "msgstr":
				if phase != hasID {
					return nil, fmt.Errorf("%s:%d: msgstr out of place (a plural message has msgstr[0], msgstr[1], …)", name, n)
				}
				cur.str, phase = []string{s}, hasStr
				last = &cur.str[0]
			case strings.HasPrefix(kw, "msgstr[") && strings.HasSuffix(kw, "]"):
				idx, err := strconv.Atoi(kw[len("msgstr[") : len(kw)-1])
				if err != nil || !cur.plural || idx != len(cur.str) {
					return nil, fmt.Errorf("%s:%d: %s out of place (a plural message's forms are msgstr[0], msgstr[1], … in order)", name, n, kw)
				}
				cur.str, phase = append(cur.str, s), hasStr
				last = &cur.str[idx]
			default:
				return nil, fmt.Errorf("%s:%d: unknown keyword %q", name, n, kw)
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if f.header == nil {
		return nil, fmt.Errorf("%s: no header (msgid \"\" with the Language and Plural-Forms fields)", name)
	}
	return f, nil
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
