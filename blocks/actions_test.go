package blocks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

// controls describes the status controls of a row, one string per
// element: "button <label> <action_id> <value> [style]" or "overflow
// <action_id> [<label>=<value> ...]". nil means no buttons block.
func controls(t *testing.T, blocks []slack.Block, id string) []string {
	t.Helper()
	var found slack.Block
	for _, b := range blocks {
		if b.ID() == BlockActionButtons+id {
			found = b
		}
	}
	if found == nil {
		return nil
	}
	raw, err := json.Marshal(found)
	require.NoError(t, err)
	type text struct{ Text string }
	var block struct {
		Elements []struct {
			Type, Value, Style string
			ActionID           string `json:"action_id"`
			Text               text
			Options            []struct {
				Text  text
				Value string
			}
		}
	}
	require.NoError(t, json.Unmarshal(raw, &block))
	var out []string
	for _, e := range block.Elements {
		switch e.Type {
		case "button":
			out = append(out, strings.TrimSpace(fmt.Sprintf("button %s %s %s %s", e.Text.Text, e.ActionID, e.Value, e.Style)))
		case "overflow":
			var opts []string
			for _, o := range e.Options {
				opts = append(opts, o.Text.Text+"="+o.Value)
			}
			out = append(out, fmt.Sprintf("overflow %s %v", e.ActionID, opts))
		default:
			out = append(out, e.Type)
		}
	}
	return out
}

func TestStatusControls(t *testing.T) {
	t.Parallel()
	long := "L" + strings.Repeat("x", 139) // "cancelled|"+long+"|" is 151: too long for an option
	cases := []struct {
		name      string
		id        string
		status    string
		context   string
		canChange bool
		want      []string
	}{
		{"open", "A-1", "open", "", true, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"button Defer status:deferred deferred|A-1|",
			// An overflow needs two options, so the lone Cancel is a button.
			"button Mark cancelled status:cancelled cancelled|A-1|",
		}},
		{"in progress", "A-1", "in_progress", "", true, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Defer status:deferred deferred|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| Back to open=open|A-1|]",
		}},
		{"deferred", "A-1", "deferred", "", true, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| Back to open=open|A-1|]",
		}},
		{"complete", "A-1", "complete", "", true, []string{"button Reopen status:open open|A-1|"}},
		{"cancelled", "A-1", "cancelled", "", true, []string{"button Reopen status:open open|A-1|"}},
		{"unknown", "A-1", "on_hold", "", true, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| Back to open=open|A-1|]",
		}},
		{"empty status", "A-1", "", "", true, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| Back to open=open|A-1|]",
		}},
		{"id too long for an option value", long, "in_progress", "", true, []string{
			"button Complete status:complete complete|" + long + "| primary",
			"button Defer status:deferred deferred|" + long + "|",
			"button Mark cancelled status:cancelled cancelled|" + long + "|",
			"button Back to open status:open open|" + long + "|",
		}},
		{"context carried", "A-1", "complete", "q=open&o=10", true, []string{"button Reopen status:open open|A-1|q=open&o=10"}},
		{"context with a bar", "A-1", "complete", "a|b", true, nil},
		{"value too long for a button", "A-1", "complete", strings.Repeat("c", MaxButtonValue), true, nil},
		{"cannot change", "A-1", "open", "", false, nil},
		{"no id", "", "open", "", true, nil},
		{"id too long for a block_id", strings.Repeat("x", MaxBlockID), "open", "", true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			blocks := ActionRowBlocks(ActionRow{ID: tc.id, Title: "T", Status: tc.status, CanChange: tc.canChange, Context: tc.context})
			assert.Equal(t, tc.want, controls(t, blocks, tc.id))
			require.NoError(t, Check(blocks))
			if linkable(ActionRow{ID: tc.id}) {
				assert.Equal(t, BlockActionRow+tc.id, blocks[0].ID(), "the row keeps its block_id with or without buttons")
			} else {
				assert.Len(t, blocks, 1)
				assert.Empty(t, blocks[0].ID(), "a row that cannot be linked has no block_id")
			}
		})
	}
}

