package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// A store that cannot be opened at start-up (PostgreSQL not up yet after a
// node restart; here a SQLite directory not there yet) does not stop
// serve: /readyz is ready, commands that need no store answer, the others
// say the database is unavailable, the gauge says store 0, and once the
// store can be opened, the background retry opens it and follows work.
func TestServeStartsWhileTheStoreIsDown(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "not-yet")
	e := newServeEnv(t, func(c *Config) { c.DatabaseURL = "sqlite://" + dir + "/recordsbot.db" })
	e.start()
	e.waitDependency("store", 0)
	code, body, err := e.get("/readyz")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code, "the process can take requests: %s", body)

	send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack}
	r, err := send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/minutes", Text: "follow gov"})
	require.NoError(t, err)
	assert.Contains(t, string(r.Body), "I can't reach my database right now")
	r, err = send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/actions", Text: "help"})
	require.NoError(t, err)
	assert.NotContains(t, string(r.Body), "database", "what needs no store still answers")
	assert.Equal(t, 1, strings.Count(e.logs.String(), `"msg":"dependency down","dependency":"store"`), "the outage is logged once:\n%s", e.logs)

	require.NoError(t, os.Mkdir(dir, 0o700))
	e.waitDependency("store", 1)
	r, err = send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/minutes", Text: "follow gov"})
	require.NoError(t, err)
	assert.Contains(t, string(r.Body), "follow *Governance*")
	assert.Contains(t, e.logs.String(), `"msg":"dependency up","dependency":"store"`)
}

// /readyz says whether this process can take requests, never a
// dependency's health nor its address: with the records service down it
// stays ready and shows no URL; the gauge tells the outage.
func TestReadyzIsAboutThisProcess(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, nil)
	e.start()
	e.waitReady()
	e.records.Close()
	e.waitDependency("records", 0)
	code, body, err := e.get("/readyz")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ready\n", body)
	assert.NotContains(t, body, e.records.URL)
	assert.NotContains(t, body, e.cfg.DatabaseURL)
	assert.Contains(t, e.logs.String(), `"msg":"dependency down","dependency":"records","reason":"records api:`)
}

// TestServeStoreGaugeTellsTheTruth: recordsbot_dependency_up{dependency=
// "store"} goes to 0 when the SQLite file is deleted under a running bot
// (no empty database is made in its place, which kept it at 1 while the
// follows were gone), and as soon as a request's failure makes the log say
// the store is down, not at the next check (here an hour away). A
// database put back at the path brings it back.
func TestServeStoreGaugeTellsTheTruth(t *testing.T) {
	t.Parallel()
	removeDB := func(path string) {
		for _, f := range []string{path, path + "-wal", path + "-shm"} {
			_ = os.Remove(f)
		}
	}
	t.Run("as the log says it", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "recordsbot.db")
		e := newServeEnv(t, func(c *Config) { c.DatabaseURL = "sqlite://" + path })
		e.checkEvery = time.Hour
		e.start()
		e.waitReady()
		send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack}
		r, err := send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/minutes", Text: "follow gov"})
		require.NoError(t, err)
		require.Contains(t, string(r.Body), "follow *Governance*")

		removeDB(path)
		r, err = send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/minutes", Text: "following"})
		require.NoError(t, err)
		assert.Contains(t, string(r.Body), "I can't reach my database right now", "the follows are not silently gone")
		require.Contains(t, e.logs.String(), `"msg":"dependency down","dependency":"store"`)
		_, body, err := e.scrape()
		require.NoError(t, err)
		assert.Contains(t, body, `recordsbot_dependency_up{dependency="store"} 0`, "the gauge says what the log says, at once")
		_, err = os.Stat(path)
		assert.ErrorIs(t, err, os.ErrNotExist, "no empty database in its place")
	})
	t.Run("by the checks", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "recordsbot.db")
		e := newServeEnv(t, func(c *Config) { c.DatabaseURL = "sqlite://" + path })
		e.start()
		e.waitReady()
		removeDB(path)
		e.waitDependency("store", 0)
		assert.Contains(t, e.logs.String(), "was removed (put it back, or restart to start an empty one)")

		other := filepath.Join(t.TempDir(), "restored.db")
		st, err := store.Open(t.Context(), "sqlite://"+other)
		require.NoError(t, err)
		require.NoError(t, st.Close())
		require.NoError(t, os.Rename(other, path))
		e.waitDependency("store", 1)
		assert.Contains(t, e.logs.String(), `"msg":"dependency up","dependency":"store"`)
	})
}
