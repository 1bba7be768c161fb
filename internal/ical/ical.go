// Package ical writes iCalendar (RFC 5545) calendars of events: what a
// calendar application subscribes to. It writes and never parses; the
// tests check its output with parsers it shares nothing with.
//
// What the RFC asks, and where it is kept:
//
//   - VCALENDAR with VERSION:2.0 and PRODID (§3.7.3, §3.7.4);
//   - each VEVENT with UID and DTSTAMP (§3.6.1), SEQUENCE (§3.8.7.4);
//   - a timed DTSTART in UTC ("20261118T170000Z", §3.3.5 form #2), so no
//     VTIMEZONE is needed; a date-only one as VALUE=DATE (§3.3.4) with an
//     exclusive DTEND the next day;
//   - TEXT values escaped (§3.3.11): backslash, semicolon, comma and line
//     breaks; control characters the grammar forbids are dropped;
//   - content lines folded at 75 octets, never inside a UTF-8 sequence,
//     with CRLF and one space (§3.1), and every line ended by CRLF.
package ical

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/internal/invisible"
)

// MediaType is the Content-Type of a calendar (RFC 5545 §8.1).
const MediaType = "text/calendar; charset=utf-8"

// maxLine is the longest content line in octets, CRLF excluded (§3.1).
const maxLine = 75

// Calendar is one iCalendar object.
type Calendar struct {
	// ProdID names the product that wrote the calendar (PRODID, required),
	// such as "-//recordsbot//Meetings//EN".
	ProdID string
	// Name and Description are the calendar's name and description, as
	// calendar applications show them (NAME and DESCRIPTION, RFC 7986
	// §5.1, §5.2; X-WR-CALNAME, which older clients read, too). Empty:
	// none.
	Name, Description string
	// RefreshInterval is how often a subscriber should poll
	// (REFRESH-INTERVAL, RFC 7986 §5.7; X-PUBLISHED-TTL too). Zero: not
	// said.
	RefreshInterval time.Duration
	Events          []Event
}

// Event is one VEVENT.
type Event struct {
	// UID identifies the event for ever (required): the same meeting or
	// action has the same UID in every feed and every request.
	UID string
	// Sequence is the event's revision (SEQUENCE): raised when its date or
	// title changes, so clients replace their copy.
	Sequence int
	// Stamp is DTSTAMP: with no METHOD in the calendar, when the event's
	// information last changed (§3.8.7.2). Written in UTC.
	Stamp time.Time
	// Start is DTSTART. When AllDay, only its date counts (year, month and
	// day as t holds them, whatever its zone); otherwise it is written in
	// UTC.
	Start  time.Time
	AllDay bool
	// Summary, Description and Location are TEXT; empty ones are left out.
	Summary, Description, Location string
	// URL is the event's page (URL, a URI); empty: none.
	URL string
	// Categories are CATEGORIES values; empty: none.
	Categories []string
}

// Encode returns c as an iCalendar stream: CRLF line ends, lines folded.
func (c *Calendar) Encode() []byte {
	w := &writer{}
	w.line("BEGIN", "", "VCALENDAR")
	w.line("VERSION", "", "2.0")
	w.line("PRODID", "", Text(c.ProdID))
	w.line("CALSCALE", "", "GREGORIAN")
	if c.Name != "" {
		w.line("NAME", "", Text(c.Name))
		w.line("X-WR-CALNAME", "", Text(c.Name))
	}
	if c.Description != "" {
		w.line("DESCRIPTION", "", Text(c.Description))
		w.line("X-WR-CALDESC", "", Text(c.Description))
	}
	if c.RefreshInterval > 0 {
		d := duration(c.RefreshInterval)
		w.line("REFRESH-INTERVAL", ";VALUE=DURATION", d)
		w.line("X-PUBLISHED-TTL", "", d)
	}
	for i := range c.Events {
		c.Events[i].encode(w)
	}
	w.line("END", "", "VCALENDAR")
	return w.buf.Bytes()
}

func (e *Event) encode(w *writer) {
	w.line("BEGIN", "", "VEVENT")
	w.line("UID", "", Text(e.UID))
	w.line("DTSTAMP", "", utc(e.Stamp))
	w.line("SEQUENCE", "", strconv.Itoa(max(e.Sequence, 0)))
	if e.AllDay {
		y, m, d := e.Start.Date()
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		w.line("DTSTART", ";VALUE=DATE", day.Format("20060102"))
		w.line("DTEND", ";VALUE=DATE", day.AddDate(0, 0, 1).Format("20060102"))
	} else {
		w.line("DTSTART", "", utc(e.Start))
	}
	if e.Summary != "" {
		w.line("SUMMARY", "", Text(e.Summary))
	}
	if e.Location != "" {
		w.line("LOCATION", "", Text(e.Location))
	}
	if e.Description != "" {
		w.line("DESCRIPTION", "", Text(e.Description))
	}
	if e.URL != "" {
		// A URI value is not TEXT: it is written as it is, less any
		// character that would end the line.
		w.line("URL", "", dropControls(e.URL))
	}
	if len(e.Categories) > 0 {
		cs := make([]string, 0, len(e.Categories))
		for _, c := range e.Categories {
			if c = Text(c); c != "" {
				cs = append(cs, c)
			}
		}
		if len(cs) > 0 {
			w.line("CATEGORIES", "", strings.Join(cs, ","))
		}
	}
	w.line("END", "", "VEVENT")
}

// utc is t as a UTC DATE-TIME ("20261118T170000Z").
func utc(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// duration is d as a DURATION value in whole seconds or larger units
// ("PT1H", "P1D").
func duration(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s%86400 == 0:
		return "P" + strconv.FormatInt(s/86400, 10) + "D"
	case s%3600 == 0:
		return "PT" + strconv.FormatInt(s/3600, 10) + "H"
	case s%60 == 0:
		return "PT" + strconv.FormatInt(s/60, 10) + "M"
	}
	return "PT" + strconv.FormatInt(s, 10) + "S"
}

// Text escapes s as a TEXT value (§3.3.11): "\\" "\;" "\," and "\n" for
// any line break (CRLF, CR or LF); other control characters, which TEXT
// may not hold, and invalid UTF-8 are dropped. It is the format's one
// cleaning rule: the bidi, zero-width and other line-break characters
// are removed first (package invisible), as on every output.
func Text(s string) string {
	s = invisible.Strip(strings.ToValidUTF8(s, ""))
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\r':
			b.WriteString(`\n`)
			if i+1 < len(s) && s[i+1] == '\n' {
				size++
			}
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			// CONTROL is not TSAFE-CHAR
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// dropControls removes control characters, invalid UTF-8 and what package
// invisible strips from a value that is not TEXT.
func dropControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || invisible.Is(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// writer builds content lines.
type writer struct{ buf bytes.Buffer }

// line writes "name params:value" folded, ended by CRLF; value is already
// escaped.
func (w *writer) line(name, params, value string) {
	Fold(&w.buf, name+params+":"+value)
}

// Fold writes line to b as content lines of at most 75 octets each, CRLF
// excluded: a continuation starts with one space, which counts, and a line
// is never broken inside a UTF-8 sequence. Every line ends with CRLF.
func Fold(b *bytes.Buffer, line string) {
	limit := maxLine
	for len(line) > limit {
		cut := limit
		for cut > limit-utf8.UTFMax && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b.WriteString(line[:cut])
		b.WriteString("\r\n ")
		line = line[cut:]
		limit = maxLine - 1 // the leading space is an octet of the line
	}
	b.WriteString(line)
	b.WriteString("\r\n")
}