func TestActionRowText(t *testing.T) {
	t.Parallel()
	base := sampleRows()[0]
	cases := []struct {
		name string
		edit func(*ActionRow)
		want string
	}{
		{"plain", func(*ActionRow) {}, "*Circulate the revised budget to all trustees*\nDue <!date^1773057600^{date_short_pretty}|Mar 9, 2026> · Open · Finance · Budget meeting"},
		{"untitled, no deadline, meeting same as committee", func(r *ActionRow) {
			r.Title, r.Deadline, r.Meeting = " \n", time.Time{}, "Finance"
		}, "*Untitled action*\nNo deadline · Open · Finance"},
		{"statuses in words", func(r *ActionRow) { r.Status = "in_progress" }, "In progress"},
		{"unknown status as is", func(r *ActionRow) { r.Status = "on <hold>" }, "· on &lt;hold&gt; ·"},
		{"title on one line", func(r *ActionRow) { r.Title = "two\nlines\t here" }, "*two lines here*"},
		{"assignee", func(r *ActionRow) { r.Assignee = "Sam & Jo" }, "· Assigned to Sam &amp; Jo"},
		{"change by a user", func(r *ActionRow) {
			r.Changed = &Change{By: "U0123ABCD", At: now, Status: "in_progress"}
		}, "\n_Started by <@U0123ABCD> <!date^1772461800^{date_short_pretty} at {time}|Mar 2, 2026 at 14:30 UTC>_"},
		{"change by a forged id", func(r *ActionRow) {
			r.Changed = &Change{By: "U1> <!channel", Status: "open"}
		}, "\n_Moved back to open by U1&gt; &lt;!channel_"},
		{"long title shortened", func(r *ActionRow) { r.Title = strings.Repeat("é", 1000) }, "*" + strings.Repeat("é", rowTitleMax-1) + "…*"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := base
			tc.edit(&r)
			b, ok := ActionRowBlocks(r)[0].(*slack.SectionBlock)
			require.True(t, ok)
			assert.Contains(t, b.Text.Text, tc.want)
		})
	}
}

// botToken matches the control sequences the builders write themselves.
var botToken = regexp.MustCompile(`<!date\^\d+\^\{date_short_pretty\}( at \{time\})?\|[^<>]*>|<@[UW][A-Z0-9]+>|<https://records\.example\.org/[^|<>\s]*\|[^<>]*>`)

// mrkdwnTexts returns every mrkdwn text in v's JSON, and whether each such
// text object is verbatim.
func mrkdwnTexts(t *testing.T, v any) (texts []string, allVerbatim bool) {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var generic any
	require.NoError(t, json.Unmarshal(raw, &generic))
	allVerbatim = true
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if v["type"] == "mrkdwn" {
				s, _ := v["text"].(string)
				texts = append(texts, s)
				allVerbatim = allVerbatim && v["verbatim"] == true
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(generic)
	return texts, allVerbatim
}

// TestInjection is the mrkdwn injection property: record and user text,
// however hostile, never becomes a mention, link or command. Only the
// sequences the bot writes itself (dates, its own links) may remain.
func TestInjection(t *testing.T) {
	t.Parallel()
	const evil = "<!channel> <@U123> & co <https://evil.example|click> <#C1> <!subteam^S1> &lt;"
	row := ActionRow{
		ID: "A-1", Title: evil, Status: evil, Meeting: evil, Committee: evil, Assignee: evil,
		Deadline: now, CanChange: true, Changed: &Change{By: evil, At: now, Status: evil},
	}
	minutesView := MinutesView{
		Display: minutes.Display{
			MeetingID: "M-1", Title: evil, Committee: evil, Date: now, Body: evil + "\n\n" + evil,
			URL: "https://records.example.org/m/1",
		},
		Shareable: true, SharedBy: evil,
	}
	meeting := MeetingRow{
		ID: "M-1", Reference: evil, Title: evil, Committee: evil, Date: now, Location: evil,
		Agenda: []AgendaRow{{Number: evil, Title: evil, Description: evil}},
	}
	list := ActionList{Title: evil, Rows: []ActionRow{row}, Total: 5, Empty: evil}
	outputs := []struct {
		name string
		v    any
	}{
		{"actions", payload(Actions(list))},
		{"actions empty", payload(Actions(ActionList{Title: evil, Empty: evil}))},
		{"minutes", payload(Minutes(minutesView))},
		{"meetings", payload(Meetings(MeetingList{Title: evil, Meetings: []MeetingRow{meeting}}))},
		{"meetings empty", payload(Meetings(MeetingList{Title: evil, Empty: evil}))},
		{"meeting", payload(Meeting(meeting))},
		{"home", Home(HomeView{User: evil, Actions: list, Minutes: []MinutesView{minutesView}, Unmapped: Escape(evil), RecordsError: Escape(evil)})}, // notes are mrkdwn: the bot escapes what they quote
		{"home empty", Home(HomeView{Actions: ActionList{Empty: evil}})},
		{"reminder", payload(ReminderMessage(Reminder{User: evil, Overdue: []ActionRow{row}, DueSoon: []ActionRow{row}}))},
		{"unfurl", UnfurlMinutes(minutesView)},
	}
	for _, tc := range outputs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			texts, verbatim := mrkdwnTexts(t, tc.v)
			if m, ok := tc.v.(map[string]any); ok {
				texts = append(texts, m["text"].(string)) // the fallback is mrkdwn too
			}
			require.NotEmpty(t, texts)
			assert.True(t, verbatim, "every mrkdwn text object is verbatim")
			for _, s := range texts {
				assertEscaped(t, botToken.ReplaceAllString(s, ""))
			}
		})
	}
}

