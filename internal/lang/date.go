package lang

import (
	"strconv"
	"strings"
	"time"
)

// Date is t's calendar date as l writes it in text: "Jan 2, 2006",
// "2 janv. 2006", "2. Jan. 2006". The zone is t's own; the caller decides
// which (a date-only deadline is a calendar day in RECORDS_TIMEZONE).
func (l Lang) Date(t time.Time) string {
	return string(l.AppendDate(make([]byte, 0, 24), t))
}

// AppendDate appends Date(t) to dst: every row of every list has a date,
// so it is written into the row's buffer rather than built apart.
func (l Lang) AppendDate(dst []byte, t time.Time) []byte {
	y, m, d := t.Date()
	return appendDate(dst, l.T("date.short"), d, l.T(monthKeys[m-1]), y)
}

// LongDate is t's calendar date with the month spelt out: "January 2,
// 2006", "2 janvier 2006".
func (l Lang) LongDate(t time.Time) string {
	y, m, d := t.Date()
	return string(appendDate(nil, l.T("date.long"), d, l.Month(m), y))
}

// FullDate is t's weekday and calendar date with the month spelt out:
// "Thursday, March 5, 2026", "jeudi 5 mars 2026".
func (l Lang) FullDate(t time.Time) string {
	return l.F("date.full", "weekday", l.Weekday(t.Weekday()), "date", l.LongDate(t))
}

// RelativeDay is "today", "yesterday" or "tomorrow" in l when t falls on
// that calendar day as seen from now, in now's zone (the reader's), as
// Slack's "pretty" date tokens write a near date; ok is false for any
// other day.
func (l Lang) RelativeDay(t, now time.Time) (day string, ok bool) {
	ny, nm, nd := now.Date()
	ty, tm, td := t.In(now.Location()).Date()
	// Noon to noon in UTC: a day is 24 hours whatever now's zone does.
	days := time.Date(ty, tm, td, 12, 0, 0, 0, time.UTC).Sub(time.Date(ny, nm, nd, 12, 0, 0, 0, time.UTC)) / (24 * time.Hour)
	switch days {
	case -1:
		return l.T("date.yesterday"), true
	case 0:
		return l.T("date.today"), true
	case 1:
		return l.T("date.tomorrow"), true
	}
	return "", false
}

// DateTime is t's date and time in UTC as text for readers whose client
// cannot render a Slack date token: "Jan 2, 2006 at 15:04 UTC".
func (l Lang) DateTime(t time.Time) string {
	return string(l.AppendDateTime(make([]byte, 0, 40), t))
}

// AppendDateTime appends DateTime(t) to dst.
func (l Lang) AppendDateTime(dst []byte, t time.Time) []byte {
	u := t.UTC()
	pattern := l.T("date.at")
	for {
		open := strings.IndexByte(pattern, '{')
		end := strings.IndexByte(pattern, '}')
		if open < 0 || end < open {
			break
		}
		dst = append(dst, pattern[:open]...)
		switch pattern[open+1 : end] {
		case "date":
			dst = l.AppendDate(dst, u)
		case "time":
			dst = u.AppendFormat(dst, "15:04 UTC")
		default:
			dst = append(dst, pattern[open:end+1]...)
		}
		pattern = pattern[end+1:]
	}
	return append(dst, pattern...)
}

// SlackDateTime is the format of a Slack date token with a time, in l:
// "{date_short_pretty} at {time}", whose words Slack leaves as they are.
func (l Lang) SlackDateTime() string {
	if int(l) < len(lib.slackDateTimes) {
		return lib.slackDateTimes[l]
	}
	return l.F("date.at", "date", "{date_short_pretty}", "time", "{time}")
}

// appendDate appends pattern with {day}, {month} and {year} filled.
func appendDate(dst []byte, pattern string, day int, month string, year int) []byte {
	for {
		open := strings.IndexByte(pattern, '{')
		end := strings.IndexByte(pattern, '}')
		if open < 0 || end < open {
			break
		}
		dst = append(dst, pattern[:open]...)
		switch pattern[open+1 : end] {
		case "day":
			dst = strconv.AppendInt(dst, int64(day), 10)
		case "month":
			dst = append(dst, month...)
		case "year":
			dst = strconv.AppendInt(dst, int64(year), 10)
		default:
			dst = append(dst, pattern[open:end+1]...)
		}
		pattern = pattern[end+1:]
	}
	return append(dst, pattern...)
}

// WeekdayDate is t's weekday and day of the month, as a short reminder of
// a recent date: "Mon 2 Jan", "lun. 2 janv.".
func (l Lang) WeekdayDate(t time.Time) string {
	_, m, d := t.Date()
	return l.F("date.weekday", "weekday", l.T(weekdayKeys[t.Weekday()]), "day", strconv.Itoa(d), "month", l.T(monthKeys[m-1]))
}

var weekdayKeys = [7]Key{
	"weekday.short.0", "weekday.short.1", "weekday.short.2", "weekday.short.3",
	"weekday.short.4", "weekday.short.5", "weekday.short.6",
}

// Weekday is the day's full name in l, as it reads inside a sentence:
// "Monday", "lundi", "Montag".
func (l Lang) Weekday(d time.Weekday) string {
	if d < time.Sunday || d > time.Saturday {
		return ""
	}
	return l.T(weekdayLongKeys[d])
}

var weekdayLongKeys = [7]Key{
	"weekday.long.0", "weekday.long.1", "weekday.long.2", "weekday.long.3",
	"weekday.long.4", "weekday.long.5", "weekday.long.6",
}

// Month is the month's full name in l: "January", "janvier".
func (l Lang) Month(m time.Month) string {
	if m < time.January || m > time.December {
		return ""
	}
	return l.T(monthLongKeys[m-1])
}

var monthKeys = [12]Key{
	"month.short.1", "month.short.2", "month.short.3", "month.short.4", "month.short.5", "month.short.6",
	"month.short.7", "month.short.8", "month.short.9", "month.short.10", "month.short.11", "month.short.12",
}

var monthLongKeys = [12]Key{
	"month.long.1", "month.long.2", "month.long.3", "month.long.4", "month.long.5", "month.long.6",
	"month.long.7", "month.long.8", "month.long.9", "month.long.10", "month.long.11", "month.long.12",
}
