package blocks

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

// raw is a block written as JSON.
func raw(s string) slack.Block { return RawBlock(s) }

// repeatBlock is n copies of b.
func repeatBlock(b slack.Block, n int) []slack.Block {
	out := make([]slack.Block, n)
	for i := range out {
		out[i] = b
	}
	return out
}

func TestCheckAccepts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		blocks []slack.Block
	}{
		{"nothing", nil},
		{"fifty dividers", repeatBlock(slack.NewDividerBlock(), MaxMessageBlocks)},
		{"section at its limit", []slack.Block{section(strings.Repeat("é", MaxSectionText))}},
		{"header at its limit", []slack.Block{header(strings.Repeat("h", MaxHeaderText))}},
		{"unknown block type", []slack.Block{raw(`{"type":"future_block","block_id":"x","fancy":[1,2]}`)}},
		{"same action_id in two blocks", []slack.Block{
			slack.NewActionBlock("a", button("x", "1", "One")),
			slack.NewActionBlock("b", button("x", "2", "Two")),
		}},
		{"overflow of five", []slack.Block{slack.NewActionBlock("", slack.NewOverflowBlockElement("m",
			option("1"), option("2"), option("3"), option("4"), option("5")))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.NoError(t, Check(tc.blocks))
		})
	}
}

func option(v string) *slack.OptionBlockObject {
	return slack.NewOptionBlockObject(v, plain("Option "+v), nil)
}

