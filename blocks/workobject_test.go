package blocks

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// unfurlMetadata is chat.unfurl's metadata argument holding entities.
func unfurlMetadata(es ...slack.WorkObjectEntity) any {
	return slack.WorkObjectMetadata{Entities: es}
}

// sampleAction is the action of the cards and panels.
func sampleAction() *apiclient.Action {
	return &apiclient.Action{ID: "A-101", Title: "Circulate the revised budget to all trustees", Status: apiclient.StatusOpen,
		Deadline: day(2026, 3, 9), MeetingTitle: "Budget meeting", Assignee: apiclient.Person{Name: "Bob Patel", SlackID: "U0123ABCD"}}
}

// sampleActionCard is sampleAction's card, its row built as the bot
// builds it.
func sampleActionCard(l lang.Lang) ActionCardView {
	r := RowOf(sampleAction(), actions.ChannelView(actions.DueSoon), "https://bot.example.org/actions/A-101", nil)
	return ActionCardView{Lang: l, Link: "https://bot.example.org/actions/A-101", Row: r}
}

// samplePanel is sampleAction's flexpane for a viewer who sees it as v.
func samplePanel(l lang.Lang, v actions.View, history []AuditLine) ActionPanelView {
	r := RowOf(sampleAction(), v, "https://bot.example.org/actions/A-101", nil)
	return ActionPanelView{Lang: l, Row: r, History: history}
}

// The Work Object cards and flexpanes, as Slack receives them
// (chat.unfurl's metadata, entity.presentDetails's metadata or error),
// checked against @slack/types by tools/slackcheck.
func TestWorkObjectGoldens(t *testing.T) {
	t.Parallel()
	history := []AuditLine{{At: now, Actor: "U0123ABCD", Surface: "panel", Kind: "action_status", Target: "A-101", From: "open", To: "in_progress", Outcome: "done"}}
	cases := []struct {
		name   string
		render func(l lang.Lang) any
	}{
		{"workobject_minutes", func(l lang.Lang) any {
			return unfurlMetadata(MinutesCard("https://bot.example.org/minutes/M-7", minutesIn(l, sampleMinutes())))
		}},
		{"workobject_actions", func(l lang.Lang) any {
			return unfurlMetadata(ActionCard(sampleActionCard(l)),
				ActionStub(l, "https://bot.example.org/actions/A-102", "https://bot.example.org/actions/A-102", "A-102"))
		}},
		{"panel_action", func(l lang.Lang) any {
			v := actions.View{MayChange: true, MaySnooze: true, ShowAssignee: true}
			return map[string]any{"metadata": ActionPanel(samplePanel(l, v, history))}
		}},
		{"panel_action_reader", func(l lang.Lang) any {
			return map[string]any{"metadata": ActionPanel(samplePanel(l, actions.View{ShowAssignee: true}, []AuditLine{}))}
		}},
		{"panel_minutes", func(l lang.Lang) any {
			r := RowOf(sampleAction(), actions.View{}, "https://bot.example.org/actions/A-101", nil)
			refs := []ActionRow{r}
			return map[string]any{"metadata": MinutesPanel(MinutesPanelView{Minutes: minutesIn(l, sampleMinutes()),
				Agenda: []string{"1. Apologies", "2. Budget 2026/27"}, Arising: refs, Mine: refs})}
		}},
		{"panel_restricted", func(l lang.Lang) any { return map[string]any{"error": PanelError(PanelRestricted)} }},
		{"panel_trouble", func(l lang.Lang) any {
			return map[string]any{"error": PanelTrouble(l.T("wo.panel.trouble_title"), l.T("wo.panel.trouble"))}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertGolden(t, tc.name, tc.render)
		})
	}
}

// A card shows only what the page shows: no body, no agenda.
func TestMinutesCardShowsOnlyThePage(t *testing.T) {
	t.Parallel()
	got := string(readableJSON(t, MinutesCard("https://bot.example.org/minutes/M-7", minutesIn(lang.English, sampleMinutes()))))
	assert.NotContains(t, got, "Apologies")
	assert.Contains(t, got, "Finance Committee, March")
	assert.Contains(t, got, "2026-02-26")
}

// A stub names nothing of the action but its link.
func TestActionStubShowsNothing(t *testing.T) {
	t.Parallel()
	got := string(readableJSON(t, ActionStub(lang.English, "https://bot.example.org/actions/A-102", "", "A-102")))
	assert.Contains(t, got, "An action in recordsbot")
	assert.NotContains(t, got, "fields")
}

// An action's own link is on its title wherever a person would copy it:
// a row (/actions, the Home tab, a reminder) and a digest's or brief's
// line.
func TestActionLinksOnTitles(t *testing.T) {
	t.Parallel()
	withLinks := func() []ActionRow {
		rows := sampleRows()
		for i := range rows {
			rows[i].Link = "https://bot.example.org/actions/" + rows[i].ID
		}
		return rows
	}
	assertGolden(t, "actions_links", func(l lang.Lang) any {
		return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.open"), Rows: withLinks(), Total: 3}))
	})
	assertGolden(t, "digest_links", func(l lang.Lang) any {
		d := sampleDigest()
		d.Lang = l
		for _, rows := range [][]ActionRow{d.Groups[0].Items, d.Groups[1].Items, d.Completed, d.NewlyAssigned, d.NewlyOverdue} {
			for i := range rows {
				rows[i].Link = "https://bot.example.org/actions/" + rows[i].ID
			}
		}
		return posted(DigestMessage(d), DigestMetadata("digest/C0FIN/finance & <audit>/2026-03-02", "finance & <audit>"))
	})
	row := string(readableJSON(t, payload(Actions(ActionList{Lang: lang.English, Rows: withLinks()[:1]}))))
	assert.Contains(t, row, "*<https://bot.example.org/actions/A-101|Circulate the revised budget to all trustees>*")
}
