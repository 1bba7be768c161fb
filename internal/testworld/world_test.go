package testworld_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

func TestSlackUsers(t *testing.T) {
	t.Parallel()
	got := sampleorg.SlackUsers([]recordstest.Person{
		{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"},
		{Name: "Grace Gómez", Email: "grace@example.org", SlackID: "U0GRACE"},
		{Name: "Prince", Email: "p@example.org", SlackID: "U0P"},
	})
	assert.Equal(t, []slacktest.User{
		{ID: "U0ALICE", Name: "alice", RealName: "Alice Adams", Email: "alice@example.org"},
		{ID: "U0GRACE", Name: "grace", RealName: "Grace Gómez", Email: "grace@example.org"},
		{ID: "U0P", Name: "prince", RealName: "Prince", Email: "p@example.org"},
	}, got)
}

// TestStart checks the world the rigs rely on: the records service serves
// the dataset to the default key, and Slack knows its people by email,
// which is how the bot matches a Slack user to an assignee.
func TestStart(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Date(2026, time.November, 22, 9, 0, 0, 0, time.UTC))
	require.NotEmpty(t, data.People)
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People), recordstest.WithPageSize(5))

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, w.Records.URL+"/actions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+recordstest.DefaultKey)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	a, ok := w.Records.Action("FIN-2026-10/1")
	require.True(t, ok, "the action tests assert on is there")
	assert.Equal(t, "alice@example.org", a.AssigneeEmail)

	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))
	u, err := api.GetUserByEmailContext(t.Context(), "alice@example.org")
	require.NoError(t, err)
	assert.Equal(t, "U0ALICE", u.ID)
	assert.Equal(t, "alice", u.Name)
}

// TestWithGuest checks the test world's guest: a person of the dataset,
// with actions, whom Slack calls a guest and nobody else.
func TestWithGuest(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Date(2026, time.November, 22, 9, 0, 0, 0, time.UTC))
	w := testworld.Start(t, data, testworld.WithGuest(sampleorg.SlackUsers(data.People)))
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))
	guest, err := api.GetUserInfoContext(t.Context(), testworld.GuestID)
	require.NoError(t, err)
	assert.True(t, guest.IsRestricted, "the guest is a multi-channel guest")
	assert.False(t, guest.IsUltraRestricted)
	member, err := api.GetUserInfoContext(t.Context(), "U0ALICE")
	require.NoError(t, err)
	assert.False(t, member.IsRestricted, "everyone else is a full member")
	hers := 0
	for _, a := range w.Records.Actions() {
		if a.AssigneeEmail == guest.Profile.Email {
			hers++
		}
	}
	assert.Positive(t, hers, "the guest has actions in the records")
}