// TestCheckRejects proves Check honest: each case breaks one limit and must
// be reported at the right place.
func TestCheckRejects(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	elements := func(n int) []slack.BlockElement {
		var els []slack.BlockElement
		for i := range n {
			els = append(els, button(fmt.Sprint("b", i), "", "B"))
		}
		return els
	}
	texts := func(n int) []slack.MixedElement {
		var els []slack.MixedElement
		for range n {
			els = append(els, mrkdwn("x"))
		}
		return els
	}
	fields := func(n, size int) []*slack.TextBlockObject {
		var out []*slack.TextBlockObject
		for range n {
			out = append(out, mrkdwn(long(size)))
		}
		return out
	}
	withURL := func(u string) *slack.ButtonBlockElement {
		b := button("link", "", "Link")
		b.URL = u
		return b
	}
	cases := []struct {
		name   string
		blocks []slack.Block
		want   string
	}{
		{"too many blocks", repeatBlock(slack.NewDividerBlock(), MaxMessageBlocks+1), "blocks: 51 blocks, limit 50"},
		{"section text too long", []slack.Block{section(long(3001))}, "blocks[0].text.text: 3001 characters"},
		{"empty section text", []slack.Block{section("")}, "blocks[0].text.text: 0 characters"},
		{"section without text or fields", []slack.Block{slack.NewSectionBlock(nil, nil, nil)}, "neither text nor fields"},
		{"too many fields", []slack.Block{slack.NewSectionBlock(nil, fields(11, 1), nil)}, "blocks[0].fields: 11 fields, limit 10"},
		{"field too long", []slack.Block{slack.NewSectionBlock(nil, fields(1, 2001), nil)}, "blocks[0].fields[0].text: 2001 characters"},
		{"header too long", []slack.Block{slack.NewHeaderBlock(plain(long(151)))}, "blocks[0].text.text: 151 characters"},
		{"header in mrkdwn", []slack.Block{slack.NewHeaderBlock(mrkdwn("x"))}, `blocks[0].text.type: "mrkdwn" not allowed`},
		{"button text too long", []slack.Block{slack.NewActionBlock("", slack.NewButtonBlockElement("b", "", plain(long(76))))}, "blocks[0].elements[0].text.text: 76 characters"},
		{"button value too long", []slack.Block{slack.NewActionBlock("", button("b", long(2001), "B"))}, "blocks[0].elements[0].value: 2001 characters"},
		{"button url too long", []slack.Block{slack.NewActionBlock("", withURL("https://x/"+long(3000)))}, "blocks[0].elements[0].url: 3010 characters"},
		{"action_id too long", []slack.Block{slack.NewActionBlock("", button(long(256), "", "B"))}, "blocks[0].elements[0].action_id: 256 characters"},
		{"block_id too long", []slack.Block{slack.NewActionBlock(long(256), button("b", "", "B"))}, "blocks[0].block_id: 256 characters"},
		{"block_id repeated", []slack.Block{slack.NewDividerBlock(), raw(`{"type":"divider","block_id":"d"}`), raw(`{"type":"divider","block_id":"d"}`)}, `blocks[2].block_id: "d" already used by blocks[1]`},
		{"action_id repeated in a block", []slack.Block{slack.NewActionBlock("", button("b", "1", "B"), button("b", "2", "B"))}, `blocks[0].elements[1].action_id: "b" repeated`},
		{"too many elements", []slack.Block{slack.NewActionBlock("", elements(26)...)}, "blocks[0].elements: 26 elements"},
		{"no elements", []slack.Block{slack.NewActionBlock("")}, "blocks[0].elements: 0 elements"},
		{"too many context elements", []slack.Block{slack.NewContextBlock("", texts(11)...)}, "blocks[0].elements: 11 elements"},
		{"overflow of one", []slack.Block{slack.NewActionBlock("", slack.NewOverflowBlockElement("m", option("1")))}, "blocks[0].elements[0].options: 1 options"},
		{"overflow of six", []slack.Block{slack.NewActionBlock("", slack.NewOverflowBlockElement("m",
			option("1"), option("2"), option("3"), option("4"), option("5"), option("6")))}, "blocks[0].elements[0].options: 6 options"},
		{"option text too long", []slack.Block{slack.NewActionBlock("", slack.NewOverflowBlockElement("m",
			option("1"), slack.NewOptionBlockObject("2", plain(long(76)), nil)))}, "blocks[0].elements[0].options[1].text.text: 76 characters"},
		{"option value too long", []slack.Block{slack.NewActionBlock("", slack.NewOverflowBlockElement("m",
			option("1"), option(long(151))))}, "blocks[0].elements[0].options[1].value: 151 characters"},
		{"accessory checked", []slack.Block{slack.NewSectionBlock(mrkdwn("x"), nil, slack.NewAccessory(button("b", long(2001), "B")))}, "blocks[0].accessory.value: 2001 characters"},
		{"text budget", repeatBlock(section(long(2999)), 4), "11996 characters of text, budget 11000"},
		{"button text counts against the budget", append(repeatBlock(section(long(2999)), 3),
			section(long(1990)), slack.NewActionBlock("", elements(25)...)), "11012 characters of text, budget 11000"},
		{"not an object", []slack.Block{raw(`[1,2]`)}, "blocks[0]: not an object"},
		{"no type", []slack.Block{raw(`{"block_id":"x"}`)}, "blocks[0]: no type"},
		{"invalid JSON", []slack.Block{raw(`{"type":`)}, "marshal blocks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Check(tc.blocks)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCheckMessageAndView(t *testing.T) {
	t.Parallel()
	big := section(strings.Repeat("x", 3000))

	assert.NoError(t, CheckMessage(Message{Text: "hi"}))
	assert.ErrorContains(t, CheckMessage(Message{}), "no text and no blocks")
	assert.ErrorContains(t, CheckMessage(Message{Text: strings.Repeat("x", 2001), Blocks: repeatBlock(big, 3)}),
		"11001 characters of text, budget 11000", "the fallback text counts")

	view := func(n int) slack.HomeTabViewRequest {
		return slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: repeatBlock(slack.NewDividerBlock(), n)}}
	}
	assert.NoError(t, CheckView(view(MaxViewBlocks)))
	assert.ErrorContains(t, CheckView(view(MaxViewBlocks+1)), "101 blocks, limit 100")
	modal := view(1)
	modal.Type = slack.VTModal
	assert.ErrorContains(t, CheckView(modal), `view: type "modal"`)
}

func TestCheckRefusesTextEscapedTwice(t *testing.T) {
	t.Parallel()
	for _, twice := range []string{"R&amp;amp;D", "a &amp;lt;b&amp;gt;", Escape(Escape("x > y"))} {
		err := CheckMessage(Notice(twice))
		assert.ErrorContains(t, err, "escaped twice", "%q", twice)
		err = CheckMessage(Message{Text: twice, Blocks: []slack.Block{section("fine")}})
		assert.ErrorContains(t, err, "text: escaped twice", "fallback text %q", twice)
	}
	assert.NoError(t, CheckMessage(Notice(Escape("R&D <b>"))), "escaped once")
}

