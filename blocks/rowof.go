package blocks

import "github.com/recordsbot/recordsbot/apiclient"

// RowOf is the row of action a: its fields as a list shows them, overdue
// as the caller's due rule decided (package actions), buttons when
// canChange, the assignee's name when showAssignee, and the change a click
// just made when changed is set. Lists, the Home tab, reminders and the
// row a click redraws all build their rows here, so they match.
func RowOf(a *apiclient.Action, overdue, canChange, showAssignee bool, changed *Change) ActionRow {
	meeting := a.MeetingTitle
	if meeting == "" {
		meeting = a.MeetingID
	}
	r := ActionRow{
		ID:              a.ID,
		Title:           a.Title,
		Status:          string(a.Status),
		Deadline:        a.Deadline,
		DeadlineHasTime: a.DeadlineHasTime,
		Overdue:         overdue,
		Meeting:         meeting,
		Committee:       a.Committee,
		CanChange:       canChange,
		Changed:         changed,
	}
	if showAssignee {
		r.Assignee = a.Assignee.String()
	}
	return r
}
