package blocks

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// ellipsis marks text that was shortened.
const ellipsis = "…"

// EscapeTyped escapes text a person typed, to quote it back to them (an
// unknown committee, command or status): as Escape, except that an entity
// they typed as it is ("&gt;", four characters) keeps its look with a
// fullwidth ampersand (＆, U+FF06). Escaped as "&amp;gt;" it would read as
// text escaped twice, the mistake Check exists to catch (FuzzSlashCommandBody
// found the command name "&gt;" quoted that way), and the person sees the
// same characters either way. Record text goes through Escape, unchanged.
func EscapeTyped(s string) string {
	if strings.Contains(s, "&") {
		for _, e := range []string{"&amp;", "&lt;", "&gt;"} {
			s = strings.ReplaceAll(s, e, "＆"+e[1:])
		}
	}
	return Escape(s)
}

// Escape escapes s for mrkdwn: &, < and > become &amp; &lt; &gt;, so record
// text can never form a mention, a link or a special command. Slack decodes
// only these three entities. The bidi controls and zero-width characters
// that would reorder or hide text are removed (package invisible): an
// action titled "\u202Egnp.exe" must not read "exe.png".
func Escape(s string) string {
	s = invisible.Strip(s)
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		// Byte-wise is safe: the three characters are ASCII and never occur
		// inside a multi-byte UTF-8 sequence.
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapedWidth is the number of characters r takes once escaped.
func escapedWidth(r rune) int {
	switch r {
	case '&':
		return len("&amp;")
	case '<', '>':
		return len("&lt;")
	}
	return 1
}

// escapeTrunc escapes s and shortens it so the result has at most max
// characters, ending in "…" when shortened. It cuts between source runes,
// so neither a UTF-8 sequence nor an entity is ever split, and between
// words when it can (wordCut).
func escapeTrunc(s string, max int) string {
	if max <= 0 {
		return ""
	}
	s = invisible.Strip(s)
	width, end := 0, len(s)
	for i, r := range s {
		w := escapedWidth(r)
		if width+w > max-1 && end == len(s) {
			end = i
		}
		width += w
	}
	if width <= max {
		return Escape(s)
	}
	return strings.TrimRightFunc(Escape(wordCut(s[:end], s[end:])), unicode.IsSpace) + ellipsis
}

// truncate shortens plain text to at most max characters, ending in "…"
// when shortened. It cuts at a rune boundary, between words when it can
// (wordCut). Like Escape, it removes the characters that would reorder or
// hide text: headers and buttons are plain_text, which Slack shows as it
// comes.
func truncate(s string, max int) string {
	if max <= 0 {
		return ""
	}
	s = invisible.Strip(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut := prefixRunes(s, max-1)
	return strings.TrimRightFunc(wordCut(cut, s[len(cut):]), unicode.IsSpace) + ellipsis
}

// truncateMrkdwn shortens mrkdwn the bot wrote (already escaped) to at most
// max characters, between words when it can (wordCut), without cutting
// through an entity (&amp;) or a control sequence (<@U123>,
// <!date^…|…>): a cut inside one moves before it.
func truncateMrkdwn(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut := prefixRunes(s, max-1)
	cut = wordCut(cut, s[len(cut):])
	if open := strings.LastIndexByte(cut, '<'); open > strings.LastIndexByte(cut, '>') {
		cut = cut[:open]
	}
	if amp := strings.LastIndexByte(cut, '&'); amp >= 0 && !strings.Contains(cut[amp:], ";") {
		cut = cut[:amp]
	}
	return strings.TrimRightFunc(cut, unicode.IsSpace) + ellipsis
}

// wordCut is cut, the part of a text that fits, ended at a word boundary:
// when cut stops inside a word (rest, what follows it, goes on with the
// same word), the partial word is dropped. German and French sentences run
// longer than English and meet the limits more often; "Tagesordnungs…"
// reads worse than "der…". A break is looked for only in cut's second
// half: one word longer than that (a URL, a compound) is cut where it is,
// so the reader still gets most of the text.
func wordCut(cut, rest string) string {
	if cut == "" || rest == "" {
		return cut
	}
	last, _ := utf8.DecodeLastRuneInString(cut)
	next, _ := utf8.DecodeRuneInString(rest)
	if !isWordRune(last) || !isWordRune(next) {
		return cut
	}
	if i := strings.LastIndexFunc(cut, unicode.IsSpace); i > 0 && i >= len(cut)/2 {
		return cut[:i]
	}
	return cut
}

// isWordRune reports whether r is part of a word: a letter, a digit or a
// combining mark (an accent written as its own code point).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// oneLine collapses every run of white space (newlines included) into one
// space, so record text cannot break a list row's layout.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' }) &&
		!strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// inline is record text for one line of mrkdwn: collapsed, escaped and
// shortened to max characters.
func inline(s string, max int) string {
	return escapeTrunc(oneLine(s), max)
}

// runes counts characters the way Block Kit limits do.
func runes(s string) int { return utf8.RuneCountInString(s) }

// Date formats t with Slack's date token so each reader sees their own time
// zone and locale: <!date^UNIX^{date_short_pretty}|Jan 2, 2006>, and with
// hasTime <!date^UNIX^{date_short_pretty} at {time}|Jan 2, 2006 at 15:04
// UTC>, the words ("at") and the fallback after "|" (what clients that
// cannot render the token show) in l.
//
// A date-only value (hasTime false) is shown at 12:00 UTC of t's calendar
// date, so the date reads the same in every time zone from UTC-11 to UTC+11
// instead of slipping to the day before west of Greenwich. A zero t gives "".
func Date(l lang.Lang, t time.Time, hasTime bool) string {
	if t.IsZero() {
		return ""
	}
	// Built in one buffer: every row of every list has one.
	b := make([]byte, 0, 96)
	b = append(b, "<!date^"...)
	if !hasTime {
		noon := calendarNoon(t)
		b = strconv.AppendInt(b, noon.Unix(), 10)
		b = append(b, "^{date_short_pretty}|"...)
		b = l.AppendDate(b, noon)
	} else {
		u := t.UTC()
		b = strconv.AppendInt(b, u.Unix(), 10)
		b = append(b, '^')
		b = append(b, l.SlackDateTime()...)
		b = append(b, '|')
		b = l.AppendDateTime(b, u)
	}
	return string(append(b, '>'))
}

// dateOnly is Date of a calendar day: t's date, whatever its clock.
func dateOnly(l lang.Lang, t time.Time) string { return Date(l, t, false) }

// dateOn is a calendar day for a sentence that puts its own word before
// it ("Approved on {date}", "le {date}"): {date_short}, never the pretty
// token, which Slack draws as "today" or "yesterday" when it can
// (https://docs.slack.dev/messaging/formatting-message-text#date-formatting),
// giving "Approved on today". Zero t gives "".
func dateOn(l lang.Lang, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	noon := calendarNoon(t)
	b := make([]byte, 0, 64)
	b = append(b, "<!date^"...)
	b = strconv.AppendInt(b, noon.Unix(), 10)
	b = append(b, "^{date_short}|"...)
	b = l.AppendDate(b, noon)
	return string(append(b, '>'))
}

// dateTime is Date of an instant, which each reader sees in their own
// time zone.
func dateTime(l lang.Lang, t time.Time) string { return Date(l, t, true) }

// calendarNoon is 12:00 UTC of t's calendar date in t's own location.
func calendarNoon(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
}

// plainDate is a readable date for plain-text fallbacks, where the date token
// does not render. Zero t gives "".
func plainDate(l lang.Lang, t time.Time, hasTime bool) string {
	switch {
	case t.IsZero():
		return ""
	case hasTime:
		return l.DateTime(t)
	}
	return l.Date(calendarNoon(t))
}

// isoDate is a date for terminals: 2006-01-02, with the time in UTC when the
// value has one; a date-only value keeps its calendar day. Zero t gives "".
func isoDate(t time.Time, hasTime bool) string {
	switch {
	case t.IsZero():
		return ""
	case hasTime:
		return t.UTC().Format("2006-01-02 15:04 UTC")
	}
	return calendarNoon(t).Format("2006-01-02")
}

// maxMentionID bounds a user ID turned into a mention; real Slack IDs are
// about 11 characters, so anything longer is not one.
const maxMentionID = 32

// isUserID reports whether id is a Slack user ID (slackapi.IsUserID) of
// a length a mention may take.
func isUserID(id string) bool {
	return len(id) <= maxMentionID && slackapi.IsUserID(id)
}

// mention is a user mention when id is a Slack user ID and escaped text
// otherwise, so a forged "ID" can never become a control sequence.
func mention(l lang.Lang, id string) string {
	if isUserID(id) {
		return "<@" + id + ">"
	}
	if s := inline(id, 24); s != "" {
		return s
	}
	return l.T("someone")
}

// safeURL reports whether u can go into a link: an absolute http(s) URL
// without white space or the characters that end a mrkdwn link (| < >).
// URLs come from the bot's own configuration, but a bad one must cost a
// link, not a rejected message.
func safeURL(u string, max int) bool {
	if u == "" || runes(u) > max {
		return false
	}
	if strings.ContainsAny(u, "|<>") || strings.ContainsFunc(u, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}) {
		return false
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return false
	}
	return strings.EqualFold(p.Scheme, "http") || strings.EqualFold(p.Scheme, "https")
}

// link is a mrkdwn link to u labelled label (bot text, no | or >), or "" when
// u is not a safe URL. Slack decodes entities in the URL part too, so & is
// escaped like everywhere else in mrkdwn.
func link(u, label string) string {
	if !safeURL(u, maxInlineURL) {
		return ""
	}
	return "<" + Escape(u) + "|" + label + ">"
}

// maxInlineURL bounds a URL written into mrkdwn text, where it counts
// against the message's text budget.
const maxInlineURL = 500

// mrkdwn is a mrkdwn text object. Verbatim stops Slack from turning bare
// URLs, #channel names and @here-like words in record text into links or
// mentions; the sequences the bot writes itself (<@U…>, <!date…>) still work.
func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, true)
}

