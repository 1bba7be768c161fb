package actions_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

// TestViewOf is the one rule for what a viewer sees of an action's row:
// every surface (list, Home tab, click, /actions complete, reminder) draws
// from it, so an admin sees the assignee's name wherever the row is drawn.
func TestViewOf(t *testing.T) {
	t.Parallel()
	svc := actions.New(nil, nil, actions.Config{Admins: []string{"U0ADMIN"}})
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	bobs := &apiclient.Action{ID: "1", Status: apiclient.StatusOpen, Assignee: apiclient.Person{SlackID: "U0BOB", Name: "Bob"}, Deadline: now.AddDate(0, 0, -2)}
	// The admin's profile is one Slack gave: admin powers need it (Admin).
	bob, admin, carol := actions.Member{ID: "U0BOB"}, actions.KnownToSlack(actions.Member{ID: "U0ADMIN"}), actions.Member{ID: "U0CAROL"}
	tests := []struct {
		name    string
		viewer  actions.Member
		listing actions.Listing
		want    actions.View
	}{
		{"the assignee, alone", bob, actions.OnePerson, actions.View{Overdue: true, MayChange: true}},
		{"the assignee among several people's", bob, actions.SeveralPeople, actions.View{Overdue: true, MayChange: true, ShowAssignee: true}},
		{"an admin", admin, actions.OnePerson, actions.View{Overdue: true, MayChange: true, ShowAssignee: true}},
		{"someone else", carol, actions.OnePerson, actions.View{Overdue: true, ShowAssignee: true}},
		{"an admin Slack could not describe", actions.Member{ID: "U0ADMIN"}, actions.OnePerson, actions.View{Overdue: true, ShowAssignee: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, svc.ViewOf(tt.viewer, bobs, now, tt.listing))
		})
	}
	reminder := actions.AssigneeView(actions.Overdue)
	assert.True(t, reminder.MaySnooze, "a reminder's rows offer Snooze")
	reminder.MaySnooze = false // list rows do not carry Snooze yet
	assert.Equal(t, svc.ViewOf(bob, bobs, now, actions.OnePerson), reminder,
		"a reminder's row reads as its assignee's row anywhere else")
	// Only the assignee snoozes, for themselves: not an admin.
	assert.True(t, actions.SnoozeView(actions.View{}, bob, bobs).MaySnooze)
	assert.False(t, actions.SnoozeView(actions.View{}, admin, bobs).MaySnooze)
	done := *bobs
	done.Status = apiclient.StatusComplete
	assert.False(t, actions.SnoozeView(actions.View{}, bob, &done).MaySnooze, "nothing to snooze once done")
}

// TestChangerViewWhenSlackCannotSay: the person who just changed an
// action, whose profile Slack cannot give at that moment, still sees the
// row as theirs to change (they just changed it) and named only when it
// is not theirs, with "overdue" decided in the organisation's zone rather
// than UTC; the error is returned for the log.
func TestChangerViewWhenSlackCannotSay(t *testing.T) {
	t.Parallel()
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Skip("no time zone data")
	}
	svc := actions.New(nil, noProfiles{}, actions.Config{Zone: auckland})
	// 20:00 UTC on 1 July is already 2 July in Auckland: an action due
	// (date only) on 1 July is overdue there, though not yet in UTC.
	now := time.Date(2026, 7, 1, 20, 0, 0, 0, time.UTC)
	bobs := &apiclient.Action{ID: "1", Status: apiclient.StatusComplete, Assignee: apiclient.Person{SlackID: "U0BOB", Name: "Bob"},
		Deadline: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)} // date only

	v, err := svc.ChangerView(t.Context(), "U0BOB", bobs, now)
	assert.Error(t, err, "the lookup's failure is the caller's to log")
	assert.Equal(t, actions.View{MayChange: true}, v, "their own row (now complete): not named, theirs to change")

	bobs.Status = apiclient.StatusOpen
	v, err = svc.ChangerView(t.Context(), "U0ADMIN", bobs, now)
	assert.Error(t, err)
	assert.Equal(t, actions.View{Overdue: true, MayChange: true, ShowAssignee: true}, v, "someone else's (an admin's change): named; overdue in Auckland")
}
