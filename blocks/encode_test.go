package blocks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertEncodesAsJSON checks that AppendJSON writes bs byte for byte as
// encoding/json marshals them.
func assertEncodesAsJSON(t *testing.T, bs []slack.Block) {
	t.Helper()
	want, err := json.Marshal(bs)
	require.NoError(t, err)
	got, err := AppendJSON([]byte("prefix"), bs)
	require.NoError(t, err)
	assert.Equal(t, replacementsAlike("prefix"+string(want)), replacementsAlike(string(got)), "AppendJSON (got) against encoding/json (want)")
}

// replacementsAlike writes every U+FFFD of s as the escape \ufffd. Go
// releases disagree on how encoding/json writes invalid UTF-8: go1.26
// escapes it (\ufffd), go1.27 writes the replacement character itself.
// Both decode to the same string, so the comparison with encoding/json
// ignores that one difference and no other.
func replacementsAlike(s string) string { return strings.ReplaceAll(s, "\uFFFD", `\ufffd`) }

// blocksOf returns the blocks of a golden value: a message, a view or an
// attachment.
func blocksOf(t *testing.T, v any) []slack.Block {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		return v["blocks"].([]slack.Block)
	case slack.HomeTabViewRequest:
		return v.Blocks.BlockSet
	case slack.Attachment:
		return v.Blocks.BlockSet
	}
	t.Fatalf("unknown golden value %T", v)
	return nil
}

// TestAppendJSONMatchesGoldenFiles decodes every golden file's blocks into
// slack-go's types, as a message Slack sends back is decoded, and holds
// AppendJSON to encoding/json over them. TestGolden does the same for the
// blocks as the builders return them.
func TestAppendJSONMatchesGoldenFiles(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			var v struct {
				Blocks slack.Blocks `json:"blocks"`
			}
			require.NoError(t, json.Unmarshal(b, &v))
			assertEncodesAsJSON(t, v.Blocks.BlockSet)
		})
	}
}

// TestAppendJSONEdges covers what the builders never produce but the
// types allow: nil values, empty lists, fields the writer hands to
// encoding/json, and blocks of other kinds.
func TestAppendJSONEdges(t *testing.T) {
	t.Parallel()
	no := false
	img := "https://example.org/a.png"
	cases := map[string][]slack.Block{
		"nil":   nil,
		"empty": {},
		"nil blocks": {
			(*slack.HeaderBlock)(nil), (*slack.SectionBlock)(nil), (*slack.ContextBlock)(nil),
			(*slack.ActionBlock)(nil), (*slack.DividerBlock)(nil), nil,
		},
		"bare": {
			&slack.HeaderBlock{Type: slack.MBTHeader}, &slack.SectionBlock{Type: slack.MBTSection},
			&slack.ContextBlock{Type: slack.MBTContext}, &slack.ActionBlock{Type: slack.MBTAction},
			&slack.ActionBlock{Type: slack.MBTAction, Elements: &slack.BlockElements{}},
			&slack.ActionBlock{Type: slack.MBTAction, Elements: &slack.BlockElements{ElementSet: []slack.BlockElement{}}},
			&slack.ContextBlock{Type: slack.MBTContext, ContextElements: slack.ContextElements{Elements: []slack.MixedElement{}}},
		},
		"fields and emoji false": {
			&slack.SectionBlock{Type: slack.MBTSection, BlockID: "s", Fields: []*slack.TextBlockObject{
				{Type: "plain_text", Text: "a", Emoji: &no}, nil, {Type: "mrkdwn", Text: "<b>", Verbatim: true},
			}},
		},
		"handed to encoding/json": {
			&slack.HeaderBlock{Type: slack.MBTHeader, Level: 2, Text: plain("h")},
			slack.NewSectionBlock(mrkdwn("x"), nil, slack.NewAccessory(button("a", "v", "Go"))),
			&slack.SectionBlock{Type: slack.MBTSection, Expand: true},
			slack.NewContextBlock("c", slack.NewImageBlockElement(img, "alt"), mrkdwn("& text")),
			slack.NewActionBlock("a",
				&slack.ButtonBlockElement{Type: "button", Text: plain("b"), Confirm: &slack.ConfirmationBlockObject{Title: plain("sure?")}},
				&slack.ButtonBlockElement{Type: "button", Text: plain("b"), AccessibilityLabel: "label"},
				&slack.ButtonBlockElement{Text: nil, URL: "https://example.org/?a=1&b=<2>"},
				&slack.OverflowBlockElement{Type: "overflow", Options: []*slack.OptionBlockObject{{Text: plain("o"), Value: "v", Description: plain("d")}}},
				&slack.OverflowBlockElement{Type: "overflow"},
				slack.NewOptionsSelectBlockElement("static_select", plain("pick"), "sel", slack.NewOptionBlockObject("1", plain("one"), nil)),
				(*slack.ButtonBlockElement)(nil),
			),
			RawBlock(`{ "type": "divider", "block_id": "<x>" }`),
			slack.NewImageBlock(img, "alt", "i", plain("title")),
		},
	}
	for name, bs := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assertEncodesAsJSON(t, bs)
		})
	}
}

