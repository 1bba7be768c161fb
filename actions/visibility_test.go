package actions_test

import (
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

func TestParseVisibility(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]actions.Visibility{
		"": actions.VisibleOwn, "own": actions.VisibleOwn, " Own ": actions.VisibleOwn,
		"organisation": actions.VisibleOrganisation, "ORGANISATION": actions.VisibleOrganisation,
	} {
		got, err := actions.ParseVisibility(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for _, bad := range []string{"all", "everyone", "public", "organization"} {
		_, err := actions.ParseVisibility(bad)
		assert.Error(t, err, "%q", bad)
	}
}

// TestCanSee is the visibility rule over every kind of viewer, both
// settings, as users.info tells the viewer apart.
func TestCanSee(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Now())
	users := append(sampleorg.SlackUsers(data.People),
		slacktest.User{ID: "U0ADMIN", Name: "admin", Email: "admin@example.org"},
		slacktest.User{ID: "U0MULTI", Name: "multi", Email: "multi@example.org", Guest: slacktest.MultiChannelGuest},
		slacktest.User{ID: "U0SINGLE", Name: "single", Email: "single@example.org", Guest: slacktest.SingleChannelGuest},
		slacktest.User{ID: "U0GADMIN", Name: "gadmin", Email: "gadmin@example.org", Guest: slacktest.MultiChannelGuest})
	w := testworld.Start(t, data, users)
	rc, err := apiclient.NewClient(w.Records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))

	own := func(id, email string) apiclient.Person { return apiclient.Person{SlackID: id, Email: email} }
	bob := apiclient.Person{Email: "bob@example.org", Name: "Bob Brown"}
	tests := map[string]struct {
		viewer            string
		self              apiclient.Person
		ownSees, orgSees  bool // someone else's action, under own and organisation
		guest             bool
		profileUnreadable bool
	}{
		"member":               {viewer: "U0ALICE", self: own("", "alice@example.org"), orgSees: true},
		"admin":                {viewer: "U0ADMIN", self: own("U0ADMIN", ""), ownSees: true, orgSees: true},
		"multi-channel guest":  {viewer: "U0MULTI", self: own("", "multi@example.org"), guest: true},
		"single-channel guest": {viewer: "U0SINGLE", self: own("U0SINGLE", ""), guest: true},
		"guest admin":          {viewer: "U0GADMIN", self: own("", "gadmin@example.org"), guest: true},
		// Slack cannot say whether they are a guest: they see their own
		// (USER_MAP still names them), nobody else's.
		"unknown to Slack": {viewer: "U0GONE", self: own("U0GONE", ""), profileUnreadable: true},
		// An admin whose profile Slack could not give might be a guest:
		// member powers at most (Service.Admin), so their own only.
		"admin unknown to Slack": {viewer: "U0GONEADMIN", self: own("U0GONEADMIN", ""), profileUnreadable: true},
	}
	for _, vis := range []actions.Visibility{actions.VisibleOwn, actions.VisibleOrganisation} {
		svc := actions.New(rc, slackusers.Directory(api), actions.Config{Admins: []string{"U0ADMIN", "U0GADMIN", "U0GONEADMIN"}, Visibility: vis})
		assert.Equal(t, vis, svc.Visibility())
		for name, tt := range tests {
			t.Run(string(vis)+"/"+name, func(t *testing.T) {
				t.Parallel()
				me, err := svc.Who(t.Context(), tt.viewer)
				assert.Equal(t, tt.profileUnreadable, err != nil, "users.info error: %v", err)
				assert.Equal(t, tt.guest, me.Guest, "Guest")
				assert.Equal(t, !tt.profileUnreadable, me.Profiled(), "Profiled")
				want := tt.ownSees
				if vis == actions.VisibleOrganisation {
					want = tt.orgSees
				}
				assert.True(t, svc.CanSee(me, tt.self), "everyone sees their own")
				assert.Equal(t, want, svc.CanSee(me, bob), "sees Bob's")
				assert.Equal(t, want, svc.CanSeeOthers(me), "CanSeeOthers")
				bobs := &apiclient.Action{ID: "1", Assignee: bob}
				assert.False(t, svc.CanChange(me, bobs) && !svc.CanSee(me, bob), "whoever may change an action may see it")
				assert.Equal(t, tt.viewer == "U0ADMIN", svc.CanChange(me, bobs), "only a full-member admin changes Bob's")
				assert.Equal(t, tt.viewer == "U0ADMIN", svc.Admin(me), "Admin")

				list := []*apiclient.Action{{ID: "1", Assignee: bob}, {ID: "2", Assignee: tt.self}}
				got := svc.Visible(me, list)
				if want {
					assert.Len(t, got, 2)
				} else {
					require.Len(t, got, 1)
					assert.Equal(t, "2", got[0].ID)
					assert.Equal(t, "1", list[0].ID, "the list given is left as it was")
				}
			})
		}
	}
}
