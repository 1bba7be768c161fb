package lang

import (
	"strconv"
	"time"
)

// Date is t's calendar date as l writes it in text: "Jan 2, 2006",
// "2 janv. 2006", "2. Jan. 2006". The zone is t's own; the caller decides
// which (a date-only deadline is a calendar day in RECORDS_TIMEZONE).
func (l Lang) Date(t time.Time) string {
	y, m, d := t.Date()
	return l.F("date.short", "day", strconv.Itoa(d), "month", l.T(monthKeys[m-1]), "year", strconv.Itoa(y))
}

// LongDate is t's calendar date with the month spelt out: "January 2,
// 2006", "2 janvier 2006".
func (l Lang) LongDate(t time.Time) string {
	y, m, d := t.Date()
	return l.F("date.long", "day", strconv.Itoa(d), "month", l.Month(m), "year", strconv.Itoa(y))
}

// DateTime is t's date and time in UTC as text for readers whose client
// cannot render a Slack date token: "Jan 2, 2006 at 15:04 UTC".
func (l Lang) DateTime(t time.Time) string {
	u := t.UTC()
	return l.F("date.at", "date", l.Date(u), "time", u.Format("15:04")+" UTC")
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