// FuzzAppendJSON holds AppendJSON to encoding/json over action lists the
// builder draws from arbitrary record text, and over slack-go values built
// directly from the same text (which the builders would have cleaned).
func FuzzAppendJSON(f *testing.F) {
	f.Add("Review <the> budget & plan", "open", "Finance", "mtg\u2028", "Sam \xff", "A-1", "w=U1&s=all", true, uint8(3))
	f.Add("", "", "", "", "", "", "", false, uint8(0))
	f.Fuzz(func(t *testing.T, title, status, committee, meeting, assignee, id, context string, flag bool, n uint8) {
		rows := make([]ActionRow, 0, n%8)
		for i := range cap(rows) {
			rows = append(rows, ActionRow{
				ID: id + string(rune('a'+i)), Title: title, Status: status, Committee: committee, Meeting: meeting,
				Assignee: assignee, Context: context, CanChange: flag || i%2 == 0, Overdue: i%3 == 0,
				Deadline: time.Date(2026, 3, 1+i, 9, 0, 0, 0, time.UTC), DeadlineHasTime: i%2 == 1, Rev: context,
			})
			if i == 1 {
				rows[i].Changed = &Change{By: assignee, At: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), Status: status}
			}
		}
		l := ActionList{Title: title, Rows: rows, Offset: int(n % 3), Total: int(n), MoreValue: context, Empty: meeting, Truncated: flag}
		assertEncodesAsJSON(t, Actions(l).Blocks)
		assertEncodesAsJSON(t, Home(HomeView{User: id, Actions: l, Unmapped: title, RecordsError: meeting}).Blocks.BlockSet)

		direct := []slack.Block{
			&slack.HeaderBlock{Type: slack.MessageBlockType(status), Text: &slack.TextBlockObject{Type: committee, Text: title}, BlockID: id},
			&slack.SectionBlock{Type: slack.MBTSection, Text: &slack.TextBlockObject{Type: "mrkdwn", Text: meeting, Verbatim: flag}, BlockID: context,
				Fields: []*slack.TextBlockObject{{Type: "plain_text", Text: assignee, Emoji: &flag}}},
			&slack.ContextBlock{Type: slack.MBTContext, BlockID: title, ContextElements: slack.ContextElements{Elements: []slack.MixedElement{
				&slack.TextBlockObject{Type: "mrkdwn", Text: committee},
			}}},
			slack.NewActionBlock(meeting,
				&slack.ButtonBlockElement{Type: slack.METButton, Text: &slack.TextBlockObject{Type: "plain_text", Text: title}, ActionID: status,
					URL: context, Value: assignee, Style: slack.Style(committee)},
				slack.NewOverflowBlockElement(id, slack.NewOptionBlockObject(context, &slack.TextBlockObject{Type: "plain_text", Text: meeting}, nil)),
			),
			&slack.DividerBlock{Type: slack.MBTDivider, BlockID: assignee},
		}
		assertEncodesAsJSON(t, direct)
	})
}