// rawMessage is a message as Slack sends it back: sample rows, plus blocks
// this package never builds, in Slack's own spacing.
func rawMessage(t *testing.T, rows []ActionRow) []json.RawMessage {
	t.Helper()
	msg := toRaw(t, Actions(ActionList{Title: "Your actions", Rows: rows, Total: len(rows)}).Blocks)
	future := json.RawMessage(`{ "type": "future_block", "block_id": "x", "fancy": [1, 2] }`)
	magic := json.RawMessage(`{"type":"actions","block_id":"y","elements":[{"type":"magic_button","action_id":"m","sparkle":true}]}`)
	msg = append(msg[:2:2], append([]json.RawMessage{future}, msg[2:]...)...)
	return append(msg, magic)
}

func TestReplaceRow(t *testing.T) {
	t.Parallel()
	fixed := sampleRows()
	fixed[2].CanChange = false // A-103 starts without buttons

	cases := []struct {
		name        string
		row         func() ActionRow
		wantButtons bool
		wantLen     int // blocks in the result; the original has 8
	}{
		{"status change swaps the buttons", func() ActionRow {
			r := fixed[0]
			r.Status = "complete"
			r.Changed = &Change{By: "U0123ABCD", At: now, Status: "complete"}
			return r
		}, true, 8},
		{"buttons added after the section", func() ActionRow {
			r := fixed[2]
			r.CanChange = true
			return r
		}, true, 9},
		{"buttons dropped", func() ActionRow {
			r := fixed[1]
			r.CanChange = false
			return r
		}, false, 7},
		{"no buttons before or after", func() ActionRow {
			r := fixed[2]
			r.Title = "Retitled"
			return r
		}, false, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			msg := rawMessage(t, fixed)
			require.Equal(t, 8, len(msg))
			r := tc.row()
			out, ok := ReplaceRow(msg, r)
			require.True(t, ok)
			require.Equal(t, tc.wantLen, len(out), "blocks")

			rowIDs := map[string]bool{BlockActionRow + r.ID: true, BlockActionButtons + r.ID: true}
			var keptBefore, keptAfter []string // strings: readable diffs, same bytes
			for _, b := range msg {
				if !rowIDs[rawBlockID(b)] {
					keptBefore = append(keptBefore, string(b))
				}
			}
			at := -1
			for i, b := range out {
				if rowIDs[rawBlockID(b)] {
					if at < 0 {
						at = i
					}
					continue
				}
				keptAfter = append(keptAfter, string(b))
			}
			assert.Equal(t, keptBefore, keptAfter, "every other block byte for byte, in order")

			fresh := toRaw(t, ActionRowBlocks(r))
			require.GreaterOrEqual(t, at, 0)
			assert.JSONEq(t, string(fresh[0]), string(out[at]))
			if tc.wantButtons {
				require.Len(t, fresh, 2)
				assert.JSONEq(t, string(fresh[1]), string(out[at+1]), "buttons right after the section")
			} else {
				assert.Len(t, fresh, 1)
				assert.NotEqual(t, BlockActionButtons+r.ID, rawBlockID(out[at+1]))
			}
			assert.NoError(t, Check(RawBlocks(out)))
		})
	}
}

