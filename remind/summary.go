package remind

import (
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"
)

// Summary is what a run of the reminder job did.
type Summary struct {
	// Date is the day the run was for, YYYY-MM-DD in the organisation's
	// zone; each person's own "today" is in theirs.
	Date   string
	DryRun bool
	// Reminded is the number of users sent a reminder (in a dry run, who
	// would have been) and Actions the number of actions those reminders
	// list.
	Reminded, Actions int
	// Skipped is the number of users already reminded on their today.
	Skipped int
	// Recovered is the number of users an earlier run reminded today but
	// stopped before recording it: found in their DM by the reminder's
	// metadata, and recorded instead of sent again.
	Recovered int
	// Busy is the number of users another run was reminding at the time.
	Busy int
	// NotYet is the number of users whose local reminder time has not come
	// yet today; a later run reminds them.
	NotYet int
	// Weekend is the number of users left out because it is their
	// weekend and they (or the organisation) skip weekends.
	Weekend int
	// Holiday is the number of users left out because it is one of the
	// organisation's holidays (REMIND_HOLIDAYS) where they are.
	Holiday int
	// Away is the number of users left out because they are away.
	Away int
	// Unmatched are the assignees with due actions who match no Slack user.
	Unmatched []UnmatchedAssignee
	// Failed are the reminders that could not be sent, each with why.
	Failed []Failure
	// NotAttempted is the number of users left out because the run was
	// cancelled.
	NotAttempted int
	// Truncated is set when the records service had more actions than the
	// client reads: some reminders may be missing actions.
	Truncated bool
	// Elapsed is how long the run took.
	Elapsed time.Duration
}

// UnmatchedAssignee is a records assignee whom no Slack user matches.
type UnmatchedAssignee struct {
	Assignee string // their name and email as the records give them
	Actions  int    // how many due actions they would have been reminded of
}

// Failure is a reminder that could not be sent.
type Failure struct {
	// Who is the Slack user ID, or the assignee when the lookup failed, or
	// "report to <channel>" for the list of unmatched assignees.
	Who string
	Err error
}

// String is the job's one-line summary, such as "remind 2026-11-22: 37
// users reminded, 112 actions included, 3 skipped as already reminded, 2
// unmatched, 1 failed (4.2s)"; counts of people whose morning or weekday
// it is not are added when there are any.
func (s Summary) String() string {
	var b strings.Builder
	b.WriteString("remind " + s.Date)
	if s.DryRun {
		fmt.Fprintf(&b, " (dry run, nothing sent): %s to remind", words.Count(s.Reminded, "user", "users"))
	} else {
		fmt.Fprintf(&b, ": %s reminded", words.Count(s.Reminded, "user", "users"))
	}
	fmt.Fprintf(&b, ", %s included", words.Count(s.Actions, "action", "actions"))
	if !s.DryRun {
		fmt.Fprintf(&b, ", %d skipped as already reminded", s.Skipped)
	}
	// Those this run did not remind, and why: each said only when there
	// are any.
	for _, left := range []struct {
		n   int
		why string
	}{
		{s.Recovered, "found already sent by an interrupted run"},
		{s.Busy, "being reminded by another run"},
		{s.NotYet, "before their reminder time"},
		{s.Holiday, "on a holiday"},
		{s.Away, "away"},
		{s.Weekend, "on their weekend"},
	} {
		if left.n > 0 {
			fmt.Fprintf(&b, ", %d %s", left.n, left.why)
		}
	}
	fmt.Fprintf(&b, ", %d unmatched, %d failed", len(s.Unmatched), len(s.Failed))
	if s.NotAttempted > 0 {
		fmt.Fprintf(&b, ", %d not attempted (interrupted)", s.NotAttempted)
	}
	if s.Truncated {
		b.WriteString(", action list truncated")
	}
	fmt.Fprintf(&b, " (%s)", s.Elapsed.Round(10*time.Millisecond))
	return b.String()
}
