package lang

import (
	"strings"
	"unicode/utf8"
)

// pseudoLetters replaces each ASCII letter by a look-alike outside ASCII,
// so a pseudo-localised sentence is still readable but no English word of
// the catalogue survives in it.
var pseudoLetters = map[rune]rune{
	'a': 'á', 'b': 'ƀ', 'c': 'ç', 'd': 'ð', 'e': 'é', 'f': 'ƒ', 'g': 'ĝ', 'h': 'ĥ',
	'i': 'í', 'j': 'ĵ', 'k': 'ķ', 'l': 'ĺ', 'm': 'ɱ', 'n': 'ñ', 'o': 'ö', 'p': 'þ',
	'q': 'ǫ', 'r': 'ŕ', 's': 'š', 't': 'ŧ', 'u': 'ü', 'v': 'ṽ', 'w': 'ŵ', 'x': 'ẋ',
	'y': 'ý', 'z': 'ž',
	'A': 'Å', 'B': 'Ɓ', 'C': 'Ç', 'D': 'Ð', 'E': 'É', 'F': 'Ƒ', 'G': 'Ĝ', 'H': 'Ĥ',
	'I': 'Î', 'J': 'Ĵ', 'K': 'Ķ', 'L': 'Ĺ', 'M': 'Ṁ', 'N': 'Ñ', 'O': 'Ö', 'P': 'Þ',
	'Q': 'Ǫ', 'R': 'Ŕ', 'S': 'Š', 'T': 'Ŧ', 'U': 'Û', 'V': 'Ṽ', 'W': 'Ŵ', 'X': 'Ẋ',
	'Y': 'Ý', 'Z': 'Ž',
}

// Pseudolocalize is s as the Pseudo language reads it: letters replaced by
// accented look-alikes and the whole in ⟦ ⟧. What is not words is kept as
// it is, because it is syntax, not language: placeholders ({date}), Slack
// control sequences and links (<@U1>, <!date^…>, <url|…>), emoji codes
// (:warning:) and HTML entities (&amp;).
func Pseudolocalize(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s)*2 + 8)
	b.WriteString("⟦")
	for i := 0; i < len(s); {
		if n := keptSpan(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if p, ok := pseudoLetters[r]; ok {
			r = p
		}
		b.WriteRune(r)
		i += size
	}
	b.WriteString("⟧")
	return b.String()
}

// keptSpan is the length of the syntax s starts with, or 0.
func keptSpan(s string) int {
	switch s[0] {
	case '{':
		if end := strings.IndexByte(s, '}'); end > 0 {
			return end + 1
		}
	case '<':
		if end := strings.IndexByte(s, '>'); end > 0 {
			// A link's label is words: keep only up to the '|'.
			if bar := strings.IndexByte(s[:end], '|'); bar > 0 && s[1] != '!' {
				return bar + 1
			}
			return end + 1
		}
	case '&':
		if end := strings.IndexByte(s, ';'); end > 1 && end < 8 {
			return end + 1
		}
	case ':':
		end := 1
		for end < len(s) && isEmojiChar(s[end]) {
			end++
		}
		if end > 1 && end < len(s) && s[end] == ':' {
			return end + 1
		}
	}
	return 0
}

func isEmojiChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+'
}