func TestReplaceRowNotFound(t *testing.T) {
	t.Parallel()
	buttonsOnly := []json.RawMessage{json.RawMessage(`{"type":"actions","block_id":"action-buttons:A-1","elements":[]}`)}
	cases := []struct {
		name string
		msg  []json.RawMessage
		row  ActionRow
	}{
		{"other id", rawMessage(t, sampleRows()), ActionRow{ID: "A-999", CanChange: true}},
		{"empty id", rawMessage(t, sampleRows()), ActionRow{}},
		{"only the buttons block", buttonsOnly, ActionRow{ID: "A-1"}},
		{"empty message", nil, ActionRow{ID: "A-1"}},
		{"not objects", []json.RawMessage{json.RawMessage(`"action:A-1"`), json.RawMessage(`7`), json.RawMessage(`null`)}, ActionRow{ID: "A-1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, ok := ReplaceRow(tc.msg, tc.row)
			assert.False(t, ok)
			assert.Nil(t, out)
		})
	}
}

func TestRawBlock(t *testing.T) {
	t.Parallel()
	msg := []json.RawMessage{
		json.RawMessage(`{"type":"future_block","block_id":"x","fancy":[1,2]}`),
		json.RawMessage(`{"type":"divider"}`),
		json.RawMessage(`[1]`),
	}
	blocks := RawBlocks(msg)
	require.Len(t, blocks, 3)
	assert.Equal(t, slack.MessageBlockType("future_block"), blocks[0].BlockType())
	assert.Equal(t, "x", blocks[0].ID())
	assert.Equal(t, slack.MBTDivider, blocks[1].BlockType())
	assert.Empty(t, blocks[1].ID())
	assert.Empty(t, blocks[2].BlockType(), "not an object: no type")

	// slack-go marshals a message's blocks through slack.Blocks; raw ones
	// must come out untouched next to its own.
	got, err := json.Marshal(slack.Blocks{BlockSet: append(blocks[:2:2], slack.NewDividerBlock())})
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":"future_block","block_id":"x","fancy":[1,2]},{"type":"divider"},{"type":"divider"}]`, string(got))

	_, err = json.Marshal(slack.Blocks{BlockSet: []slack.Block{RawBlock(`{"type":`)}})
	assert.Error(t, err, "invalid JSON is refused, not sent")
	got, err = json.Marshal(RawBlock(nil))
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))
}

func FuzzReplaceRow(f *testing.F) {
	f.Add([]byte(`[{"type":"section","block_id":"action:A-1","text":{"type":"mrkdwn","text":"x"}},{"type":"actions","block_id":"action-buttons:A-1","elements":[]}]`), "A-1", "open", true)
	f.Add([]byte(`[{"block_id":"action:A-1"},{"block_id":7},null,"s",[],{"type":"future_block","fancy":[1,2]}]`), "A-1", "complete", false)
	f.Add([]byte(`[{"block_id":"action:"}]`), "", "", true)
	f.Fuzz(func(t *testing.T, data []byte, id, status string, canChange bool) {
		var msg []json.RawMessage
		if json.Unmarshal(data, &msg) != nil {
			return
		}
		r := ActionRow{ID: id, Title: "T", Status: status, CanChange: canChange}
		out, ok := ReplaceRow(msg, r)
		if !ok {
			assert.Nil(t, out)
			return
		}
		found := false
		for _, b := range out {
			assert.True(t, json.Valid(b), "block %q is not JSON", b)
			found = found || rawBlockID(b) == BlockActionRow+id
		}
		assert.Equal(t, linkable(ActionRow{ID: id}), found, "the fresh row carries its block_id when it can")
	})
}

