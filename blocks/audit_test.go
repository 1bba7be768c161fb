package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
)

func sampleTrail() []AuditLine {
	at := time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC)
	return []AuditLine{
		{At: at, Actor: "U0BOB", Surface: "command", Kind: "action.status", Target: "A-101", From: "open", To: "complete", Outcome: "refused: not yours"},
		{At: at.Add(time.Minute), Actor: "U0123ABCD", Surface: "reminder", Kind: "action.status", Target: "A-101", From: "open", To: "complete", Outcome: "requested"},
		{At: at.Add(time.Minute), Actor: "U0123ABCD", Surface: "reminder", Kind: "action.status", Target: "A-101", From: "open", To: "complete", Outcome: "done"},
	}
}

func TestAuditGolden(t *testing.T) {
	t.Parallel()
	trail := sampleTrail()
	newestFirst := []AuditLine{
		{At: now, Actor: "U0ADMIN", Surface: "command", Kind: "follow", Target: "C0GENERAL/audit & risk", To: "Audit & Risk", Outcome: "done"},
		trail[2], trail[1], trail[0],
		{At: now.Add(-48 * time.Hour), Surface: "recordsbot", Kind: "checkpoint", Target: "41", From: "9f2c…", To: "40 pruned", Outcome: "done"},
	}
	cases := []struct {
		name   string
		render func(l lang.Lang) any
	}{
		{"audit_history", func(l lang.Lang) any { return payload(History(l, "A-101", "Circulate the <revised> budget", trail)) }},
		{"audit_history_empty", func(l lang.Lang) any { return payload(History(l, "A-999", "", nil)) }},
		{"home_recent_changes", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0ADMIN", RecentChanges: &RecentChanges{Lines: newestFirst, More: 37}})
		}},
		{"home_recent_changes_down", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0ADMIN", RecentChanges: &RecentChanges{Error: l.T("audit.recent.down")}})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertGolden(t, tc.name, tc.render)
			got := tc.render(lang.English)
			assert.NoError(t, checkAny(got))
			assertEncodesAsJSON(t, blocksOf(t, got))
		})
	}
}

// A long trail keeps its newest entries within Slack's section limit.
func TestHistoryKeepsTheNewestThatFit(t *testing.T) {
	t.Parallel()
	var lines []AuditLine
	for i := range 200 {
		lines = append(lines, AuditLine{At: now.Add(time.Duration(i) * time.Minute), Actor: "U0123ABCD", Surface: "home",
			Kind: "action.status", Target: "A-1", From: "open", To: strings.Repeat("x", 10) + string(rune('a'+i%26)), Outcome: "done"})
	}
	m := History(lang.English, "A-1", "", lines)
	assert.NoError(t, CheckMessage(m))
	assert.Contains(t, readableString(t, m), Date(lang.English, now.Add(199*time.Minute), true), "the newest is kept")
	assert.NotContains(t, readableString(t, m), Date(lang.English, now, true), "the oldest is left off")
}

func readableString(t *testing.T, m Message) string { return string(readableJSON(t, payload(m))) }

// TestAuditOutcomeInTheReadersLanguage: the trail stores outcome codes;
// a reader sees them in their language, and a code a newer version wrote
// as stored.
func TestAuditOutcomeInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	fr, err := lang.Parse("fr")
	require.NoError(t, err)
	assert.Equal(t, "faite", outcomeText(fr, "done"))
	assert.Equal(t, "refusée : bouton périmé", outcomeText(fr, "refused: stale button"))
	assert.Equal(t, "refused: stale button", outcomeText(lang.English, "refused: stale button"))
	assert.Equal(t, "later &amp; newer", outcomeText(fr, "later & newer"))
}
