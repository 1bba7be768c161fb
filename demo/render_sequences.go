package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"
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
// the format's tokens replaced by the date in the reader's zone and
// language. A sequence that does not parse, or uses a token Slack does
// not have, shows its fallback, as an old client would.
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
		s, ok = dateToken(r.lang, format[open+1:open+end], t, now)
		if !ok {
			return fallback
		}
		out += format[:open] + s
		format = format[open+end+1:]
	}
	return out
}

// dateToken renders one token of Slack's date formatting in l, the
// reader's language: Slack draws a date token in the viewer's locale
// ("{date_slash}: … subject to locale preferences",
// https://docs.slack.dev/reference/block-kit/block-elements/date-element),
// so a French reader sees "hier" where an English one sees "yesterday".
// The words and orders are the catalogue's (internal/lang), the ones the
// bot writes its own dates and fallbacks in. {ago} stays English: the bot
// never sends it.
func dateToken(l lang.Lang, tok string, t, now time.Time) (string, bool) {
	pretty := func(layout func(time.Time) string) string {
		if day, ok := l.RelativeDay(t, now); ok {
			return day
		}
		return layout(t)
	}
	switch tok {
	case "date_num":
		return t.Format("2006-01-02"), true
	case "date":
		return l.LongDate(t), true
	case "date_short":
		return l.Date(t), true
	case "date_long":
		return l.FullDate(t), true
	case "date_pretty":
		return pretty(l.LongDate), true
	case "date_short_pretty":
		return pretty(l.Date), true
	case "date_long_pretty":
		return pretty(l.FullDate), true
	case "time":
		return t.Format("15:04"), true
	case "time_secs":
		return t.Format("15:04:05"), true
	case "ago":
		return ago(now, t), true
	}
	return "", false
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
