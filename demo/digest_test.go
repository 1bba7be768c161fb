package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoDigest: digest finance makes #general follow Finance and posts
// its weekly digest there, once; My actions here shows the clicker theirs.
func TestDemoDigest(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "digest finance", "digest finance")
	require.NoError(t, err, all)
	first := out["digest finance"]
	assert.Contains(t, first, "follow Finance", "#general follows Finance first")
	assert.Contains(t, first, "Weekly digest: Finance")
	assert.Contains(t, first, "My actions here")
	assert.Contains(t, first, "New: 1 weekly digest.")
	assert.Contains(t, out["digest finance#2"], "no digest: #general had this week's already")
}

// TestDemoDigestSaysWhyNot: when #general's own choice keeps the digest
// away, digest says that choice, not the once-a-week rule.
func TestDemoDigestSaysWhyNot(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/minutes follow finance", "/minutes follow finance digest off",
		"digest finance", "/minutes follow finance digest fri 16:30", "digest finance", "/minutes follow finance digest",
		"/minutes following", "click 3", "digest finance")
	require.NoError(t, err, all)
	assert.Contains(t, out["digest finance"], "no digest: its Weekly digest box is unticked", "digest off unticks the box")
	assert.Contains(t, out["digest finance#2"], "no digest: #general chose its own time, fri 16:30")
	assert.Contains(t, out["digest finance#3"], "no digest: its Weekly digest box is unticked")
	assert.NotContains(t, all, "had this week's already")
}

// TestDemoFollowLanguage: /minutes follow finance language de makes
// #general's posts about Finance German: the follow's confirmation, the
// list, and the digest the watcher posts; language default gives them
// back to the organisation's language.
func TestDemoFollowLanguage(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/minutes follow finance language de", "/minutes following", "digest finance")
	require.NoError(t, err, all)
	assert.Contains(t, out["/minutes follow finance language de"], "hat diesen Kanal Finance folgen lassen")
	assert.Contains(t, out["/minutes following"], "Posts in German")
	assert.Contains(t, out["digest finance"], "Wochenübersicht: Finance")
	assert.NotContains(t, out["digest finance"], "Weekly digest: Finance")

	// language default: the organisation's English again.
	out, all, err = runScript(t, env, consoleOptions{}, "/minutes follow finance language default", "/minutes suivis")
	require.NoError(t, err, all)
	assert.Contains(t, out["/minutes follow finance language default"], "in the organisation's language again: English")
	assert.Contains(t, out["/minutes suivis"], "Posts in English, the organisation's language")
}
