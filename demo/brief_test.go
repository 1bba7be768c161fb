package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoBrief: brief finance makes #general follow Finance and posts
// the brief of its next meeting there, with its agenda, once.
func TestDemoBrief(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "brief finance", "brief finance")
	require.NoError(t, err, all)
	first := out["brief finance"]
	assert.Contains(t, first, "follow Finance", "#general follows Finance first")
	assert.Contains(t, first, "Brief: ")
	assert.Contains(t, first, "Agenda")
	assert.Contains(t, first, "posted 1 pre-meeting brief,")
	assert.Contains(t, out["brief finance#2"], "no brief: #general has this meeting's already")
}
