package demo

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoBrief: brief finance makes #general follow Finance and posts
// the brief of its next meeting there, with its agenda and one heading
// over the actions still open, once.
func TestDemoBrief(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "brief finance", "brief finance")
	require.NoError(t, err, all)
	first := out["brief finance"]
	assert.Contains(t, first, "follow Finance", "#general follows Finance first")
	assert.Contains(t, first, "Brief: ")
	assert.Contains(t, first, "Agenda")
	assert.Equal(t, 1, strings.Count(first, "Actions still open"), "one heading over everyone's open actions:\n%s", first)
	assert.NotContains(t, first, "Still open:", "not the heading again per person")
	assert.Regexp(t, `─+\n│ Latest minutes: `, first, "a divider sets the links apart from the last list")
	assert.Contains(t, first, "New: 1 pre-meeting brief.")
	assert.Contains(t, out["brief finance#2"], "no brief: #general has this meeting's already")
}
