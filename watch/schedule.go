package watch

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is a weekly slot: a weekday and a local time. The zero value
// is off.
type Schedule struct {
	On     bool
	Day    time.Weekday
	Hour   int
	Minute int
}

var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// ParseSchedule reads "off" or a day and a 24-hour time, such as
// "mon 09:00" (the day's first three letters or its whole name, any case).
// Errors: a one-line description of what is wrong.
func ParseSchedule(s string) (Schedule, error) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 1 && f[0] == "off" {
		return Schedule{}, nil
	}
	if len(f) != 2 || len(f[0]) < 3 {
		return Schedule{}, fmt.Errorf("%q: want a day and a time like \"mon 09:00\", or \"off\"", s)
	}
	day, ok := weekdays[f[0][:3]]
	if !ok || !strings.HasPrefix(strings.ToLower(day.String()), f[0]) {
		return Schedule{}, fmt.Errorf("%q: %q is not a day of the week", s, f[0])
	}
	hh, mm, ok := strings.Cut(f[1], ":")
	h, herr := strconv.Atoi(hh)
	m, merr := strconv.Atoi(mm)
	if !ok || herr != nil || merr != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(mm) != 2 {
		return Schedule{}, fmt.Errorf("%q: %q is not a time like 09:00", s, f[1])
	}
	return Schedule{On: true, Day: day, Hour: h, Minute: m}, nil
}

// String is "mon 09:00", or "off".
func (s Schedule) String() string {
	if !s.On {
		return "off"
	}
	return fmt.Sprintf("%s %02d:%02d", strings.ToLower(s.Day.String()[:3]), s.Hour, s.Minute)
}

// Slot is the latest slot of s at or before now, in zone. Wall-clock
// time: across a daylight-saving change the slot stays at its local time
// (time.Date normalises a time the change skips).
func (s Schedule) Slot(now time.Time, zone *time.Location) time.Time {
	local := now.In(zone)
	back := (int(local.Weekday()) - int(s.Day) + 7) % 7
	y, mo, d := local.Date()
	slot := time.Date(y, mo, d-back, s.Hour, s.Minute, 0, 0, zone)
	if slot.After(now) {
		slot = time.Date(y, mo, d-back-7, s.Hour, s.Minute, 0, 0, zone)
	}
	return slot
}
