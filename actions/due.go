// Package actions is the action domain: the organisation's shared action
// list and its cache, who a Slack user is in the records (identity,
// USER_MAP, admins), who may change an action, which statuses are still to
// do, what is overdue or due soon in whose time zone, and changing a
// status on someone's behalf. Every surface (slash commands, buttons, the
// App Home, reminders) asks it; each rule exists here once.
package actions

import (
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// DueStatus is where an action stands against its deadline, for one reader
// at one moment.
type DueStatus int

// The statuses [Due] tells apart.
const (
	// NotDue: no deadline, not to do (complete, cancelled, deferred), or
	// due after the window.
	NotDue DueStatus = iota
	// DueSoon: still to do, and the deadline passes before the end of the
	// reader's day days days after their today.
	DueSoon
	// Overdue: still to do, and the deadline has passed.
	Overdue
)

// DeadlineAt is the moment a's deadline passes: the deadline itself when it
// has a time of day, and for a date-only deadline (YYYY-MM-DD) the end of
// that day in the organisation's time zone org (RECORDS_TIMEZONE; nil means
// UTC). It is zero when a has no deadline.
func DeadlineAt(a *apiclient.Action, org *time.Location) time.Time {
	if a.Deadline.IsZero() || a.DeadlineHasTime {
		return a.Deadline
	}
	if org == nil {
		org = time.UTC
	}
	// apiclient gives a date-only deadline as midnight UTC of its date.
	y, m, d := a.Deadline.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, org)
}

// Due is the one rule for what is overdue and what is due soon, shared by
// /actions, the App Home and reminders so they never disagree: a is
// Overdue once DeadlineAt(a, org) has passed at now, DueSoon when it passes
// before the end of the day days days after the reader's today (their
// today in reader, their own time zone; nil means org), and NotDue
// otherwise or when a is not open or in progress. days below 0 counts as
// 0 (due today).
func Due(a *apiclient.Action, now time.Time, org, reader *time.Location, days int) DueStatus {
	if a.Deadline.IsZero() || !StillToDo(a.Status) {
		return NotDue
	}
	if org == nil {
		org = time.UTC
	}
	if reader == nil {
		reader = org
	}
	at := DeadlineAt(a, org)
	if !now.Before(at) {
		return Overdue
	}
	y, m, d := now.In(reader).Date()
	// A deadline at the very end of the window's last day (a date-only
	// deadline on it, in the same zone) is within the window.
	if !at.After(time.Date(y, m, d+max(days, 0)+1, 0, 0, 0, 0, reader)) {
		return DueSoon
	}
	return NotDue
}
