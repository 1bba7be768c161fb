package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

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
