// Package jsonappend writes JSON values straight into a byte slice, exactly
// as encoding/json's Marshal writes them. It exists for the hot paths that
// encode one known shape on every request (a slash command's reply): a
// hand-written appender skips reflection and the re-compaction encoding/json
// does of every json.Marshaler's output, and a test of each caller holds its
// bytes to encoding/json's.
package jsonappend

import "unicode/utf8"

const hex = "0123456789abcdef"

// String appends s as a JSON string the way encoding/json.Marshal does:
// HTML-escaped (<, > and & as \u003c, \u003e, \u0026), control characters
// as \n, \r, \t, \b, \f or \u00XX, U+2028 and U+2029 as \u2028 and \u2029,
// and each byte of invalid UTF-8 as \ufffd.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safe(b) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// safe reports whether the ASCII byte b is written as it is: printable,
// and none of the quote, the backslash or the HTML-sensitive <, > and &.
func safe(b byte) bool {
	return b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
}

// Member appends a member name and its colon, with a comma first unless
// dst ends in an object's opening brace or an array's bracket. The name is
// written as it is: callers pass constant names that need no escaping.
func Member(dst []byte, name string) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' && dst[n-1] != '[' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}
