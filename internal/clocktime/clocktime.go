// Package clocktime holds the two kinds of wall-clock time people choose:
// a time of day ("09:00", [Time]) and a weekly slot ("mon 09:00",
// [Weekly]). Each is parsed once, where text comes in (configuration,
// the store's rows, what people type or pick in Slack), and passed typed
// from there: nothing downstream reads "HH:MM" again, so no two places
// can disagree about what a time is.
//
// Both are local times: the zone is the reader's, given where the value
// is placed on a calendar ([Time.On], [Weekly.Slot]), never kept in it.
package clocktime

import (
	"fmt"
	"strings"
	"time"
)

// Time is a time of day, minute precision, 00:00 to 23:59. The zero
// value is "not chosen" ([Time.IsZero]), distinct from midnight, so a
// struct field of this type can mean "the default" without a pointer.
type Time struct {
	// set+minutes: the zero Time is unset, Of(0, 0) is midnight.
	set     bool
	minutes int16
}

// Of is the time h:m. It panics when h is not 0 to 23 or m not 0 to 59:
// it is for constants in code; text goes through [Parse].
func Of(h, m int) Time {
	if h < 0 || h > 23 || m < 0 || m > 59 {
		panic(fmt.Sprintf("clocktime.Of(%d, %d): out of range", h, m))
	}
	return Time{set: true, minutes: int16(h*60 + m)}
}

// Parse reads a 24-hour time of day, "09:00" or "9:00", surrounding
// spaces ignored. Errors: one line saying what is wrong, quoting s, fit
// to show a person after a short lead-in.
func Parse(s string) (Time, error) {
	t := strings.TrimSpace(s)
	hh, mm, ok := strings.Cut(t, ":")
	if ok && len(hh) <= 2 && len(mm) == 2 {
		h, hOK := number(hh)
		m, mOK := number(mm)
		if hOK && mOK && h <= 23 && m <= 59 {
			return Of(h, m), nil
		}
	}
	return Time{}, fmt.Errorf("%q is not a time of day such as 09:00 (HH:MM, 00:00 to 23:59)", s)
}

// number reads s, one or more ASCII digits; strconv.Atoi would also
// take "+9" and "-0". Parse passes at most two digits.
func number(s string) (n int, ok bool) {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, s != ""
}

// IsZero reports whether t is the zero Time, "not chosen".
func (t Time) IsZero() bool { return !t.set }

// Or is t, or def when t is not chosen.
func (t Time) Or(def Time) Time {
	if t.IsZero() {
		return def
	}
	return t
}

// Hour is t's hour, 0 to 23 (0 for the zero Time).
func (t Time) Hour() int { return int(t.minutes) / 60 }

// Minute is t's minute, 0 to 59.
func (t Time) Minute() int { return int(t.minutes) % 60 }

// String is "09:00", always two digits each; "" for the zero Time.
func (t Time) String() string {
	if t.IsZero() {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", t.Hour(), t.Minute())
}

// On is t on the local date of day, in day's location. Wall-clock time:
// on a day when daylight saving skips t, time.Date picks an instant an
// hour either side, as its documentation allows.
func (t Time) On(day time.Time) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, day.Location())
}

// Weekly is a weekly slot: a weekday and a time of day. The zero value
// is off.
type Weekly struct {
	On  bool
	Day time.Weekday
	At  Time
}

// weekdays are the days' first three letters, as ParseWeekly reads and
// String writes them.
var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// ParseDay reads a day of the week: its first three letters or more of
// its name, any case ("mon", "Monday", "tues").
func ParseDay(s string) (time.Weekday, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 3 {
		return 0, false
	}
	day, ok := weekdays[s[:3]]
	return day, ok && strings.HasPrefix(strings.ToLower(day.String()), s)
}

// ParseWeekly reads "off" or a day and a 24-hour time, such as "mon
// 09:00" or "Friday 9:30" (the day as [ParseDay] reads it, the time as
// [Parse]). Errors: a one-line description of what is wrong.
func ParseWeekly(s string) (Weekly, error) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 1 && f[0] == "off" {
		return Weekly{}, nil
	}
	if len(f) != 2 {
		return Weekly{}, fmt.Errorf("%q: want a day and a time like \"mon 09:00\", or \"off\"", s)
	}
	day, ok := ParseDay(f[0])
	if !ok {
		return Weekly{}, fmt.Errorf("%q: %q is not a day of the week", s, f[0])
	}
	at, err := Parse(f[1])
	if err != nil {
		return Weekly{}, fmt.Errorf("%q: %q is not a time like 09:00", s, f[1])
	}
	return Weekly{On: true, Day: day, At: at}, nil
}

// String is "mon 09:00", or "off".
func (w Weekly) String() string {
	if !w.On {
		return "off"
	}
	return strings.ToLower(w.Day.String()[:3]) + " " + w.At.String()
}

// Slot is the latest slot of w at or before now, in zone. Wall-clock
// time: across a daylight-saving change the slot stays at its local time
// (time.Date normalises a time the change skips). The zero Time is
// midnight here.
func (w Weekly) Slot(now time.Time, zone *time.Location) time.Time {
	local := now.In(zone)
	back := (int(local.Weekday()) - int(w.Day) + 7) % 7
	y, mo, d := local.Date()
	slot := time.Date(y, mo, d-back, w.At.Hour(), w.At.Minute(), 0, 0, zone)
	if slot.After(now) {
		slot = time.Date(y, mo, d-back-7, w.At.Hour(), w.At.Minute(), 0, 0, zone)
	}
	return slot
}
