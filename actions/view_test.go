package actions_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

// TestViewOf is the one rule for what a viewer sees of an action's row:
// every surface (list, Home tab, click, /actions complete, reminder) draws
// from it, so an admin sees the assignee's name wherever the row is drawn.
func TestViewOf(t *testing.T) {
	t.Parallel()
	people := newEnv(t, actions.Config{})
	bobP, carolP := people.person("bob"), people.person("carol")
	e := newEnv(t, actions.Config{Admins: []string{carolP.SlackID}})
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	bobs := &apiclient.Action{ID: "1", Status: apiclient.StatusOpen, Assignee: apiclient.Person{SlackID: bobP.SlackID, Name: bobP.Name}, Deadline: now.AddDate(0, 0, -2)}
	who := func(id string) actions.Member {
		m, err := e.svc.Who(t.Context(), id)
		require.NoError(t, err)
		return m
	}
	bob, admin, alice := who(bobP.SlackID), who(carolP.SlackID), who(e.person("alice").SlackID)
	tests := []struct {
		name    string
		viewer  actions.Member
		listing actions.Listing
		want    actions.View
	}{
		{"the assignee, alone", bob, actions.OnePerson, actions.View{Overdue: true, MayChange: true}},
		{"the assignee among several people's", bob, actions.SeveralPeople, actions.View{Overdue: true, MayChange: true, ShowAssignee: true}},
		{"an admin", admin, actions.OnePerson, actions.View{Overdue: true, MayChange: true, ShowAssignee: true}},
		{"someone else", alice, actions.OnePerson, actions.View{Overdue: true, ShowAssignee: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, e.svc.ViewOf(tt.viewer, bobs, now, tt.listing))
		})
	}
	assert.Equal(t, e.svc.ViewOf(bob, bobs, now, actions.OnePerson), actions.AssigneeView(actions.Overdue),
		"a reminder's row reads as its assignee's row anywhere else")
}
