package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/workdays"
)

// checkHolidays reads REMIND_HOLIDAYS as remind and serve do at start
// (a URL is fetched now) and shows the next three holidays, or why it
// could not read them. A URL that cannot be read is a failed check here,
// though serve and remind start without it (on its last good copy):
// doctor is where an admin learns of it. URLs are shown without their
// credentials.
func checkHolidays(ctx context.Context, set Settings, now time.Time, rep *Report) {
	spec := set.Holidays
	if spec == "" {
		rep.add(secConfig, skipped("REMIND_HOLIDAYS not set: reminders go out on every working day, holidays included"))
		return
	}
	var unread []string
	l := workdays.Loader{Warn: func(url string, err error, _ time.Time) {
		unread = append(unread, fmt.Sprintf("REMIND_HOLIDAYS entry %q: %v", url, err))
	}}
	c, err := l.Load(ctx, spec)
	if err != nil {
		rep.add(secConfig, failed("REMIND_HOLIDAYS "+err.Error(),
			"each entry is a date (2026-12-25), a path or an http(s) URL of an iCalendar (.ics) file the process can read"))
		return
	}
	for _, u := range unread {
		rep.add(secConfig, failed(u,
			"serve and remind start without it, on the copy they last read: make the URL answer 200 with an iCalendar file under 1 MB, from a public address"))
	}
	next := c.Next(now, 3)
	if len(next) == 0 {
		rep.add(secConfig, advisory("REMIND_HOLIDAYS read, but it holds no holiday from today on",
			"add this year's closure days, or point it at a calendar that has them"))
		return
	}
	rep.add(secConfig, ok("REMIND_HOLIDAYS read: the next holidays are "+strings.Join(next, ", ")))
}
