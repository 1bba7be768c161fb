package actions

import (
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Visibility is ACTIONS_VISIBILITY: whose actions a full member of the
// workspace may see. Guests see only their own whatever it says, and
// admins see anyone's.
type Visibility string

// The visibilities.
const (
	// VisibleOwn lets members see their own actions only; admins see
	// anyone's. The default.
	VisibleOwn Visibility = "own"
	// VisibleOrganisation lets every full member see anyone's actions.
	VisibleOrganisation Visibility = "organisation"
)

// ParseVisibility reads ACTIONS_VISIBILITY, case-insensitively; "" is
// VisibleOwn. Errors: one naming the accepted values.
func ParseVisibility(s string) (Visibility, error) {
	switch v := Visibility(strings.ToLower(strings.TrimSpace(s))); v {
	case "":
		return VisibleOwn, nil
	case VisibleOwn, VisibleOrganisation:
		return v, nil
	}
	return "", fmt.Errorf("%q is not own or organisation", s)
}

// Visibility is the organisation's setting in force.
func (s *Service) Visibility() Visibility { return s.cfg.Visibility }

// ChannelMayName is the one rule for what a message to a channel (a
// digest, a brief) may say of people's actions: everyone in the channel
// reads it, so it names their actions only where every member may see
// anyone's (VisibleOrganisation). Under VisibleOwn it counts them, and
// each person reads their own in /actions: otherwise anyone who may
// follow a committee in a channel could read everyone's list there.
func (s *Service) ChannelMayName() bool { return s.cfg.Visibility == VisibleOrganisation }

// CanSeeOthers reports whether viewer may see actions assigned to people
// other than themselves: only once Slack has said who they are (a profile
// that could not be read might be a guest's), and then never a Slack
// guest; always an admin (Admin); any other member only under
// VisibleOrganisation. A guest listed in ADMIN_USER_IDS, or an admin whose
// profile Slack could not give, sees only their own actions.
func (s *Service) CanSeeOthers(viewer Member) bool {
	switch {
	case !viewer.profiled || viewer.Guest:
		return false
	case s.Admin(viewer):
		return true
	}
	return s.cfg.Visibility == VisibleOrganisation
}

// CanSee is the one rule for who may see an action assigned to assignee:
// the assignee, and whoever CanSeeOthers allows. Every surface that shows
// actions (commands, the Home tab, buttons that redraw a list) applies it,
// through Visible for lists.
func (s *Service) CanSee(viewer Member, assignee apiclient.Person) bool {
	return viewer.Owns(assignee) || s.CanSeeOthers(viewer)
}

// Visible returns the actions of list that viewer may see (CanSee), in
// order. When viewer may see everyone's, it is list itself; otherwise a
// new slice, so list is never changed.
func (s *Service) Visible(viewer Member, list []*apiclient.Action) []*apiclient.Action {
	if s.CanSeeOthers(viewer) {
		return list
	}
	out := make([]*apiclient.Action, 0, len(list))
	for _, a := range list {
		if viewer.Owns(a.Assignee) {
			out = append(out, a)
		}
	}
	return out
}

// CanSeeOthersOnceKnown reports whether viewer would see other people's
// actions once Slack says who they are (CanSeeOthers with their profile
// read): not a guest, and an admin or any member under
// VisibleOrganisation. It tells a viewer refused while Slack cannot be
// asked that trying again may help.
func (s *Service) CanSeeOthersOnceKnown(viewer Member) bool {
	return !viewer.Guest && (s.IsAdmin(viewer.ID) || s.cfg.Visibility == VisibleOrganisation)
}

// CanSeeHistory is CanSee for an action's history: a held action's
// history for whoever may see it, and one the records no longer hold
// (held false) only for whoever may see anyone's.
func (s *Service) CanSeeHistory(viewer Member, a *apiclient.Action, held bool) bool {
	if !held {
		return s.CanSeeOthers(viewer)
	}
	return s.CanSee(viewer, a.Assignee)
}