// hostile is text built to break things: every mrkdwn control character,
// mentions, multi-byte runes and emoji, n runes long. It holds no literal
// HTML entity: record text that did ("&amp;") would, escaped once, look
// like text escaped twice, which Check refuses.
func hostile(n int) string {
	const unit = "<!channel> & <@U123> é😀 <https://x.example|y> && ü "
	s := strings.Repeat(unit, n/len([]rune(unit))+1)
	return string([]rune(s)[:n])
}

func stressRow(i int, id string) ActionRow {
	return ActionRow{
		ID:              id,
		Title:           hostile(5000),
		Status:          []string{"open", "in_progress", "deferred", "complete", "cancelled", hostile(5000)}[i%6],
		Deadline:        time.Date(2026, 3, 4, 17, 0, 0, 0, time.UTC),
		DeadlineHasTime: true,
		Overdue:         true,
		Meeting:         hostile(5000),
		Committee:       hostile(4000),
		Assignee:        hostile(3000),
		CanChange:       true,
		Changed:         &Change{By: []string{"U0123ABCD", hostile(500)}[i%2], At: now, Status: hostile(300)},
		Context:         strings.Repeat("c", 1500), // long, yet every value still fits
	}
}

// stressRows is n rows at their longest; ids of 200 characters overflow
// an option value, so the menu items become buttons.
func stressRows(n int) []ActionRow {
	rows := make([]ActionRow, n)
	for i := range rows {
		rows[i] = stressRow(i, fmt.Sprintf("%03d-%s", i, strings.Repeat("é", 98)))
	}
	return rows
}

func stressMinutes() MinutesView {
	return MinutesView{
		Display: minutes.Display{
			MeetingID: strings.Repeat("m", 2000),
			Title:     hostile(5000),
			Committee: hostile(5000),
			Date:      now,
			Draft:     true,
			Body:      strings.Repeat(hostile(3000)+"\n\n\n", 400),
			URL:       "https://records.example.org/" + strings.Repeat("a", 2900),
		},
		Shareable: true,
		SharedBy:  hostile(100),
	}
}

func stressMeeting(i int) MeetingRow {
	m := MeetingRow{
		ID:        strings.Repeat("i", 2000),
		Reference: hostile(1000),
		Title:     hostile(5000),
		Committee: hostile(5000),
		Date:      now,
		Location:  hostile(5000),
	}
	if i%2 == 1 {
		m.ID = fmt.Sprint("M-", i)
	}
	return m
}

// sections counts the sections in blocks; in an action list, each is a row.
func sections(blocks []slack.Block) int {
	n := 0
	for _, b := range blocks {
		if b.BlockType() == slack.MBTSection {
			n++
		}
	}
	return n
}