// The dry run's text shows each reminder as its reader will read it: the
// rows of the DM in their language, the same facts as the DM's rows, in
// plain text; only the operator's first line is English.
func TestReminderText(t *testing.T) {
	t.Parallel()
	rows := sampleRows()
	r := Reminder{
		User:    "U0123ABCD",
		Days:    7,
		Overdue: []ActionRow{{ID: "A-9", Title: "Send <the> letter & file", Status: "open", Deadline: day(2026, 2, 20), Overdue: true, Committee: "Finance"}},
		DueSoon: rows[:2],
	}
	want := `Reminder for U0123ABCD
You have 1 overdue action and 2 due within 7 days.

Overdue
  - Send <the> letter & file (Due Feb 20, 2026, Open, Finance) [A-9]

Due soon
  - Circulate the revised budget to all trustees (Due Mar 9, 2026, Open, Finance, Budget meeting) [A-101]
  - Book the hall for the AGM (Due Mar 4, 2026 at 17:00 UTC, In progress, Events, Assigned to Sam Lee) [A-102]
`
	assert.Equal(t, want, ReminderText(r))
	assert.Equal(t, "Reminder for U1\nYou have no overdue actions and none due soon.\n", ReminderText(Reminder{User: "U1"}))

	fr, err := lang.Parse("fr")
	require.NoError(t, err)
	r.Lang = fr
	got := ReminderText(r)
	assert.Contains(t, got, "\nEn retard\n  - Send <the> letter & file (Échéance 20 févr. 2026, Ouverte, Finance) [A-9]\n")
	assert.Contains(t, got, "(Échéance 4 mars 2026 à 17:00 UTC, En cours, Events, Confiée à Sam Lee) [A-102]")

	r.Lang = lang.Pseudo
	r.Overdue[0].Title = ""
	for line := range strings.Lines(ReminderText(r)) {
		if strings.HasPrefix(line, "Reminder for ") {
			continue // the operator's line
		}
		assert.NotRegexp(t, `\b(Due|Open|Overdue|Assigned|Untitled|In progress)\b`, line, "a reader's words escaped the catalogue")
	}
}

func TestReminderSummary(t *testing.T) {
	t.Parallel()
	one := []ActionRow{{ID: "A"}}
	two := []ActionRow{{ID: "A"}, {ID: "B"}}
	cases := []struct {
		name string
		r    Reminder
		want string
	}{
		{"both", Reminder{Overdue: two, DueSoon: one, Days: 1}, "You have *2 overdue actions* and *1* due within 1 day."},
		{"overdue only", Reminder{Overdue: one, Days: 7}, "You have *1 overdue action*."},
		{"due soon only", Reminder{DueSoon: two, Days: 3}, "You have *2 actions* due within 3 days."},
		{"no window", Reminder{DueSoon: one}, "You have *1 action* due soon."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, reminderSummary(tc.r))
		})
	}
}

// TestRowMenuHoldsSnooze: a row offering Snooze has its rarer status
// changes and its Snooze choices in one menu, the date picker after it,
// and Unsnooze instead when it is snoozed.
func TestRowMenuHoldsSnooze(t *testing.T) {
	t.Parallel()
	long := "L" + strings.Repeat("x", 139) // too long for an option value
	snoozeChoices := "Snooze until tomorrow=tomorrow Snooze until the next working day=workday Snooze for a week=week"
	mine := func(id, status string) ActionRow {
		return ActionRow{ID: id, Title: "T", Status: status, CanChange: true, MaySnooze: true, Rev: "r1"}
	}
	snoozed, theirs := mine("A-1", "open"), mine("A-1", "open")
	snoozed.SnoozedUntil = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	theirs.CanChange = false
	cases := map[string]struct {
		row  ActionRow
		want []string
	}{
		"open": {mine("A-1", "open"), []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"button Defer status:deferred deferred|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| " + snoozeChoices + "]",
			"datepicker",
		}},
		"in progress": {mine("A-1", "in_progress"), []string{
			"button Complete status:complete complete|A-1| primary",
			"button Defer status:deferred deferred|A-1|",
			"overflow row:menu [Mark cancelled=cancelled|A-1| Back to open=open|A-1| " + snoozeChoices + "]",
			"datepicker",
		}},
		"snoozed": {snoozed, []string{
			"button Complete status:complete complete|A-1| primary",
			"button Start status:in_progress in_progress|A-1|",
			"button Defer status:deferred deferred|A-1|",
			"button Mark cancelled status:cancelled cancelled|A-1|",
			"button Unsnooze snooze:end",
		}},
		"id too long for an option value": {mine(long, "in_progress"), []string{
			"button Complete status:complete complete|" + long + "| primary",
			"button Defer status:deferred deferred|" + long + "|",
			"button Mark cancelled status:cancelled cancelled|" + long + "|",
			"button Back to open status:open open|" + long + "|",
			"overflow row:menu [" + snoozeChoices + "]",
			"datepicker",
		}},
		"cannot change": {theirs, []string{
			"overflow row:menu [" + snoozeChoices + "]",
			"datepicker",
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			blocks := ActionRowBlocks(tc.row)
			assert.Equal(t, tc.want, controls(t, blocks, tc.row.ID+"~r1"))
			require.NoError(t, Check(blocks))
		})
	}
}

