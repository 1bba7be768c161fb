// Package invisible removes from text the characters that change how it
// is shown without being seen themselves: the bidirectional controls that
// reorder what follows them (an action titled "\u202Egnp.exe" reads as
// "exe.png") and the zero-width characters that hide inside words (a link
// text or name that looks like another). Record text comes from a service
// the bot does not control, so everything the bot renders from it, in
// Slack (package blocks) and on the public pages, passes through Strip.
//
// What is removed (Unicode 16, UAX #9 for the bidi classes):
//   - embeddings and overrides: U+202A LRE, U+202B RLE, U+202C PDF,
//     U+202D LRO, U+202E RLO;
//   - isolates: U+2066 LRI, U+2067 RLI, U+2068 FSI, U+2069 PDI;
//   - marks: U+200E LRM, U+200F RLM, U+061C ALM;
//   - zero-width: U+200B ZWSP, U+200C ZWNJ, U+200D ZWJ, U+2060 WJ, U+FEFF
//     (a byte-order mark or zero-width no-break space).
//
// Text in right-to-left scripts still reads right to left: its letters
// carry their own direction, which no control is needed for. The price of
// removing ZWJ and ZWNJ: an emoji sequence such as a family shows as its
// members, and a Persian or Indic word joined or kept apart by them shows
// its letters in their default forms; neither changes what the text says.
package invisible

import (
	"strings"
	"unicode/utf8"
)

// Is reports whether r is one of the characters Strip removes.
func Is(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r >= 0x200B && r <= 0x200F:
		return true
	case r == 0x061C, r == 0x2060, r == 0xFEFF:
		return true
	}
	return false
}

// Strip returns s without the characters Is reports, and s itself (no
// copy) when it has none. Invalid UTF-8 is left as it is; bytes that
// removing a character brings together into one of them are removed too
// (FuzzStrip found "\xe2\x80\u200d\x8d", which is ZWJ once the inner one
// is gone).
func Strip(s string) string {
	for strings.ContainsFunc(s, Is) {
		s = strip(s)
	}
	return s
}

func strip(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !Is(r) {
			b.WriteString(s[i : i+n]) // invalid bytes too, as they came
		}
		i += n
	}
	return b.String()
}
