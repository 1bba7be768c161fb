package demo

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// testNow is the reader's clock in the render tests: Tuesday 3 March
// 2026, 09:30 in Paris.
var (
	paris   = time.FixedZone("CET", 3600)
	testNow = time.Date(2026, 3, 3, 9, 30, 0, 0, paris)
)

func testRenderer(color bool) *renderer {
	return &renderer{
		p:        palette{on: color},
		now:      func() time.Time { return testNow },
		loc:      paris,
		handles:  map[string]string{"U0ALICE": "alice"},
		channels: map[string]string{"C0GENERAL": "general"},
	}
}

func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

func TestMrkdwn(t *testing.T) {
	t.Parallel()
	yesterday := unix(testNow.AddDate(0, 0, -1))
	later := unix(time.Date(2026, 4, 1, 16, 5, 0, 0, time.UTC))
	tests := []struct {
		name, in, plain, color string
	}{
		{"bold and italic", "*Overdue* and _late_", "Overdue and late", "\x1b[1mOverdue\x1b[22m and \x1b[3mlate\x1b[23m"},
		{"entities", "a &lt;b&gt; &amp;amp; c", "a <b> &amp; c", "a <b> &amp; c"},
		{"mention", "by <@U0ALICE> and <@U0ZED|zed>", "by @alice and @zed", "by \x1b[34m@alice\x1b[39m and \x1b[34m@zed\x1b[39m"},
		{"unknown mention", "<@U0NOBODY>", "@U0NOBODY", "\x1b[34m@U0NOBODY\x1b[39m"},
		{"channel", "in <#C0GENERAL>", "in #general", "in \x1b[34m#general\x1b[39m"},
		{"labelled link", "<https://x.org/a?b=1&amp;c=2|Read>", "Read (https://x.org/a?b=1&c=2)", "\x1b[4mRead\x1b[24m (https://x.org/a?b=1&c=2)"},
		{"bare link", "see <https://x.org>", "see https://x.org", "see \x1b[4mhttps://x.org\x1b[24m"},
		{"date today", "Due <!date^" + unix(testNow) + "^{date_short_pretty}|Mar 3, 2026>", "Due today", "Due today"},
		{"date yesterday", "<!date^" + yesterday + "^{date_pretty}|x>", "yesterday", "yesterday"},
		{"date and time in the reader's zone", "<!date^" + later + "^{date_short_pretty} at {time}|Apr 1, 2026 at 16:05 UTC>", "Apr 1, 2026 at 17:05", "Apr 1, 2026 at 17:05"},
		{"long date", "<!date^" + later + "^{date_long}|x>", "Wednesday, April 1, 2026", "Wednesday, April 1, 2026"},
		{"numeric date with link", "<!date^" + later + "^{date_num}^https://x.org|x>", "2026-04-01", "2026-04-01"},
		{"unknown token falls back", "<!date^" + later + "^{fortnight}|in a while>", "in a while", "in a while"},
		{"bad time falls back", "<!date^soon^{date}|some day>", "some day", "some day"},
		{"emoji", ":white_check_mark: done :warning:", "✅ done ⚠️", "✅ done ⚠️"},
		{"unknown emoji kept whole", ":not_an_emoji: x", ":not_an_emoji: x", ":not_an_emoji: x"},
		{"underscores inside words", "in_progress and USER_MAP", "in_progress and USER_MAP", "in_progress and USER_MAP"},
		{"asterisks inside words", "2*3*4", "2*3*4", "2*3*4"},
		{"unclosed", "*bold and _it", "*bold and _it", "*bold and _it"},
		{"not across lines", "*one\ntwo*", "*one\ntwo*", "*one\ntwo*"},
		{"code", "type `/actions &lt;id&gt;`", "type `/actions <id>`", "type \x1b[36m/actions <id>\x1b[39m"},
		{"no formatting in code", "`*x*`", "`*x*`", "\x1b[36m*x*\x1b[39m"},
		{"strike", "~gone~", "~gone~", "\x1b[9mgone\x1b[29m"},
		{"bold link", "*<https://x.org|Read>*", "Read (https://x.org)", "\x1b[1m\x1b[4mRead\x1b[24m (https://x.org)\x1b[22m"},
		{"lone angle bracket", "a < b", "a < b", "a < b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.plain, testRenderer(false).mrkdwn(tt.in, fgDefault), "plain")
			assert.Equal(t, tt.color, testRenderer(true).mrkdwn(tt.in, fgDefault), "colour")
		})
	}
}

