package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
)

// serve opens DATABASE_URL and the bot keeps follows there.
func TestServeKeepsFollowsInTheStore(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, nil)
	stop, _ := e.start()
	e.waitReady()
	send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack}
	r, err := send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/minutes", Text: "follow gov"})
	require.NoError(t, err)
	assert.Contains(t, string(r.Body), "follow *Governance*")
	require.NoError(t, stop())

	st, err := store.Open(t.Context(), e.cfg.DatabaseURL)
	require.NoError(t, err)
	defer st.Close()
	fs, err := st.FollowsInChannel(t.Context(), "C0GENERAL")
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, "governance", fs[0].CommitteeKey)
}

func TestServeStopsWhenTheStoreCannotOpen(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, func(c *Config) { c.DatabaseURL = "sqlite://" + t.TempDir() + "/missing/recordsbot.db" })
	stop, ended := e.start()
	<-ended
	err := stop()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "DATABASE_URL: ", "one line naming the variable")
}
