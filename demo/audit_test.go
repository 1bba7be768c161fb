package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemoHistory(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/actions", "click 1")
	require.NoError(t, err, all)
	target := aliceAction(t, env, titleAbove(t, out["/actions"], "[1] Complete"))

	out, all, err = runScript(t, env, consoleOptions{}, "history "+target.ID)
	require.NoError(t, err, all)
	got := out["history "+target.ID]
	assert.Contains(t, got, "History of")
	assert.Contains(t, got, "@alice · `action.status` "+target.ID+": open → complete · button on a reply · requested")
	assert.Contains(t, got, "@alice · `action.status` "+target.ID+": open → complete · button on a reply · done")

	_, _, err = runScript(t, env, consoleOptions{}, "history")
	assert.Error(t, err, "history needs an ID")
}
