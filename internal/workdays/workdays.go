// Package workdays knows the organisation's working days: which local
// days are closed (REMIND_HOLIDAYS: dates, and iCalendar files of closure
// days read from a path or a URL) and whether weekends count
// (REMIND_SKIP_WEEKENDS). The reminders skip a closed day; "next working
// day" (a snooze) skips them all.
//
// A holiday is a calendar date, the same date in every zone: 25 December
// is a holiday from each person's own midnight to their own next one.
package workdays

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Calendar is the organisation's closed days. The zero value has no
// holidays and works every day. Copies share their holidays (Add).
type Calendar struct {
	// SkipWeekends closes Saturday and Sunday (REMIND_SKIP_WEEKENDS).
	SkipWeekends bool
	holidays     *days
}

// days are a calendar's holidays, YYYY-MM-DD; Add may write while others
// read.
type days struct {
	mu  sync.RWMutex
	set map[string]bool
}

func newDays() *days { return &days{set: map[string]bool{}} }

// Holiday reports whether day's local date is a holiday.
func (c Calendar) Holiday(day time.Time) bool {
	if c.holidays == nil {
		return false
	}
	c.holidays.mu.RLock()
	defer c.holidays.mu.RUnlock()
	return c.holidays.set[day.Format(time.DateOnly)]
}

// Add makes day (YYYY-MM-DD) a holiday in c and in every copy of it, while
// they are read: the demo's `holiday` command closes a day for the bot and
// the reminders alike. Errors: a day that is not a date; a zero Calendar,
// which has nowhere to keep one (Load one, even from "").
func (c Calendar) Add(day string) error {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return fmt.Errorf("%q is not a date (YYYY-MM-DD)", day)
	}
	if c.holidays == nil {
		return fmt.Errorf("add %s: the calendar was not loaded", day)
	}
	c.holidays.mu.Lock()
	defer c.holidays.mu.Unlock()
	c.holidays.set[d.Format(time.DateOnly)] = true
	return nil
}

// Working reports whether day's local date is a working day: not a
// holiday, and not a weekend when weekends are skipped.
func (c Calendar) Working(day time.Time) bool {
	if wd := day.Weekday(); c.SkipWeekends && (wd == time.Saturday || wd == time.Sunday) {
		return false
	}
	return !c.Holiday(day)
}

// NextWorking is the first working day after day's local date, at local
// midnight in day's location. A calendar closed for more than a year
// (a file that lists every day) gives the day a year on.
func (c Calendar) NextWorking(day time.Time) time.Time {
	y, m, d := day.Date()
	for i := 1; i <= 366; i++ {
		next := time.Date(y, m, d+i, 0, 0, 0, 0, day.Location())
		if c.Working(next) {
			return next
		}
	}
	return time.Date(y, m, d+366, 0, 0, 0, 0, day.Location())
}

