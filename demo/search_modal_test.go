package demo

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConsoleSearchesFromTheHomeTab(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	got, _, err := runScript(t, env, consoleOptions{}, "home")
	require.NoError(t, err)
	n := regexp.MustCompile(`\[(\d+)\] Search minutes`).FindStringSubmatch(got["home"])
	require.NotNil(t, n, "the Home tab has a Search minutes button: %s", got["home"])

	got, out, err := runScript(t, env, consoleOptions{}, "home", "click "+n[1], "search", "search room hire", "search zanzibar")
	require.NoError(t, err, out)
	assert.Contains(t, got["click "+n[1]], "window “Search minutes”")
	assert.Contains(t, got["search"], "Under the input, Slack shows: Type the words")
	assert.Contains(t, got["search room hire"], "types “room hire” and presses Search")
	assert.Contains(t, got["search room hire"], "Minutes mentioning “room hire”")
	assert.Contains(t, got["search room hire"], "] Read (")
	assert.Contains(t, got["search room hire"], "[ room hire ]", "the words stay in the input")
	assert.Contains(t, got["search zanzibar"], "No minutes mention “zanzibar”.")
}

// The Home tab's Watch a topic window is typed into as Search minutes is,
// and the console names the window's own button.
func TestConsoleWatchesATopicFromTheHomeTab(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	got, _, err := runScript(t, env, consoleOptions{}, "home")
	require.NoError(t, err)
	n := regexp.MustCompile(`\[(\d+)\] Watch a topic`).FindStringSubmatch(got["home"])
	require.NotNil(t, n, "the Home tab has a Watch a topic button: %s", got["home"])

	got, out, err := runScript(t, env, consoleOptions{}, "home", "click "+n[1], "search school transport")
	require.NoError(t, err, out)
	assert.Contains(t, got["click "+n[1]], "window “Watch a topic”")
	typed := got["search school transport"]
	assert.Contains(t, typed, "types “school transport” and presses Watch")
	assert.NotContains(t, typed, "presses Search", "the window's button is Watch")
	assert.Contains(t, typed, "“school transport”", "the Home tab lists the new watch")
}
