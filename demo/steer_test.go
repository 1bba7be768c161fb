package demo

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoSnoozeAwayHoliday walks a member's week with the demo's words:
// a holiday tomorrow, a snooze until the next working day (past it), a
// reminder that leaves the snoozed action out, no reminders on the
// holiday, away until a later day (no reminder, an assignment held), and
// one "While you were away" DM the day after, with the assignment.
func TestDemoSnoozeAwayHoliday(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	now := time.Now()
	day := func(n int) time.Time { return now.AddDate(0, 0, n) }
	date := func(n int) string { return day(n).Format(time.DateOnly) }
	script := []string{"/actions overdue", "holiday " + date(1), "snooze 1 workday", "remind", "remind tomorrow",
		"away " + date(4), "remind +2", "assign alice Book the hall for the AGM", "watch", "remind +5",
		"snooze 99", "snooze 1 someday", "unsnooze 9"}
	out, all, err := runScript(t, env, consoleOptions{}, script...)
	require.Error(t, err, "the last three are refused:\n%s", all)

	snoozed := titleAbove(t, out["/actions overdue"], "[1] Complete")
	require.Contains(t, out["/actions overdue"], "[5] ⋯ Snooze until tomorrow")
	assert.Contains(t, out["snooze 1 workday"], "until "+day(2).Format("Mon 2 Jan"), "the next working day skips the holiday")
	assert.NotContains(t, out["remind"], snoozed, "snoozed: left out of today's reminder")
	assert.Contains(t, out["remind tomorrow"], "on a holiday")
	assert.Contains(t, out["away "+date(4)], "You're away until "+day(4).Format("Mon 2 Jan"))
	assert.Contains(t, out["remind +2"], "1 away")
	assert.Contains(t, out["watch"], "held for someone away")
	back := out["remind +5"]
	assert.Contains(t, back, "While you were away")
	assert.Contains(t, back, "Book the hall for the AGM", "the assignment held while away")
	assert.Contains(t, back, snoozed, "the snooze is over")
	assert.Contains(t, out["snooze 99"], "there is no button [99]")
	assert.Contains(t, out["snooze 1 someday"], "tomorrow, workday, week or a date")
	assert.Contains(t, out["unsnooze 9"], "is not snoozed")
}
