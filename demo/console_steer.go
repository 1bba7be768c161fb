package demo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/blocks"
)

// The console's words for reminders people steer: snooze and
// unsnooze press a row's own Snooze controls, away and back the Home tab's,
// holiday closes a day for the organisation, and remind runs the job as on
// a later day, so a week can be walked in a few lines.

// snooze presses the Snooze control of the row that button n is on: its
// menu for tomorrow, workday (the default) or week, its date picker for a
// day (YYYY-MM-DD).
func (c *console) snooze(ctx context.Context, args string) error {
	num, when, _ := strings.Cut(strings.TrimSpace(args), " ")
	n, err := strconv.Atoi(strings.Trim(num, "[]"))
	if err != nil {
		return errors.New("snooze needs the number of a button on the action's row, like: snooze 5 workday (tomorrow, workday, week or a date, YYYY-MM-DD)")
	}
	when = strings.ToLower(strings.TrimSpace(when))
	if when == "" {
		when = blocks.SnoozeWorkingDay
	}
	if _, err := time.Parse(time.DateOnly, when); err == nil {
		at, err := c.onRow(n, blocks.ActionSnoozeDate, "")
		if err != nil {
			return err
		}
		return c.click(ctx, at, when)
	}
	if !blocks.IsSnoozeChoice(when) {
		return fmt.Errorf("snooze until when? tomorrow, workday, week or a date (YYYY-MM-DD), not %q", when)
	}
	// The choice is an option of the row's menu, numbered on its own.
	at, err := c.onRow(n, blocks.ActionRowMenu, when)
	if err != nil {
		return err
	}
	return c.click(ctx, at, "")
}

// unsnooze presses Unsnooze on the row that button n is on.
func (c *console) unsnooze(ctx context.Context, args string) error {
	n, err := strconv.Atoi(strings.Trim(strings.TrimSpace(args), "[]"))
	if err != nil {
		return errors.New("unsnooze needs the number of a button on the action's row, like: unsnooze 5")
	}
	at, err := c.onRow(n, blocks.ActionUnsnooze, "")
	if err != nil {
		return err
	}
	return c.click(ctx, at, "")
}

// onRow is the number of the control actionID on the same row (block) as
// button n; for a menu's option, the one valued option.
func (c *console) onRow(n int, actionID, option string) (int, error) {
	if n < 1 || n > len(c.buttons) || c.buttons[n-1].Element == nil {
		return 0, fmt.Errorf("there is no button [%d] above; /actions shows your actions with their buttons", n)
	}
	row := c.buttons[n-1]
	for i, b := range c.buttons {
		if b.Element != nil && b.where == row.where && b.BlockID == row.BlockID && b.ActionID == actionID && (option == "" || b.Option == option) {
			return i + 1, nil
		}
	}
	switch actionID {
	case blocks.ActionUnsnooze:
		return 0, fmt.Errorf("the action of button [%d] is not snoozed", n)
	default:
		return 0, fmt.Errorf("the action of button [%d] has no Snooze: only its assignee snoozes it, and only while it is still to do", n)
	}
}

// away opens the Home tab and picks the last day away there (DATE), or
// presses I'm back (back).
func (c *console) away(ctx context.Context, args string) error {
	args = strings.ToLower(strings.TrimSpace(args))
	control, day := blocks.ActionAwaySet, args
	switch {
	case args == "back":
		control, day = blocks.ActionAwayEnd, ""
	case args == "":
		return errors.New("away until when? away YYYY-MM-DD (your last day away), or away back")
	default:
		if _, err := time.Parse(time.DateOnly, args); err != nil {
			return fmt.Errorf("away needs your last day away as YYYY-MM-DD, or back; not %q", args)
		}
	}
	if err := c.home(ctx); err != nil {
		return err
	}
	for i, b := range c.buttons {
		if b.Element != nil && b.where.kind == inHome && b.ActionID == control {
			return c.click(ctx, i+1, day)
		}
	}
	if control == blocks.ActionAwayEnd {
		return errors.New("you are not away: your Home tab has no I'm back")
	}
	return errors.New("your Home tab has no Away until… (you are away already: away back first)")
}

// holiday closes day for the whole demo organisation, as REMIND_HOLIDAYS
// would: nobody is reminded on it, and "the next working day" skips it.
func (c *console) holiday(args string) error {
	day := strings.TrimSpace(args)
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return fmt.Errorf("holiday needs a date, YYYY-MM-DD: %q is not one", day)
	}
	if err := c.env.holidays.Add(day); err != nil {
		return fmt.Errorf("holiday: %w", err)
	}
	c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("The organisation is closed on %s (REMIND_HOLIDAYS): nobody is reminded that day, and a snooze until the next working day skips it.", d.Format("Mon 2 Jan 2006"))))
	return nil
}

// remindDay is the moment `remind [DAY]` runs the job as at: now, or now's
// time on DAY (tomorrow, +N days, or YYYY-MM-DD). Zero is the wall clock.
func remindDay(arg string, now time.Time) (time.Time, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	switch {
	case arg == "" || arg == "today":
		return time.Time{}, nil
	case arg == "tomorrow":
		return now.AddDate(0, 0, 1), nil
	case strings.HasPrefix(arg, "+"):
		n, err := strconv.Atoi(arg[1:])
		if err != nil || n < 0 || n > 366 {
			return time.Time{}, fmt.Errorf("remind +N takes a number of days from 0 to 366, not %q", arg)
		}
		return now.AddDate(0, 0, n), nil
	}
	d, err := time.ParseInLocation(time.DateOnly, arg, now.Location())
	if err != nil {
		return time.Time{}, fmt.Errorf("remind runs as on today, tomorrow, +N days or a date (YYYY-MM-DD), not %q", arg)
	}
	y, m, dd := d.Date()
	return time.Date(y, m, dd, now.Hour(), now.Minute(), now.Second(), 0, now.Location()), nil
}
