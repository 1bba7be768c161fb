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
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	neturl "net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/recordsbot/recordsbot/internal/redact"
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
// years are a few kilobytes. A larger file is refused, not cut: cutting
// it would lose the later closure days without a word.
const maxFile = 1 << 20

// maxSpan caps one event's days: a "closure" longer than this is a
// mistake in the file, not a holiday.
const maxSpan = 60

// fetchTimeout bounds fetching one URL: a calendar host that is slow or
// down costs start-up this long at most, then the last good copy is used.
const fetchTimeout = 10 * time.Second

// Getter fetches a URL; *http.Client implements it.
type Getter interface {
	Do(req *http.Request) (*http.Response, error)
}

// Cache keeps the last good copy of each URL's file (the store does), so
// a calendar host that is down, slow or serving something else does not
// lose the organisation's closure days. Errors of either method are only
// warned about.
type Cache interface {
	// HolidayFile is the copy of url's file last put, and when; found
	// is false when there is none.
	HolidayFile(ctx context.Context, url string) (body []byte, at time.Time, found bool, err error)
	// PutHolidayFile keeps body as url's last good copy.
	PutHolidayFile(ctx context.Context, url string, body []byte) error
}

// Loader reads REMIND_HOLIDAYS (Load). Its zero value fetches URLs with
// a client that never follows a redirect to a non-public address, keeps
// no copy, and says nothing of a URL it falls back on.
type Loader struct {
	// Get fetches URLs; nil is SafeClient's.
	Get Getter
	// Cache keeps and gives back each URL's last good copy; nil keeps
	// none.
	Cache Cache
	// Warn hears of a URL that could not be read now: its text shown
	// without credentials, why, and whether (and from when) its last good
	// copy was used instead. nil says nothing.
	Warn func(url string, err error, usedCopyFrom time.Time)
	// Timeout bounds fetching one URL; 0 is 10 s.
	Timeout time.Duration
	// Background, for a long-running process (serve): a URL's last good
	// copy is read now and the URL fetched in the background, its days
	// added to the calendar once read, so a slow host does not hold up
	// start-up at all. Without it (remind, doctor) Load waits for it.
	Background bool
}

