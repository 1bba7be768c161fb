package blocks

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

func textOf(b any) string { j, _ := json.Marshal(b); return string(j) }

func TestBriefMessage(t *testing.T) {
	t.Parallel()
	date := time.Date(2026, 3, 12, 18, 30, 0, 0, time.UTC)
	b := Brief{Committee: "Finance", Title: "Finance Committee, March", Date: date, DateHasTime: true, Location: "Room <2>",
		Agenda: []BriefAgendaItem{{Number: "1", Title: "Apologies"}, {Number: "2", Title: "Budget *draft*"}},
		Open: []DigestGroup{
			{Name: "Alice Jones", Items: []ActionRow{channelRow(apiclient.Action{ID: "A-1", Title: "Circulate the accounts", Status: apiclient.StatusOpen, Assignee: apiclient.Person{Name: "Alice Jones"}, Deadline: day(2026, 3, 9)}, actions.Overdue)}},
			{Name: "Bob Patel", Items: []ActionRow{channelRow(apiclient.Action{ID: "A-3", Title: "Chase the auditors", Status: apiclient.StatusInProgress, Assignee: apiclient.Person{Name: "Bob Patel"}}, actions.NotDue)}},
		},
		LatestMinutes: "Finance Committee, February", LatestURL: "https://bot.example.org/minutes/M-2",
		CalendarURL: "https://bot.example.org/calendar/meeting/M-3.ics"}
	m := BriefMessage(b)
	require.NoError(t, CheckMessage(m))
	for _, b := range m.Blocks {
		assert.NotContains(t, textOf(b), "<@", "a brief pings nobody")
	}
	assertGoldenIn(t, "brief", func(l lang.Lang) any {
		b := b
		b.Lang = l
		return posted(BriefMessage(b), BriefMetadata("brief/C0FIN/finance/M-3", "M-3", date))
	})

	empty := BriefMessage(Brief{Committee: "Finance", Title: "Finance Committee, April", Date: day(2026, 4, 9)})
	require.NoError(t, CheckMessage(empty))
	assertGolden(t, "brief_empty", func(l lang.Lang) any {
		return posted(BriefMessage(Brief{Lang: l, Committee: "Finance", Title: "Finance Committee, April", Date: day(2026, 4, 9)}),
			BriefMetadata("brief/C0FIN/finance/M-4", "M-4", day(2026, 4, 9)))
	})
}

// An agenda item's own number is its bullet; an item without one gets "•".
func TestBriefAgendaNumbersAreTheBullets(t *testing.T) {
	t.Parallel()
	m := BriefMessage(Brief{Committee: "Finance", Title: "Finance Committee, May", Date: day(2026, 5, 14),
		Agenda: []BriefAgendaItem{{Number: "1", Title: "Apologies"}, {Title: "Any other business"}}})
	require.NoError(t, CheckMessage(m))
	var all string
	for _, b := range m.Blocks {
		all += textOf(b)
	}
	assert.Contains(t, all, `\n1. Apologies\n• Any other business`)
	assert.NotContains(t, all, "• 1.")
}
