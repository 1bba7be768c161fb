package actions

import (
	"slices"
	"strings"
	"sync"

	"github.com/recordsbot/recordsbot/apiclient"
)

// assigneeIndex finds a person's actions in a shared list without walking
// it: with 20,000 actions a walk costs every /actions command a few hundred
// microseconds, which under load is most of its time. Lists are never
// changed in place (a change makes a new list), so the index of the last
// list asked about stays valid for as long as that list is the one served.
type assigneeIndex struct {
	mu   sync.Mutex
	list *apiclient.ActionList
	by   map[string][]int32 // lowercased assignee email, name, ID, Slack ID -> positions
}

// Assigned returns the actions of list whose assignee is m, in list order:
// exactly those m.Owns accepts.
func (s *Service) Assigned(list *apiclient.ActionList, m Member) []*apiclient.Action {
	if s.list.off {
		// Without the cache every list is read for one command: building
		// an index of it would cost more than the one walk it saves.
		return walkAssigned(list, m)
	}
	return s.assigned.lookup(list, m)
}

// walkAssigned is Assigned by a walk of the whole list.
func walkAssigned(list *apiclient.ActionList, m Member) []*apiclient.Action {
	var out []*apiclient.Action
	for i := range list.Actions {
		if a := &list.Actions[i]; m.Owns(a.Assignee) {
			out = append(out, a)
		}
	}
	return out
}

func (x *assigneeIndex) lookup(list *apiclient.ActionList, m Member) []*apiclient.Action {
	x.mu.Lock()
	if x.list != list {
		x.list, x.by = list, indexAssignees(list)
	}
	by := x.by
	x.mu.Unlock()
	keys := append([]string{strings.ToLower(m.ID), strings.ToLower(m.Email)}, m.aliases...)
	var at []int32
	for _, k := range keys {
		if k != "" {
			at = append(at, by[k]...)
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	var out []*apiclient.Action
	for _, i := range at {
		// The index narrows; the one rule decides.
		if a := &list.Actions[i]; m.Owns(a.Assignee) {
			out = append(out, a)
		}
	}
	return out
}

func indexAssignees(list *apiclient.ActionList) map[string][]int32 {
	by := make(map[string][]int32, len(list.Actions)/4+1)
	for i := range list.Actions {
		p := list.Actions[i].Assignee
		for _, k := range [...]string{p.Email, p.Name, p.ID, p.SlackID} {
			if k != "" {
				k = strings.ToLower(k)
				by[k] = append(by[k], int32(i)) // repeats are compacted on lookup
			}
		}
	}
	return by
}