// TestDatesInTheReadersLanguage: Slack draws a date token in the
// reader's locale, so the screen does too, with the catalogue's words.
func TestDatesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	r := testRenderer(false)
	var err error
	r.lang, err = lang.Parse("fr")
	require.NoError(t, err)
	yesterday := unix(testNow.AddDate(0, 0, -1))
	later := unix(time.Date(2026, 4, 1, 16, 5, 0, 0, time.UTC))
	assert.Equal(t, "Échéance hier", r.mrkdwn("Échéance <!date^"+yesterday+"^{date_short_pretty}|2 mars 2026>", fgDefault))
	assert.Equal(t, "1 avr. 2026 à 17:05", r.mrkdwn("<!date^"+later+"^{date_short_pretty} à {time}|1 avr. 2026 à 16:05 UTC>", fgDefault))
	assert.Equal(t, "mercredi 1 avril 2026", r.mrkdwn("<!date^"+later+"^{date_long}|x>", fgDefault))
}

func TestCodeInAColouredLineRestoresItsColour(t *testing.T) {
	t.Parallel()
	got := testRenderer(true).mrkdwn("run `x` now", fgGrey)
	assert.Equal(t, "run \x1b[36mx\x1b[90m now", got)
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	r := testRenderer(false)
	assert.Equal(t, "⏰ Reminder &amp; *co*", r.plainText(kitText{Text: ":alarm_clock: Reminder &amp; *co*", Emoji: true}), "plain_text is literal but for emoji")
	assert.Equal(t, ":alarm_clock: x", r.plainText(kitText{Text: ":alarm_clock: x"}))
}

// TestBlocks renders a message with every block type recordsbot sends and
// checks the controls are numbered in order and remembered.
func TestBlocks(t *testing.T) {
	t.Parallel()
	msg := `[
	  {"type":"header","text":{"type":"plain_text","text":"Your open actions (2)","emoji":true}},
	  {"type":"section","block_id":"action:A1","text":{"type":"mrkdwn","text":"*Do it*\nDue <!date^` + unix(testNow) + `^{date_short_pretty}|x> · Open"}},
	  {"type":"actions","block_id":"action-buttons:A1","elements":[
	    {"type":"button","action_id":"status:complete","value":"complete|A1|-","style":"primary","text":{"type":"plain_text","text":"Complete"}},
	    {"type":"overflow","action_id":"status:menu","options":[
	      {"text":{"type":"plain_text","text":"Cancel"},"value":"cancelled|A1|-"},
	      {"text":{"type":"plain_text","text":"Reopen"},"value":"open|A1|-"}]}]},
	  {"type":"section","fields":[
	    {"type":"mrkdwn","text":"*Committee*\nFinance"},{"type":"mrkdwn","text":"*Date*\nMar 3"},
	    {"type":"mrkdwn","text":"*Status*\nApproved"}]},
	  {"type":"actions","elements":[{"type":"button","action_id":"link:open","url":"http://127.0.0.1:1/minutes/m1","text":{"type":"plain_text","text":"Read the full minutes"}}]},
	  {"type":"divider"},
	  {"type":"context","elements":[{"type":"mrkdwn","text":"Showing 1–2 of 3"},{"type":"image","image_url":"https://x.org/i.png","alt_text":"logo"}]},
	  {"type":"rich_text","elements":[]}
	]`
	var raw []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(msg), &raw))
	var pressed []control
	lines := testRenderer(false).blocks(raw, func(c control) int {
		pressed = append(pressed, c)
		return len(pressed)
	})
	want := []string{
		"Your open actions (2)",
		"─────────────────────",
		"",
		"Do it",
		"Due today · Open",
		"  [1] Complete   [2] ⋯ Cancel   [3] ⋯ Reopen",
		"",
		"Committee    Date",
		"Finance      Mar 3",
		"Status",
		"Approved",
		"  [4] Read the full minutes (http://127.0.0.1:1/minutes/m1)",
		"",
		"────────────────────────────────────────",
		"Showing 1–2 of 3  [logo]",
		"[rich_text block, not shown here]",
	}
	assert.Equal(t, strings.Join(want, "\n"), strings.Join(lines, "\n"))

	require.Len(t, pressed, 4)
	assert.Equal(t, "action-buttons:A1", pressed[0].BlockID)
	assert.JSONEq(t, string(raw[2]), `{"type":"actions","block_id":"action-buttons:A1","elements":[`+string(pressed[0].Element)+`,`+string(pressed[1].Element)+`]}`,
		"each control keeps its element as the message holds it")
	assert.Equal(t, "cancelled|A1|-", pressed[1].Option)
	assert.Equal(t, "open|A1|-", pressed[2].Option)
	assert.Equal(t, "http://127.0.0.1:1/minutes/m1", pressed[3].URL)
	assert.Equal(t, "Read the full minutes", pressed[3].Label)
}

