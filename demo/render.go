package demo

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// render.go turns what the bot sends Slack — Block Kit JSON with mrkdwn in
// it — into text for a terminal, the way a Slack client would show it:
// formatting applied, mentions and dates resolved, links spelled out, and
// every button and menu option numbered so the console can press it.

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
	"bust_in_silhouette":     "👤",
	"hourglass":              "⌛",
	"hourglass_flowing_sand": "⏳",
	"information_source":     "ℹ️",
	"lock":                   "🔒",
	"mag":                    "🔍",
	"page_facing_up":         "📄",
	"tada":                   "🎉",
	"thinking_face":          "🤔",
	"warning":                "⚠️",
	"wave":                   "👋",
	"white_check_mark":       "✅",
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
// decode entities in it), with emoji shortcodes shown when emoji is set.
func (r *renderer) plainText(s string, withEmoji bool) string {
	if !withEmoji || !strings.Contains(s, ":") {
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

// sequence renders the inside of a <…> sequence in text shown in colour
// fg.
func (r *renderer) sequence(inner, fg string) string {
	head, label, hasLabel := strings.Cut(inner, "|")
	label = decodeEntities(label)
	switch {
	case strings.HasPrefix(head, "@"):
		id := head[1:]
		name := r.handles[id]
		if name == "" {
			name = strings.TrimPrefix(label, "@")
		}
		if name == "" {
			name = id
		}
		return r.p.sgr(fgBlue, fg, "@"+name)
	case strings.HasPrefix(head, "#"):
		id := head[1:]
		name := r.channels[id]
		if name == "" {
			name = label
		}
		if name == "" {
			name = id
		}
		return r.p.sgr(fgBlue, fg, "#"+name)
	case strings.HasPrefix(head, "!date^"):
		return r.date(head, label)
	case head == "!here", head == "!channel", head == "!everyone":
		return r.p.sgr(fgBlue, fg, "@"+head[1:])
	case strings.HasPrefix(head, "!subteam^"):
		if label == "" {
			label = "@" + strings.TrimPrefix(head, "!subteam^")
		}
		return r.p.sgr(fgBlue, fg, label)
	case strings.HasPrefix(head, "!"):
		return label
	}
	u := decodeEntities(head)
	if !hasLabel || label == "" || label == u {
		return r.p.underline(u)
	}
	return r.p.underline(label) + " (" + u + ")"
}

// date renders "!date^UNIX^FORMAT[^LINK]" as Slack does for the reader:
// the format's tokens replaced by the date in the reader's zone. A
// sequence that does not parse, or uses a token Slack does not have, shows
// its fallback, as an old client would.
func (r *renderer) date(head, fallback string) string {
	parts := strings.Split(head, "^")
	if len(parts) < 3 {
		return fallback
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return fallback
	}
	t := time.Unix(sec, 0).In(r.loc)
	now := r.now().In(r.loc)
	out, ok := "", true
	format := parts[2]
	for format != "" {
		open := strings.IndexByte(format, '{')
		if open < 0 {
			out += format
			break
		}
		end := strings.IndexByte(format[open:], '}')
		if end < 0 {
			out += format
			break
		}
		var s string
		s, ok = dateToken(format[open+1:open+end], t, now)
		if !ok {
			return fallback
		}
		out += format[:open] + s
		format = format[open+end+1:]
	}
	return out
}

// dateToken renders one token of Slack's date formatting.
func dateToken(tok string, t, now time.Time) (string, bool) {
	pretty := func(layout func(time.Time) string) string {
		switch days := calendarDays(now, t); days {
		case 0:
			return "today"
		case -1:
			return "yesterday"
		case 1:
			return "tomorrow"
		}
		return layout(t)
	}
	short := func(t time.Time) string { return t.Format("Jan 2, 2006") }
	long := func(t time.Time) string { return t.Format("January ") + ordinal(t.Day()) + t.Format(", 2006") }
	full := func(t time.Time) string { return t.Format("Monday, ") + long(t) }
	switch tok {
	case "date_num":
		return t.Format("2006-01-02"), true
	case "date":
		return long(t), true
	case "date_short":
		return short(t), true
	case "date_long":
		return full(t), true
	case "date_pretty":
		return pretty(long), true
	case "date_short_pretty":
		return pretty(short), true
	case "date_long_pretty":
		return pretty(full), true
	case "time":
		return t.Format("15:04"), true
	case "time_secs":
		return t.Format("15:04:05"), true
	case "ago":
		return ago(now, t), true
	}
	return "", false
}

// calendarDays is the number of calendar days from a to b in a's zone.
func calendarDays(a, b time.Time) int {
	ay, am, ad := a.Date()
	by, bm, bd := b.In(a.Location()).Date()
	da := time.Date(ay, am, ad, 12, 0, 0, 0, time.UTC)
	db := time.Date(by, bm, bd, 12, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Round(24*time.Hour) / (24 * time.Hour))
}

func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// ago is "3 days ago" or "in 2 hours".
func ago(now, t time.Time) string {
	d := t.Sub(now)
	future := d > 0
	if d < 0 {
		d = -d
	}
	var n int
	var unit string
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		n, unit = int(d/time.Minute), "minute"
	case d < 24*time.Hour:
		n, unit = int(d/time.Hour), "hour"
	case d < 30*24*time.Hour:
		n, unit = int(d/(24*time.Hour)), "day"
	case d < 365*24*time.Hour:
		n, unit = int(d/(30*24*time.Hour)), "month"
	default:
		n, unit = int(d/(365*24*time.Hour)), "year"
	}
	s := fmt.Sprintf("%d %s", n, unit)
	if n != 1 {
		s += "s"
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// control is something on a message that can be pressed: a button, or one
// option of an overflow menu or a select.
type control struct {
	Label   string
	BlockID string
	// Element is the element's JSON as the message holds it; Slack sends
	// parts of it back in the click.
	Element json.RawMessage
	// Option is the chosen option's value, for a menu.
	Option string
	// URL is where a link button takes the browser.
	URL string
}

// kitBlock is a Block Kit block, with the fields of every type recordsbot
// sends. Elements stay raw: a context element's "text" is a string, an
// interactive element's an object.
type kitBlock struct {
	Type      string            `json:"type"`
	BlockID   string            `json:"block_id"`
	Text      *kitText          `json:"text"`
	Fields    []kitText         `json:"fields"`
	Accessory json.RawMessage   `json:"accessory"`
	Elements  []json.RawMessage `json:"elements"`
	ImageURL  string            `json:"image_url"`
	AltText   string            `json:"alt_text"`
}

// kitText is a text object.
type kitText struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji bool   `json:"emoji"`
}

// kitElement is an interactive element, or an element of a context block.
type kitElement struct {
	Type     string          `json:"type"`
	Text     json.RawMessage `json:"text"`
	URL      string          `json:"url"`
	Style    string          `json:"style"`
	AltText  string          `json:"alt_text"`
	ImageURL string          `json:"image_url"`
	Options  []struct {
		Text  kitText `json:"text"`
		Value string  `json:"value"`
	} `json:"options"`
}

// text renders a text object.
func (r *renderer) text(t kitText, fg string) string {
	if t.Type == "mrkdwn" {
		return r.mrkdwn(t.Text, fg)
	}
	return r.plainText(t.Text, t.Emoji)
}

// blocks renders a list of blocks as lines, numbering each control with
// press, which records it and returns its number.
func (r *renderer) blocks(raw []json.RawMessage, press func(control) int) []string {
	var lines []string
	for i, rb := range raw {
		var b kitBlock
		if err := json.Unmarshal(rb, &b); err != nil {
			lines = append(lines, r.p.grey("[a block that is not JSON]"))
			continue
		}
		switch b.Type {
		case "header", "section", "divider", "image":
			// Slack leaves space above these; actions and context blocks
			// sit right under the block they belong to.
			if i > 0 {
				lines = append(lines, "")
			}
		}
		switch b.Type {
		case "header":
			title := ""
			if b.Text != nil {
				title = r.plainText(b.Text.Text, b.Text.Emoji)
			}
			if r.p.on {
				lines = append(lines, r.p.bold(title))
			} else {
				lines = append(lines, title, strings.Repeat("─", max(visibleWidth(title), 3)))
			}
		case "section":
			if b.Text != nil {
				lines = append(lines, strings.Split(r.text(*b.Text, fgDefault), "\n")...)
			}
			lines = append(lines, r.fields(b.Fields)...)
			if len(b.Accessory) > 0 {
				lines = append(lines, r.controls(b.BlockID, []json.RawMessage{b.Accessory}, press))
			}
		case "context":
			var parts []string
			for _, e := range b.Elements {
				var el kitElement
				if json.Unmarshal(e, &el) != nil {
					continue
				}
				switch el.Type {
				case "mrkdwn", "plain_text":
					var t kitText
					_ = json.Unmarshal(e, &t) // e decoded as an element just above
					parts = append(parts, r.text(t, fgGrey))
				case "image":
					parts = append(parts, "["+el.AltText+"]")
				}
			}
			for _, l := range strings.Split(strings.Join(parts, "  "), "\n") {
				lines = append(lines, r.p.grey(l))
			}
		case "actions":
			lines = append(lines, r.controls(b.BlockID, b.Elements, press))
		case "divider":
			lines = append(lines, r.p.grey(strings.Repeat("─", 40)))
		case "image":
			lines = append(lines, fmt.Sprintf("[image: %s] %s", b.AltText, b.ImageURL))
		default:
			lines = append(lines, r.p.grey("["+b.Type+" block, not shown here]"))
		}
	}
	return lines
}

// fields lays a section's fields out in two columns, as Slack does.
func (r *renderer) fields(fields []kitText) []string {
	if len(fields) == 0 {
		return nil
	}
	cells := make([][]string, len(fields))
	left := 0
	for i, f := range fields {
		cells[i] = strings.Split(r.text(f, fgDefault), "\n")
		if i%2 == 0 {
			for _, l := range cells[i] {
				left = max(left, visibleWidth(l))
			}
		}
	}
	const gap, widest = 4, 40
	var lines []string
	for i := 0; i < len(cells); i += 2 {
		if i+1 == len(cells) || left > widest {
			lines = append(lines, cells[i]...)
			if i+1 < len(cells) {
				lines = append(lines, cells[i+1]...)
			}
			continue
		}
		a, b := cells[i], cells[i+1]
		for k := range max(len(a), len(b)) {
			var l, rt string
			if k < len(a) {
				l = a[k]
			}
			if k < len(b) {
				rt = b[k]
			}
			lines = append(lines, strings.TrimRight(padRight(l, left+gap)+rt, " "))
		}
	}
	return lines
}

// controls renders interactive elements as one line of numbered controls:
// "[1] Complete  [2] Start  [3] ⋯ Cancel". A link button shows where it
// goes; a menu shows each option as a control of its own.
func (r *renderer) controls(blockID string, elements []json.RawMessage, press func(control) int) string {
	var parts []string
	for _, raw := range elements {
		var el kitElement
		if err := json.Unmarshal(raw, &el); err != nil {
			continue
		}
		switch {
		case len(el.Options) > 0:
			for _, o := range el.Options {
				label := r.plainText(o.Text.Text, o.Text.Emoji)
				n := press(control{Label: label, BlockID: blockID, Element: raw, Option: o.Value})
				parts = append(parts, r.number(n)+" ⋯ "+label)
			}
		case el.Type == "button":
			var t kitText
			_ = json.Unmarshal(el.Text, &t) // a button without text still gets a number
			label := r.plainText(t.Text, t.Emoji)
			n := press(control{Label: label, BlockID: blockID, Element: raw, URL: el.URL})
			shown := label
			switch el.Style {
			case "primary":
				shown = r.p.fg(fgGreen, label)
			case "danger":
				shown = r.p.fg(fgRed, label)
			}
			if el.URL != "" {
				shown = r.p.underline(label) + " (" + el.URL + ")"
			}
			parts = append(parts, r.number(n)+" "+shown)
		default:
			parts = append(parts, r.p.grey("["+el.Type+"]"))
		}
	}
	return "  " + strings.Join(parts, "   ")
}

func (r *renderer) number(n int) string {
	return r.p.bold(r.p.fg(fgYellow, "["+strconv.Itoa(n)+"]"))
}

// attachments renders legacy attachments (an unfurl is one): their blocks,
// or their text, behind a bar as Slack shows them.
func (r *renderer) attachments(raw json.RawMessage, press func(control) int) []string {
	var atts []struct {
		Blocks   []json.RawMessage `json:"blocks"`
		Text     string            `json:"text"`
		Fallback string            `json:"fallback"`
	}
	if err := json.Unmarshal(raw, &atts); err != nil {
		return nil
	}
	var lines []string
	for _, a := range atts {
		var inner []string
		switch {
		case len(a.Blocks) > 0:
			inner = r.blocks(a.Blocks, press)
		case a.Text != "":
			inner = strings.Split(r.mrkdwn(a.Text, fgDefault), "\n")
		default:
			inner = []string{a.Fallback}
		}
		for _, l := range inner {
			lines = append(lines, r.p.grey("▌")+" "+l)
		}
	}
	return lines
}

// blockKitBuilderURL links to Slack's Block Kit Builder showing payload, a
// JSON object such as {"blocks":[…]} or a Home view. The builder reads the
// payload from the URL fragment, percent-encoded.
func blockKitBuilderURL(payload []byte) string {
	return "https://app.slack.com/block-kit-builder/#" + url.PathEscape(string(payload))
}