var dateLike = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}$`)

// Load reads spec with a zero Loader but for get (see Loader.Load).
func Load(ctx context.Context, spec string, get Getter) (Calendar, error) {
	return Loader{Get: get}.Load(ctx, spec)
}

// Load reads REMIND_HOLIDAYS: a comma-separated list whose entries are
// dates (2026-12-25), paths of iCalendar files, or http(s) URLs of them,
// fetched now (the process reads the file at start, never at build).
//
// A URL that cannot be read now (a host down or slower than 10 s, an
// answer that is not 200, a file over 1 MB, one that is not iCalendar, a
// redirect to a non-public address) does not fail Load: its last good
// copy (Cache) is used, or none, and Warn is told. A date or a file that
// cannot be read does. Errors: the first such entry, named with why,
// credentials in a URL hidden ("REMIND_HOLIDAYS" is the caller's to add).
func (l Loader) Load(ctx context.Context, spec string) (Calendar, error) {
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
			if l.Background {
				l.copyThenFetch(ctx, c, entry)
			} else {
				l.fetchOrCopy(ctx, c, entry)
			}
		case strings.Contains(entry, "/") || strings.HasSuffix(strings.ToLower(entry), ".ics"):
			err = c.readFile(entry)
		default:
			return Calendar{}, fmt.Errorf("entry %q is not a date (YYYY-MM-DD), a path or an http(s) URL of an iCalendar file", redact.URL(entry))
		}
		if err != nil {
			return Calendar{}, fmt.Errorf("entry %q: %w", entry, err)
		}
	}
	return c, nil
}

// Fetch reads the iCalendar file at url now, as Load does, without a
// cache: doctor's check. Errors: why it could not, credentials hidden.
func (l Loader) Fetch(ctx context.Context, url string) (Calendar, error) {
	c := Calendar{holidays: newDays()}
	body, err := l.fetch(ctx, url)
	if err == nil {
		err = c.parse(bytes.NewReader(body))
	}
	if err != nil {
		return Calendar{}, fmt.Errorf("entry %q: %s", redact.URL(url), redact.Error(err, url))
	}
	return c, nil
}

// fetchOrCopy adds url's holidays to c: from the file fetched now, kept
// as the last good copy, or else from that copy.
func (l Loader) fetchOrCopy(ctx context.Context, c Calendar, url string) {
	err := l.fetchInto(ctx, c, url)
	if err == nil {
		return
	}
	at := l.copyInto(ctx, c, url)
	if l.Warn != nil {
		l.Warn(redact.URL(url), err, at)
	}
}

// copyThenFetch adds url's last good copy to c now, then fetches url in
// the background (within the Timeout, or until ctx ends) and adds its
// days to c as soon as they are read.
func (l Loader) copyThenFetch(ctx context.Context, c Calendar, url string) {
	at := l.copyInto(ctx, c, url)
	go func() {
		if err := l.fetchInto(context.WithoutCancel(ctx), c, url); err != nil && l.Warn != nil {
			l.Warn(redact.URL(url), err, at)
		}
	}()
}

// fetchInto fetches url now and adds its days to c, keeping the file as
// its last good copy. Errors: why it could not, credentials hidden.
func (l Loader) fetchInto(ctx context.Context, c Calendar, url string) error {
	body, err := l.fetch(ctx, url)
	if err == nil {
		err = c.merge(body)
	}
	if err != nil {
		return errors.New(redact.Error(err, url))
	}
	if l.Cache != nil {
		if perr := l.Cache.PutHolidayFile(ctx, url, body); perr != nil && l.Warn != nil {
			l.Warn(redact.URL(url), fmt.Errorf("read, but its copy was not kept: %s", redact.Error(perr, url)), time.Time{})
		}
	}
	return nil
}

// copyInto adds url's last good copy to c and returns when it was read;
// zero when there is none (or no Cache).
func (l Loader) copyInto(ctx context.Context, c Calendar, url string) time.Time {
	if l.Cache == nil {
		return time.Time{}
	}
	old, when, found, err := l.Cache.HolidayFile(ctx, url)
	if err != nil || !found || c.merge(old) != nil {
		return time.Time{}
	}
	return when
}

// merge parses body and adds its days to c, under its lock (others may
// be reading c): all of them, or none when body is not iCalendar.
func (c Calendar) merge(body []byte) error {
	read := Calendar{holidays: newDays()}
	if err := read.parse(bytes.NewReader(body)); err != nil {
		return err
	}
	c.holidays.mu.Lock()
	defer c.holidays.mu.Unlock()
	for d := range read.holidays.set {
		c.holidays.set[d] = true
	}
	return nil
}

// fetch gets url's body: 200 only, at most maxFile bytes, within
// fetchTimeout.
func (l Loader) fetch(ctx context.Context, url string) ([]byte, error) {
	get := l.Get
	if get == nil {
		get = SafeClient(url)
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(l.Timeout, fetchTimeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	resp, err := get.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch: the server answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	if len(body) > maxFile {
		return nil, errTooLarge
	}
	return body, nil
}

func (c Calendar) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read the iCalendar file: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return fmt.Errorf("read the iCalendar file: %w", err)
	}
	if len(body) > maxFile {
		return errTooLarge
	}
	return c.parse(bytes.NewReader(body))
}

// errTooLarge is a file over maxFile.
var errTooLarge = fmt.Errorf("the file is over %d MB: split it, or keep only the years ahead", maxFile>>20)

// SafeClient is the client Load fetches url with by default: a redirect
// is followed (at most five) only to a public address, never to
// loopback, link-local (169.254.169.254, a cloud's metadata service),
// private, shared or unspecified ones, checked on the address actually
// dialled, so a name that resolves to one is refused too. url's own host
// is the administrator's choice and may be private (an intranet
// calendar). Environment proxies are not used: the address dialled is
// the address checked.
func SafeClient(rawURL string) *http.Client {
	origin := ""
	if u, err := neturl.Parse(rawURL); err == nil {
		origin = hostPort(u)
	}
	public := &net.Dialer{Timeout: fetchTimeout, Control: refuseNonPublic}
	any := &net.Dialer{Timeout: fetchTimeout}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == origin {
				return any.DialContext(ctx, network, addr)
			}
			return public.DialContext(ctx, network, addr)
		},
		TLSHandshakeTimeout:   fetchTimeout,
		ResponseHeaderTimeout: fetchTimeout,
	}
	return &http.Client{Timeout: fetchTimeout, Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("stopped after 5 redirects")
			}
			return nil
		}}
}

// hostPort is u's host:port as the transport dials it.
func hostPort(u *neturl.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// refuseNonPublic is a dialer's Control: the address about to be dialled
// must be a public one.
func refuseNonPublic(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("redirected to %s: not an address", address)
	}
	if !Public(ap.Addr()) {
		return fmt.Errorf("redirected to %s, which is not a public address: not followed", ap.Addr())
	}
	return nil
}

// sharedSpace is 100.64.0.0/10, carrier-grade NAT: not public either.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// Public reports whether a is a public unicast address: not loopback,
// link-local, private (RFC 1918, fc00::/7), shared (100.64.0.0/10),
// multicast or unspecified.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() &&
		!a.IsLinkLocalUnicast() && !sharedSpace.Contains(a)
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
