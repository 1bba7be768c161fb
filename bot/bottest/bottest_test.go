package bottest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

// TestStartAnswersASignedCommand drives the bot bottest starts as Slack
// would: a signed /actions from alice gets her actions, and a request
// signed with another secret is refused.
func TestStartAnswersASignedCommand(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Now())
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	b := bottest.Start(t, w, nil, bot.Config{SigningSecret: "s3cret"}, bot.Deps{})

	alice := w.Users[0]
	require.Equal(t, "alice", alice.Name)
	resp, err := b.Send.SlashCommand(t.Context(), slacktest.Command{User: alice, Command: "/actions", Text: "all"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.Status)
	assert.Contains(t, string(resp.Body), "Circulate the revised Q3 budget forecast to members", "one of alice's actions")

	forged := &slacktest.Sender{URL: b.Send.URL, Secret: "not-the-secret"}
	resp, err = forged.SlashCommand(t.Context(), slacktest.Command{User: alice, Command: "/actions"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, resp.Status)
}