// Next is up to n holidays on or after from's date, oldest first
// (YYYY-MM-DD), for doctor.
func (c Calendar) Next(from time.Time, n int) []string {
	if c.holidays == nil {
		return nil
	}
	c.holidays.mu.RLock()
	defer c.holidays.mu.RUnlock()
	today := from.Format(time.DateOnly)
	var out []string
	for d := range c.holidays.set {
		if d >= today {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out[:min(n, len(out))]
}

// Len is how many holidays the calendar holds.
func (c Calendar) Len() int {
	if c.holidays == nil {
		return 0
	}
	c.holidays.mu.RLock()
	defer c.holidays.mu.RUnlock()
	return len(c.holidays.set)
}

// maxFile caps an iCalendar file read: a country's closure days for
// years are a few kilobytes.
const maxFile = 1 << 20

// maxSpan caps one event's days: a "closure" longer than this is a
// mistake in the file, not a holiday.
const maxSpan = 60

// Getter fetches a URL; *http.Client implements it.
type Getter interface {
	Do(req *http.Request) (*http.Response, error)
}

var dateLike = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}$`)

// Load reads REMIND_HOLIDAYS: a comma-separated list whose entries are
// dates (2026-12-25), paths of iCalendar files, or http(s) URLs of them,
// fetched now with get (the process reads the file at start, never at
// build). Errors: the first entry that could not be read, named with why
// ("REMIND_HOLIDAYS" is the caller's to add).
func Load(ctx context.Context, spec string, get Getter) (Calendar, error) {
	c := Calendar{holidays: newDays()}
	for entry := range strings.SplitSeq(spec, ",") {
		entry = strings.TrimSpace(entry)
		var err error
		switch {
		case entry == "":
			continue
		case dateLike.MatchString(entry):
			var d time.Time
			if d, err = time.Parse(time.DateOnly, entry); err != nil {
				return Calendar{}, fmt.Errorf("entry %q is not a date (YYYY-MM-DD)", entry)
			}
			c.holidays.set[d.Format(time.DateOnly)] = true
		case strings.HasPrefix(entry, "http://") || strings.HasPrefix(entry, "https://"):
			err = c.fetch(ctx, entry, get)
		case strings.Contains(entry, "/") || strings.HasSuffix(strings.ToLower(entry), ".ics"):
			err = c.readFile(entry)
		default:
			return Calendar{}, fmt.Errorf("entry %q is not a date (YYYY-MM-DD), a path or an http(s) URL of an iCalendar file", entry)
		}
		if err != nil {
			return Calendar{}, fmt.Errorf("entry %q: %w", entry, err)
		}
	}
	return c, nil
}

func (c Calendar) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read the iCalendar file: %w", err)
	}
	defer f.Close()
	return c.parse(io.LimitReader(f, maxFile))
}

func (c Calendar) fetch(ctx context.Context, url string, get Getter) error {
	if get == nil {
		get = &http.Client{Timeout: 20 * time.Second}
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	resp, err := get.Do(req)
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch: the server answered %s", resp.Status)
	}
	return c.parse(io.LimitReader(resp.Body, maxFile))
}

// Parse reads an iCalendar file (RFC 5545) of closure days: each VEVENT's
// DTSTART to DTEND (exclusive; one day without one) is closed, by date,
// whatever its time or zone. Recurrence rules are not expanded: a file
// of holidays lists each year's. Errors: a line that is not iCalendar,
// or an event without a date, named by its line number.
func Parse(r io.Reader) (Calendar, error) {
	c := Calendar{holidays: newDays()}
	return c, c.parse(r)
}

func (c Calendar) parse(r io.Reader) error {
	lines, err := unfold(r)
	if err != nil {
		return err
	}
	if len(lines) == 0 || !strings.EqualFold(lines[0].text, "BEGIN:VCALENDAR") {
		return fmt.Errorf("not an iCalendar file (it does not start with BEGIN:VCALENDAR)")
	}
	var in bool
	var start, end time.Time
	var startLine int
	for _, l := range lines {
		name, value, ok := property(l.text)
		if !ok {
			return fmt.Errorf("line %d is not an iCalendar property", l.n)
		}
		switch {
		case name == "BEGIN" && strings.EqualFold(value, "VEVENT"):
			in, start, end, startLine = true, time.Time{}, time.Time{}, l.n
		case name == "END" && strings.EqualFold(value, "VEVENT"):
			if start.IsZero() {
				return fmt.Errorf("the event at line %d has no DTSTART date", startLine)
			}
			if end.IsZero() || !end.After(start) {
				end = start.AddDate(0, 0, 1)
			}
			for d, i := start, 0; d.Before(end) && i < maxSpan; d, i = d.AddDate(0, 0, 1), i+1 {
				c.holidays.set[d.Format(time.DateOnly)] = true
			}
			in = false
		case in && (name == "DTSTART" || name == "DTEND"):
			d, err := icsDate(value)
			if err != nil {
				return fmt.Errorf("line %d: %w", l.n, err)
			}
			if name == "DTSTART" {
				start = d
			} else {
				end = d
			}
		}
	}
	return nil
}

type line struct {
	n    int
	text string
}

// unfold joins RFC 5545's folded lines (a line starting with a space or
// a tab continues the one before) and drops blank ones.
func unfold(r io.Reader) ([]line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxFile)
	var out []line
	n := 0
	for sc.Scan() {
		n++
		t := strings.TrimRight(sc.Text(), "\r")
		if (strings.HasPrefix(t, " ") || strings.HasPrefix(t, "\t")) && len(out) > 0 {
			out[len(out)-1].text += t[1:]
			continue
		}
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, line{n, t})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the iCalendar file: %w", err)
	}
	return out, nil
}

// property splits "DTSTART;VALUE=DATE:20261225" into its upper-cased
// name ("DTSTART") and value ("20261225"), parameters dropped.
func property(s string) (name, value string, ok bool) {
	head, value, ok := strings.Cut(s, ":")
	if !ok {
		return "", "", false
	}
	name, _, _ = strings.Cut(head, ";")
	return strings.ToUpper(strings.TrimSpace(name)), strings.TrimSpace(value), name != ""
}

// icsDate reads the date of a DATE (20261225) or DATE-TIME
// (20261225T000000Z) value.
func icsDate(v string) (time.Time, error) {
	if len(v) < 8 {
		return time.Time{}, fmt.Errorf("%q is not an iCalendar date", v)
	}
	d, err := time.Parse("20060102", v[:8])
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an iCalendar date", v)
	}
	return d, nil
}
