package apiclient

import "time"

// Time formats, as reported by [Client.Inspect].
const (
	TimeDate         = "YYYY-MM-DD"
	TimeRFC3339      = "RFC 3339"
	TimeRFC3339Space = "RFC 3339 with a space for the T"
	TimeNoZone       = "date and time without a zone (read as UTC)"
	TimeUnknown      = "not a time the client reads"
)

// timeLayouts are the layouts parseTime tries after a bare date, with the
// format each one is reported as.
var timeLayouts = [...]struct{ layout, format string }{
	{time.RFC3339Nano, TimeRFC3339}, // also accepts no fractional seconds
	{"2006-01-02 15:04:05.999999999Z07:00", TimeRFC3339Space},
	{"2006-01-02T15:04:05.999999999", TimeNoZone},
	{"2006-01-02 15:04:05.999999999", TimeNoZone},
	{"2006-01-02T15:04", TimeNoZone},
	{"2006-01-02 15:04", TimeNoZone},
}

// parseTime parses an RFC 3339 timestamp (also with a space for the T, or
// without a zone, read as UTC) or a YYYY-MM-DD date (midnight UTC, hasTime
// false). ok is false for anything else, including an empty b.
func parseTime(b []byte) (t time.Time, hasTime, ok bool) {
	t, hasTime, format := parseTimeFormat(b)
	return t, hasTime, format != TimeUnknown
}

// parseTimeFormat is parseTime that also names the format it recognised
// (TimeUnknown when none).
func parseTimeFormat(b []byte) (t time.Time, hasTime bool, format string) {
	if len(b) == len("2006-01-02") {
		if t, ok := parseDate(b); ok {
			return t, false, TimeDate
		}
		return time.Time{}, false, TimeUnknown
	}
	if len(b) < len("2006-01-02T15:04") || len(b) > 64 {
		return time.Time{}, false, TimeUnknown
	}
	s := string(b)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t, true, l.format
		}
	}
	return time.Time{}, false, TimeUnknown
}

// parseDate parses YYYY-MM-DD without the cost of time.Parse: deadlines are
// usually dates and every record of a page has one.
func parseDate(b []byte) (time.Time, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return time.Time{}, false
	}
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(b[:4])
	mo, ok2 := num(b[5:7])
	d, ok3 := num(b[8:])
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 2026-02-30 normalises into March
		return time.Time{}, false
	}
	return t, true
}