// TestSnoozeControlsAllocateNothing holds a page's Snooze controls to no
// allocation of their own: every row shares one language's prebuilt
// elements (snoozeSets), so the hot /actions path and the Home tab cost
// what they cost before rows offered Snooze (bot/alloc_test.go's budgets).
func TestSnoozeControlsAllocateNothing(t *testing.T) {
	rows := make([]ActionRow, 20)
	for i := range rows {
		rows[i] = ActionRow{ID: fmt.Sprintf("A-%d", i), Title: "Circulate the revised budget", Status: "open", CanChange: true, Rev: "r1"}
	}
	plain := testing.AllocsPerRun(50, func() { _ = Actions(ActionList{Rows: rows, Total: 20}) })
	snoozing := make([]ActionRow, len(rows))
	for i, r := range rows {
		r.MaySnooze = true
		if i%2 == 1 {
			r.SnoozedUntil = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
		}
		snoozing[i] = r
	}
	withSnooze := testing.AllocsPerRun(50, func() { _ = Actions(ActionList{Rows: snoozing, Total: 20}) })
	// Snooze offered costs nothing; a snoozed row's line "Snoozed until
	// Wed 2 Dec" formats its date in the row's language (a few small
	// strings), on the few rows that are snoozed.
	var offered []ActionRow
	for _, r := range snoozing {
		r.SnoozedUntil = time.Time{}
		offered = append(offered, r)
	}
	withOffer := testing.AllocsPerRun(50, func() { _ = Actions(ActionList{Rows: offered, Total: 20}) })
	assert.Equal(t, plain, withOffer, "20 rows offering Snooze: %.0f allocations, %.0f without", withOffer, plain)
	assert.LessOrEqual(t, withSnooze, plain+3*10, "10 of 20 rows snoozed: %.0f allocations, %.0f without", withSnooze, plain)
	t.Logf("a page of 20 rows: %.0f allocations without Snooze, %.0f offering it, %.0f with 10 snoozed", plain, withOffer, withSnooze)
}

// A row kept on the page after leaving the list (the action a click just
// completed) is not in the header's count.
func TestActionsHeaderCountLeavesOutRowsThatLeft(t *testing.T) {
	t.Parallel()
	rows := []ActionRow{{ID: "A-1", Title: "Done now", Status: "complete"}, {ID: "A-2", Title: "Still open", Status: "open"}}
	for _, tt := range []struct {
		name string
		left int
		want string
	}{
		{"none left", 0, "Your open actions (2)"},
		{"one left", 1, "Your open actions (1)"},
		{"never below zero", 3, "Your open actions (0)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := Actions(ActionList{Title: "Your open actions", Rows: rows, Total: 2, Left: tt.left})
			assert.Equal(t, tt.want, m.Text)
			assert.Contains(t, textOf(m.Blocks[0]), `"`+tt.want+`"`)
			assert.Contains(t, textOf(m.Blocks), "Done now", "the row stays on the page")
		})
	}
}