// TestStress feeds every builder the worst input there is and requires
// the result to keep within every limit.
func TestStress(t *testing.T) {
	t.Parallel()
	longIDs := stressRows(20)
	for i := range longIDs {
		if i%3 == 0 {
			longIDs[i].ID = strings.Repeat("x", 2000) // too long to carry: no buttons
		}
	}
	agenda := make([]AgendaRow, 1000)
	for i := range agenda {
		agenda[i] = AgendaRow{Number: hostile(50), Title: hostile(5000), Description: hostile(5000)}
	}
	meeting := stressMeeting(0)
	meeting.Agenda = agenda
	var meetings []MeetingRow
	for i := range 30 {
		meetings = append(meetings, stressMeeting(i))
	}
	var minutes []MinutesView
	for range 40 {
		minutes = append(minutes, stressMinutes())
	}
	list := func(rows []ActionRow) ActionList {
		return ActionList{
			Title: hostile(500), Rows: rows, Offset: 1_000_000, Total: 10_000_000,
			MoreValue: strings.Repeat("v", 2000), Truncated: true, Empty: hostile(5000),
		}
	}

	messages := []struct {
		name     string
		msg      Message
		wantRows int // sections (action rows) that must be shown; -1: any
	}{
		{"20 rows", Actions(list(stressRows(20))), 20},
		{"20 rows, absurd ids", Actions(list(longIDs)), 20},
		{"20 rows, one id repeated", Actions(list(func() []ActionRow {
			rows := stressRows(20)
			for i := range rows {
				rows[i].ID = "A-1"
			}
			return rows
		}())), 20},
		{"200 rows", Actions(list(stressRows(200))), -1},
		{"no rows", Actions(list(nil)), 1},
		{"reminder", ReminderMessage(Reminder{User: "U1", Overdue: stressRows(40), DueSoon: stressRows(40), Days: 7}), -1},
		{"minutes", Minutes(stressMinutes()), -1},
		{"meetings", Meetings(MeetingList{Title: hostile(500), Meetings: meetings, NextValue: strings.Repeat("n", 2000)}), -1},
		{"meeting with a 1000-item agenda", Meeting(meeting), -1},
		{"help", Help(lang.English, hostile(100), strings.Repeat("&amp; <@U1> ", 1000)), -1},
		{"notice", Notice(strings.Repeat("&lt;x&gt; <@U1> ", 1000)), -1},
	}
	for _, tc := range messages {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, CheckMessage(tc.msg))
			if tc.wantRows >= 0 {
				assert.Equal(t, tc.wantRows, sections(tc.msg.Blocks), "action rows shown")
			}
		})
	}

	t.Run("page of 10 meetings shows them all", func(t *testing.T) {
		t.Parallel()
		m := Meetings(MeetingList{Title: hostile(500), Meetings: meetings[:10], NextValue: "n"})
		require.NoError(t, CheckMessage(m))
		assert.NotContains(t, blockText(t, m.Blocks), "more not shown")
	})
	t.Run("home", func(t *testing.T) {
		t.Parallel()
		v := Home(HomeView{
			User: "U1", Actions: list(stressRows(200)), MoreOffset: 1 << 40, Minutes: minutes,
			Unmapped: hostile(5000), RecordsError: hostile(5000),
		})
		require.NoError(t, CheckView(v))
		assert.Positive(t, sections(v.Blocks.BlockSet))
	})
	t.Run("unfurl", func(t *testing.T) {
		t.Parallel()
		require.NoError(t, Check(UnfurlMinutes(stressMinutes()).Blocks.BlockSet))
	})
	t.Run("replaced rows stay within the budget", func(t *testing.T) {
		t.Parallel()
		msg := toRaw(t, Actions(list(stressRows(20))).Blocks)
		for i, r := range stressRows(20) {
			r.Title = hostile(5000)
			r.Changed = &Change{By: "U0123ABCD", At: now, Status: "complete"}
			var ok bool
			msg, ok = ReplaceRow(msg, r)
			require.True(t, ok, "row %d", i)
		}
		require.NoError(t, Check(RawBlocks(msg)))
	})
}

// blockText is the JSON of blocks, for substring checks.
func blockText(t *testing.T, blocks []slack.Block) string {
	t.Helper()
	b, err := json.Marshal(blocks)
	require.NoError(t, err)
	return string(b)
}

// toRaw marshals blocks one by one, as Slack sends them back.
func toRaw(t *testing.T, blocks []slack.Block) []json.RawMessage {
	t.Helper()
	out := make([]json.RawMessage, len(blocks))
	for i, b := range blocks {
		j, err := json.Marshal(b)
		require.NoError(t, err)
		out[i] = j
	}
	return out
}

// The fast count and the JSON count agree on every golden message.
func TestMeasureMatchesJSON(t *testing.T) {
	t.Parallel()
	msgs := map[string]Message{
		"actions":  Actions(ActionList{Title: "Your open actions", Rows: sampleRows(), Total: 3, MoreValue: "x", Truncated: true}),
		"row":      {Blocks: ActionRowBlocks(sampleRows()[0])},
		"help":     Help(lang.English, "", "note"),
		"notice":   Notice("a & b <c>"),
		"meetings": Meetings(MeetingList{Title: "Recent", Meetings: []MeetingRow{{ID: "m1", Title: "T", Committee: "C"}}, NextValue: "n"}),
	}
	for name, m := range msgs {
		assert.Equal(t, measureJSON(m.Blocks...), measure(m.Blocks...), name)
	}
}
