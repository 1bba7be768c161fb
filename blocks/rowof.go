package blocks

import (
	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

// RowOf is the row of action a as its viewer sees it (v, the actions
// domain's one decision: overdue, buttons, the assignee's name), with
// link, the action's own link (actions.Service.Link; "" for none), on its
// title, and the change a click just made when changed is set. Lists, the Home tab,
// reminders, assignment DMs, digests, briefs and the row a click redraws
// all build their rows here (and draw them with blocks/row.go), so they
// match; no other code builds an ActionRow (tools/rulecheck).
func RowOf(a *apiclient.Action, v actions.View, link string, changed *Change) ActionRow {
	meeting := a.MeetingTitle
	if meeting == "" {
		meeting = a.MeetingID
	}
	r := ActionRow{
		ID:              a.ID,
		Title:           a.Title,
		Link:            link,
		Status:          string(a.Status),
		Deadline:        a.Deadline,
		DeadlineHasTime: a.DeadlineHasTime,
		Overdue:         v.Overdue,
		Meeting:         meeting,
		Committee:       a.Committee,
		CanChange:       v.MayChange,
		MaySnooze:       v.MaySnooze,
		Changed:         changed,
	}
	if v.ShowAssignee {
		r.Assignee = a.Assignee.String()
		r.AssigneeSlackID = a.Assignee.SlackID
	}
	return r
}