// plain is a plain_text object with emoji shortcodes rendered. The emoji
// flag is written only when s could hold a shortcode (":zzz:"): without a
// colon there is nothing for it to change, whatever Slack's default, and
// the labels of every row's controls would otherwise carry it, the bulk
// of a list's bytes (docs/performance.md).
func plain(s string) *slack.TextBlockObject {
	t := plainText(s)
	return &t
}

// plainText is plain's object as a value, for a caller that builds many
// in one array.
func plainText(s string) slack.TextBlockObject {
	t := slack.TextBlockObject{Type: slack.PlainTextType, Text: s}
	if strings.IndexByte(s, ':') >= 0 {
		t.Emoji = &emojiOn
	}
	return t
}

// emojiOn is what an Emoji flag points to when it is set; never modified.
var emojiOn = true

// section is a section of one mrkdwn text.
func section(s string) *slack.SectionBlock {
	return slack.NewSectionBlock(mrkdwn(s), nil, nil)
}

// header is a header block; s is shortened to Block Kit's limit.
func header(s string) *slack.HeaderBlock {
	return slack.NewHeaderBlock(plain(truncate(oneLine(s), MaxHeaderText)))
}

// contextLine is a context block of one mrkdwn text.
func contextLine(s string) *slack.ContextBlock {
	return slack.NewContextBlock("", mrkdwn(s))
}

