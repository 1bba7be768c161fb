package actions_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
)

func TestIsID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"42", "act_7", "FIN-2026-10/1", "A-1", "mtg:9.2", "Ä-1"} {
		assert.True(t, actions.IsID(id), id)
	}
	for _, s := range []string{"", "two words", "<@U0ALICE>", "@alice", "#general", `=HYPERLINK("x")`, "-1", "/etc", "a\x00b", "a\tb", strings.Repeat("x", 101)} {
		assert.False(t, actions.IsID(s), "%q", s)
	}
}