func TestAttachments(t *testing.T) {
	t.Parallel()
	atts := `[{"fallback":"Minutes: X","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"*X*\nFinance"}}]},{"fallback":"only this"}]`
	lines := testRenderer(false).attachments(json.RawMessage(atts), func(control) int { return 0 })
	assert.Equal(t, []string{"▌ X", "▌ Finance", "▌ only this"}, lines)
}

func TestBlockKitBuilderURL(t *testing.T) {
	t.Parallel()
	payload := `{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"a & b <!date^1|x> 100% #1 ?q=1"}}]}`
	u, err := url.Parse(blockKitBuilderURL([]byte(payload)))
	require.NoError(t, err)
	assert.Equal(t, "https", u.Scheme)
	assert.Equal(t, "app.slack.com", u.Host)
	assert.Equal(t, "/block-kit-builder/", u.Path)
	assert.Equal(t, payload, u.Fragment, "the fragment decodes to the payload")
	assert.NotContains(t, u.RawFragment+u.EscapedFragment(), " ", "no raw spaces in the link")
}

func TestUnescapeHTML(t *testing.T) {
	t.Parallel()
	in := []byte(`{"t":"\u003c!date\u003e \u0026amp; \\u003c \u00e9"}`)
	got := unescapeHTML(in)
	assert.Equal(t, `{"t":"<!date> &amp; \\u003c \u00e9"}`, string(got))
	var a, b any
	require.NoError(t, json.Unmarshal(in, &a))
	require.NoError(t, json.Unmarshal(got, &b))
	assert.Equal(t, a, b, "the JSON means the same")
}

func TestVisibleWidth(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 5, visibleWidth("\x1b[1mGómez\x1b[22m"))
	assert.Equal(t, "ab   |", padRight("ab", 5)+"|")
}

// TestSelectMenu renders a select menu as one control that shows its
// choice and how to change it, keeping every option for the click.
func TestSelectMenu(t *testing.T) {
	t.Parallel()
	menu := func(initial string) string {
		opt := func(v string) string { return `{"text":{"type":"plain_text","text":"` + v + `"},"value":"` + v + `"}` }
		js := `{"type":"static_select","action_id":"settings:remind_at","placeholder":{"type":"plain_text","text":"Choose a time"},` +
			`"options":[` + opt("08:00") + `,` + opt("09:00") + `,` + opt("10:00") + `,` + opt("11:00") + `,` + opt("12:00") + `]`
		if initial != "" {
			js += `,"initial_option":` + opt(initial)
		}
		return `[{"type":"section","block_id":"b","text":{"type":"mrkdwn","text":"*Reminder time*"},"accessory":` + js + `}}]`
	}
	tests := []struct {
		name, initial, want string
	}{
		{"chosen", "09:00", "  [1] ▾ 09:00 (choose: click 1 09:00; one of 08:00, 09:00 … 12:00)"},
		{"placeholder", "", "  [1] ▾ Choose a time (choose: click 1 09:00; one of 08:00, 09:00 … 12:00)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var raw []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(menu(tt.initial)), &raw))
			var pressed []control
			lines := testRenderer(false).blocks(raw, func(c control) int {
				pressed = append(pressed, c)
				return len(pressed)
			})
			assert.Equal(t, []string{"Reminder time", tt.want}, lines)
			require.Len(t, pressed, 1, "one control for the whole menu")
			assert.Len(t, pressed[0].Choices, 5)
			assert.Equal(t, choice{Label: "12:00", Value: "12:00"}, pressed[0].Choices[4])

			b := button{control: pressed[0]}
			require.NoError(t, b.choose(1, "10:00"))
			assert.Equal(t, "10:00", b.Option)
			assert.EqualError(t, b.choose(1, ""), "[1] is a menu: say which option, like: click 1 09:00")
			assert.ErrorContains(t, b.choose(1, "13:00"), `menu [1] has no option "13:00"`)
		})
	}
	plain := button{control: control{Label: "Complete"}}
	require.NoError(t, plain.choose(3, ""))
	assert.EqualError(t, plain.choose(3, "10:00"), "[3] is not a menu, so there is nothing to choose; click 3 presses it")
}