// button is a plain button; text is shortened to Block Kit's limit.
func button(actionID, value, text string) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(actionID, value, plain(truncate(text, MaxButtonText)))
}

// Excerpt returns the opening of body as readable plain text of at most max
// characters: line endings normalised, trailing spaces dropped and runs of
// blank lines collapsed into one. When body is longer it takes whole
// paragraphs while they fit, else cuts at a line or word boundary, and ends
// in "…". Invalid UTF-8 is replaced, so the result is always valid UTF-8.
// max <= 0 gives "".
func Excerpt(body string, max int) string {
	if max <= 0 {
		return ""
	}
	text := normalizeBody(body)
	if runes(text) <= max {
		return text
	}
	// Whole paragraphs while they fit, keeping room for the ellipsis.
	var kept string
	for _, p := range strings.Split(text, "\n\n") {
		next := p
		if kept != "" {
			next = kept + "\n\n" + p
		}
		if runes(next) > max-2 { // room for "\n…"
			break
		}
		kept = next
	}
	if kept != "" {
		return kept + "\n" + ellipsis
	}
	return cutAtBoundary(text, max-1) + ellipsis
}

// normalizeBody makes body tidy plain text: valid UTF-8, \n line endings, no
// trailing spaces, at most one blank line in a row, no leading or trailing
// blank lines.
func normalizeBody(body string) string {
	body = strings.ToValidUTF8(body, "\uFFFD")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	var b strings.Builder
	blank := false
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if line == "" {
			blank = b.Len() > 0
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
			if blank {
				b.WriteByte('\n')
			}
		}
		blank = false
		b.WriteString(line)
	}
	return b.String()
}

// cutAtBoundary returns the longest prefix of s of at most max characters
// that ends at a line break or, failing that, a word break; when neither is
// in the second half of the prefix it cuts at a rune boundary.
func cutAtBoundary(s string, max int) string {
	prefix := prefixRunes(s, max)
	if len(prefix) == len(s) {
		return prefix
	}
	half := len(prefix) / 2
	if i := strings.LastIndexByte(prefix, '\n'); i > 0 && i >= half {
		return strings.TrimRightFunc(prefix[:i], unicode.IsSpace)
	}
	if i := strings.LastIndexFunc(prefix, unicode.IsSpace); i > 0 && i >= half {
		return strings.TrimRightFunc(prefix[:i], unicode.IsSpace)
	}
	return prefix
}

// prefixRunes returns the first n runes of s.
func prefixRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
