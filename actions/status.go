package actions

import (
	"slices"

	"github.com/recordsbot/recordsbot/apiclient"
)

// StillToDo reports whether an action in status st still asks something of
// its assignee: open or in progress. The default lists, the Home tab,
// reminders and the due rule count only these.
func StillToDo(st apiclient.Status) bool {
	return st == apiclient.StatusOpen || st == apiclient.StatusInProgress
}

// Active returns the statuses StillToDo accepts, for fetching them by
// status: a new slice each call, so no caller can change another's.
func Active() []apiclient.Status { return slices.Clone(active) }

var active = []apiclient.Status{apiclient.StatusOpen, apiclient.StatusInProgress}
