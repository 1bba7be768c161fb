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
// What is replaced by a space: the line breaks that are not CR or LF,
// U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR and U+0085 NEXT LINE.
// Some readers break a line at them and others do not, so a title can
// show a second line that another reader does not (an iCalendar client
// may read U+0085 as the end of a property); where the text may hold a
// line break, the format's own one is used.
//
// Every output format has one cleaning rule that calls Strip on all the
// text it writes: HTML (bot/minutespage's render), Slack mrkdwn and
// plain_text (blocks' Escape and truncate), iCalendar (internal/ical's
// Text), Atom (bot/minutespage's feed), each with a fuzz target.
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

// Is reports whether r is one of the characters Strip removes or
// replaces.
func Is(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r >= 0x200B && r <= 0x200F:
		return true
	case r == 0x061C, r == 0x2060, r == 0xFEFF:
		return true
	}
	return isLineBreak(r)
}

// isLineBreak reports whether r is a line break Strip replaces by a space.
func isLineBreak(r rune) bool { return r == 0x2028 || r == 0x2029 || r == 0x0085 }

// Strip returns s without the characters Is reports (a line break among
// them a space), and s itself (no copy) when it has none. Invalid UTF-8 is left as it is; bytes that
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
		switch {
		case isLineBreak(r):
			b.WriteByte(' ')
		case !Is(r):
			b.WriteString(s[i : i+n]) // invalid bytes too, as they came
		}
		i += n
	}
	return b.String()
}
