package actions

import (
	"context"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// View is what one viewer sees of one action, decided here once for every
// surface that draws an action's row: lists, the Home tab, the row a click
// or a status command redraws, reminders, digests and briefs, so that no
// surface decides for itself whether to name the assignee.
type View struct {
	// Overdue is Due's verdict, with "today" in the viewer's zone.
	Overdue bool
	// MayChange is CanChange: the row carries the status buttons.
	MayChange bool
	// ShowAssignee is whether the row names the assignee: always in a
	// list of several people's actions, else when the action is not the
	// viewer's own.
	ShowAssignee bool
	// MaySnooze is whether the row offers Snooze: only an action's own
	// assignee snoozes it, for themselves (an admin cannot silence
	// someone else's reminders), and only while it is still to do. Set
	// on reminder rows (AssigneeView) and by SnoozeView, which the bot
	// applies to /actions, Home tab and redrawn rows when it has a store
	// to keep snoozes in (see docs/jobs.md, "Reminders people steer").
	MaySnooze bool
}

// Listing is what a row is drawn among, which decides whether it names
// its assignee.
type Listing int

const (
	// OnePerson is a row on its own or in a list of one person's actions:
	// it names the assignee when they are not the viewer.
	OnePerson Listing = iota
	// SeveralPeople is a row in a list of several people's actions (a
	// meeting's, seen by someone who may see others'): every row names
	// its assignee, the viewer's own included, so the list reads evenly.
	SeveralPeople
)

// ViewOf is what viewer sees at now of a, drawn among listing.
func (s *Service) ViewOf(viewer Member, a *apiclient.Action, now time.Time, listing Listing) View {
	return View{
		Overdue:      s.Due(a, now, viewer.Zone, 0) == Overdue,
		MayChange:    s.CanChange(viewer, a),
		ShowAssignee: listing.namesAssignee(viewer.Owns(a.Assignee)),
	}
}

// ChangerView is what actor sees at now of a, an action they have just
// changed (SetStatus: Changed or Duplicate). It is ViewOf when their
// profile can be read. When it cannot, the row is still drawn as theirs to
// change (they just changed it), naming the assignee unless the records
// give the action actor's Slack ID, with "today" in the organisation's
// zone; the error is returned for the log.
func (s *Service) ChangerView(ctx context.Context, actor string, a *apiclient.Action, now time.Time) (View, error) {
	me, err := s.Who(ctx, actor)
	if err != nil {
		return View{
			Overdue:      s.Due(a, now, nil, 0) == Overdue,
			MayChange:    true,
			ShowAssignee: OnePerson.namesAssignee(Member{ID: actor}.Owns(a.Assignee)),
		}, fmt.Errorf("identify %s: %w", actor, err)
	}
	return s.ViewOf(me, a, now, OnePerson), nil
}

// AssigneeView is what an action's own assignee sees of it where due
// decided its status (a reminder, sent to them): ViewOf's rule for a
// viewer who owns the action (CanChange: the assignee may change it),
// without reading their profile again.
func AssigneeView(due DueStatus) View {
	return View{Overdue: due == Overdue, MayChange: true, ShowAssignee: OnePerson.namesAssignee(true), MaySnooze: true}
}

// ChannelView is what everyone in a channel sees of an action where due
// decided its status, with "today" in the organisation's zone (a digest,
// a brief): no buttons and no Snooze, since a channel's message is
// everyone's and nobody may change an action for its assignee there, and
// the assignee named, since the channel lists several people's actions.
func ChannelView(due DueStatus) View {
	return View{Overdue: due == Overdue, ShowAssignee: SeveralPeople.namesAssignee(false)}
}

// namesAssignee is the one rule for naming the assignee on a row: among
// several people's actions always, else unless the action is the viewer's.
func (l Listing) namesAssignee(viewersOwn bool) bool {
	return l == SeveralPeople || !viewersOwn
}

// SnoozeView is v with MaySnooze decided for viewer (CanSnooze).
func SnoozeView(v View, viewer Member, a *apiclient.Action) View {
	v.MaySnooze = CanSnooze(viewer, a)
	return v
}

// CanSnooze is the one rule for who may snooze an action: its own
// assignee, for themselves (an admin cannot silence someone else's
// reminders), and only while it is still to do.
func CanSnooze(viewer Member, a *apiclient.Action) bool {
	return viewer.Owns(a.Assignee) && StillToDo(a.Status)
}
