package demo

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// The renderer turns what the bot sends Slack — Block Kit JSON with mrkdwn in
// it — into text for a terminal, the way a Slack client would show it:
// formatting applied, mentions and dates resolved, links spelled out, and
// every button and menu option numbered so the console can press it.
// By concern: styles, widths and plain text here; mrkdwn emphasis in
// render_mrkdwn.go; <…> sequences (mentions, links, dates) in
// render_sequences.go; blocks, fields, buttons and attachments in
// render_blocks.go.

// palette writes terminal styles as ANSI SGR sequences when colour is on,
// and nothing otherwise, so that the same rendering code serves a terminal
// and a pipe.
type palette struct{ on bool }

// SGR parameters. Each style is switched off with its own "off" code
// rather than a full reset, so styles nest: bold inside a grey context line
// stays grey after the bold ends.
const (
	sgrBold, sgrBoldOff     = "1", "22"
	sgrItalic, sgrItalicOff = "3", "23"
	sgrUnder, sgrUnderOff   = "4", "24"
	sgrStrike, sgrStrikeOff = "9", "29"
	fgDefault               = "39"
	fgGrey                  = "90"
	fgRed                   = "31"
	fgGreen                 = "32"
	fgYellow                = "33"
	fgBlue                  = "34"
	fgCyan                  = "36"
)

// sgr wraps s in an on and an off sequence.
func (p palette) sgr(on, off, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + on + "m" + s + "\x1b[" + off + "m"
}

func (p palette) bold(s string) string      { return p.sgr(sgrBold, sgrBoldOff, s) }
func (p palette) fg(c, s string) string     { return p.sgr(c, fgDefault, s) }
func (p palette) grey(s string) string      { return p.fg(fgGrey, s) }
func (p palette) underline(s string) string { return p.sgr(sgrUnder, sgrUnderOff, s) }

// visibleWidth is the number of terminal cells s takes, approximately: its
// runes without the ANSI sequences. Wide characters such as emoji count
// once, which only makes a column a little narrower than it could be.
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			if j := strings.IndexByte(s[i:], 'm'); j >= 0 {
				i += j + 1
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// padRight pads s with spaces to width visible cells.
func padRight(s string, width int) string {
	if w := visibleWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// emoji maps the shortcodes recordsbot uses to the characters a Slack
// client shows. Unknown shortcodes are left as typed, as Slack does for
// names it does not know.
var emoji = map[string]string{
	"alarm_clock":            "⏰",
	"bell":                   "🔔",
	"calendar":               "📆",
	"bust_in_silhouette":     "👤",
	"clipboard":              "📋",
	"gear":                   "⚙️",
	"grey_question":          "❔",
	"hourglass":              "⌛",
	"hourglass_flowing_sand": "⏳",
	"inbox_tray":             "📥",
	"information_source":     "ℹ️",
	"lock":                   "🔒",
	"mag":                    "🔍",
	"mag_right":              "🔎",
	"memo":                   "📝",
	"pencil2":                "✏️",
	"eyes":                   "👀",
	"no_entry":               "⛔",
	"page_facing_up":         "📄",
	"red_circle":             "🔴",
	"speech_balloon":         "💬",
	"spiral_calendar_pad":    "🗓️",
	"scroll":                 "📜",
	"tada":                   "🎉",
	"thinking_face":          "🤔",
	"warning":                "⚠️",
	"wave":                   "👋",
	"white_check_mark":       "✅",
	"zipper_mouth_face":      "🤐",
	"zzz":                    "💤",
	"palm_tree":              "🌴",
}

// decodeEntities undoes mrkdwn escaping. Slack decodes exactly these three.
var decodeEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace

// renderer renders Block Kit and mrkdwn for one reader: dates in their
// time zone, relative to their now, and user IDs as the handles of the
// demo's people.
type renderer struct {
	p   palette
	now func() time.Time
	loc *time.Location
	// lang is the reader's Slack language, which Slack draws date
	// tokens in (`lang`); English until they choose one.
	lang lang.Lang
	// handles maps Slack user IDs to handles ("U0ALICE" → "alice") and
	// channels maps channel IDs to names ("C0GENERAL" → "general").
	handles  map[string]string
	channels map[string]string
}

// mrkdwn renders Slack mrkdwn: *bold*, _italic_, ~strike~ and `code`
// (styled with colour on; without it bold and italic markers are dropped,
// and code keeps its backticks, which still say "type this"), &lt; &gt;
// &amp; decoded, :emoji: shortcodes shown, and the <…> sequences resolved:
// <@U0ALICE> as @alice, <#C0GENERAL> as #general, <!date^…> as a date in
// the reader's zone and <url|label> as "label (url)". Lines are kept.
//
// fg is the foreground colour the text is shown in (fgDefault for normal
// text), restored after a code span ends.
func (r *renderer) mrkdwn(s, fg string) string {
	toks := r.tokenize(s, fg)
	pairMarks(toks)
	var b strings.Builder
	for _, t := range toks {
		switch t.kind {
		case tokText:
			b.WriteString(decodeEntities(t.text))
		case tokAtom:
			b.WriteString(t.text)
		case tokCode:
			if r.p.on {
				b.WriteString(r.p.sgr(fgCyan, fg, t.text))
			} else {
				b.WriteString("`" + t.text + "`")
			}
		case tokMark:
			b.WriteString(r.mark(t))
		}
	}
	return b.String()
}

// mark writes a formatting marker: the style's on or off sequence when it
// is paired, the character itself when it is not.
func (r *renderer) mark(t token) string {
	if t.partner < 0 {
		return t.text
	}
	on, off := "", ""
	switch t.text {
	case "*":
		on, off = sgrBold, sgrBoldOff
	case "_":
		on, off = sgrItalic, sgrItalicOff
	case "~":
		if !r.p.on {
			return t.text // a struck-out word must not read as a plain one
		}
		on, off = sgrStrike, sgrStrikeOff
	}
	if !r.p.on {
		return ""
	}
	if t.open {
		return "\x1b[" + on + "m"
	}
	return "\x1b[" + off + "m"
}

// plainText renders a plain_text object: taken literally (Slack does not
// decode entities in it), with emoji shortcodes shown when t.Emoji is set.
func (r *renderer) plainText(t kitText) string {
	s := t.Text
	if !t.Emoji || !strings.Contains(s, ":") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == ':' {
			if name, n := shortcode(s[i:]); n > 0 {
				if e, ok := emoji[name]; ok {
					b.WriteString(e)
					i += n
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
