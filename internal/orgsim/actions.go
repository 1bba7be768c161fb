package orgsim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// actions turns specs into actions, each assigned at one of meetings.
func actions(people []recordsfake.Person, specs []ActionSpec, meetings []meeting, today time.Time) []recordsfake.Action {
	out := make([]recordsfake.Action, 0, len(specs))
	perMeeting := map[string]int{}
	for i, sp := range specs {
		p := people[slices.IndexFunc(people, func(p recordsfake.Person) bool { return strings.HasPrefix(p.Name, sp.Person+" ") })]
		a := recordsfake.Action{
			ID:            sp.ID,
			Title:         sp.Title,
			Status:        sp.Status,
			AssigneeEmail: p.Email,
			AssigneeName:  p.Name,
			CreatedAt:     today.AddDate(0, 0, -20).Add(9 * time.Hour),
		}
		switch sp.Due {
		case DueDate:
			a.Deadline, a.DateOnly = today.AddDate(0, 0, sp.Days), true
		case DueTime:
			a.Deadline = today.AddDate(0, 0, sp.Days).Add(17 * time.Hour)
		}
		if sp.Committee != "" {
			// The action was assigned at least a week before it fell due,
			// and often some meetings before that.
			cutoff := today.AddDate(0, 0, min(sp.Days, 0)-7-14*(i%3))
			m := assigningMeeting(meetings, sp.Committee, cutoff)
			a.MeetingID = m.ID
			a.CreatedAt = time.Date(m.Date.Year(), m.Date.Month(), m.Date.Day()+1, 9, 0, 0, 0, time.UTC)
			if a.ID == "" {
				perMeeting[m.ID]++
				a.ID = fmt.Sprintf("%s/%d", m.Reference, perMeeting[m.ID])
			}
		}
		out = append(out, a)
	}
	return out
}

// assigningMeeting returns the committee's latest past meeting held on or
// before cutoff, or its oldest when all are later.
func assigningMeeting(meetings []meeting, code string, cutoff time.Time) meeting {
	var oldest *meeting
	for i := len(meetings) - 1; i >= 0; i-- {
		m := &meetings[i]
		if m.committee.Code != code || m.ago < 0 {
			continue
		}
		if !m.Date.After(cutoff) {
			return *m
		}
		oldest = m
	}
	return *oldest
}
