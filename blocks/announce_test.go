package blocks

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

// posted is a message as the watcher posts it: text, blocks and metadata.
func posted(m Message, md slack.SlackMetadata) any {
	return map[string]any{"text": m.Text, "blocks": m.Blocks, "metadata": md}
}

func TestAnnouncementGolden(t *testing.T) {
	t.Parallel()
	draft := sampleMinutes()
	draft.Draft, draft.Shareable = true, false
	approved := sampleMinutes()
	approved.Shareable = false
	noLink := approved
	noLink.URL = ""

	rows := sampleRows()[:2]
	for i := range rows {
		rows[i].Assignee = "" // the DM is the assignee's own
		rows[i].Meeting, rows[i].Committee = "Finance Committee, March", "Finance"
	}
	assign := Assignment{Committee: "Finance", Meeting: "Finance Committee, March", Date: day(2026, 2, 26), Rows: rows}

	cases := []struct {
		name   string
		render func(l lang.Lang) any
	}{
		{"announce_draft", func(l lang.Lang) any {
			return posted(AnnouncementMessage(Announcement{Lang: l, Minutes: draft}),
				AnnouncementMetadata("announce/C0123ABCD/M-7/published_draft", "M-7", "published_draft"))
		}},
		{"announce_approved", func(l lang.Lang) any {
			return posted(AnnouncementMessage(Announcement{Lang: l, Minutes: approved, NowApproved: true}),
				AnnouncementMetadata("announce/C0123ABCD/M-7/approved", "M-7", "approved"))
		}},
		{"announce_no_link", func(l lang.Lang) any {
			return posted(AnnouncementMessage(Announcement{Lang: l, Minutes: noLink}),
				AnnouncementMetadata("announce/C0123ABCD/M-7/approved", "M-7", "approved"))
		}},
		{"announce_reply", func(l lang.Lang) any { return payload(ApprovedReply(l, approved.Title, -1)) }},
		{"announce_reply_changes", func(l lang.Lang) any { return payload(ApprovedReply(l, approved.Title, 4)) }},
		{"announce_reply_as_drafted", func(l lang.Lang) any { return payload(ApprovedReply(l, approved.Title, 0)) }},
		{"assigned", func(l lang.Lang) any {
			a := assign
			a.Lang = l
			return posted(AssignmentMessage(a), AssignmentMetadata("assign/U0123ABCD/M-7/3f2a", "M-7", []string{"A-101", "A-102"}))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertGolden(t, tc.name, tc.render)
			m := tc.render(lang.English).(map[string]any)
			assert.NoError(t, CheckMessage(Message{Text: m["text"].(string), Blocks: m["blocks"].([]slack.Block)}))
		})
	}
}

func TestAnnouncementMarksDraftsAndLinksOnlySafeURLs(t *testing.T) {
	t.Parallel()
	v := sampleMinutes()
	v.Draft = true
	v.URL = "javascript:alert(1)"
	msg := AnnouncementMessage(Announcement{Minutes: v})
	j := string(readableJSON(t, payload(msg)))
	assert.Contains(t, j, "Draft")
	assert.Contains(t, msg.Text, "draft not yet approved")
	assert.NotContains(t, j, "javascript:")
	assert.Contains(t, j, ActionMeetingActions)
}

func TestAssignmentBatchesManyRowsIntoOneMessage(t *testing.T) {
	t.Parallel()
	var rows []ActionRow
	for i := range 80 {
		r := sampleRows()[0]
		r.ID = "A-" + strings.Repeat("9", i%3+1) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		rows = append(rows, r)
	}
	msg := AssignmentMessage(Assignment{Committee: "Finance", Meeting: "Budget", Rows: rows})
	require.NoError(t, CheckMessage(msg))
	assert.Contains(t, msg.Text, "assigned you 80 actions")
	assert.Contains(t, string(readableJSON(t, payload(msg))), "more — use `/actions`")
}

func TestAssignmentMetadataFitsSlacksSchema(t *testing.T) {
	t.Parallel()
	md := AssignmentMetadata("k", "M-1", []string{"a", "b"})
	for k, v := range md.EventPayload {
		switch v.(type) {
		case string, int, bool:
		default:
			t.Errorf("event_payload.%s is %T; Slack takes strings, numbers, booleans and objects", k, v)
		}
	}
}

// FuzzWatcherMessages: whatever the records hold (titles, committees,
// bodies, URLs, IDs), the announcement, the approval reply and the
// assignment DM stay within Block Kit's limits and the text budget.
func FuzzWatcherMessages(f *testing.F) {
	f.Add("Finance Committee, March", "Finance", "Present: all.\n\nAgreed.", "https://x.example/m", "M-7", "A-1", true)
	f.Add("<!channel>", "<#C1|x>", strings.Repeat("long ", 2000), "javascript:alert(1)", strings.Repeat("I", 3000), "", false)
	f.Fuzz(func(t *testing.T, title, committee, body, url, meetingID, actionID string, draft bool) {
		v := MinutesView{Display: minutes.Display{MeetingID: meetingID, Title: title, Committee: committee, Body: body, URL: url, Draft: draft, Date: now}}
		for _, m := range []Message{
			AnnouncementMessage(Announcement{Minutes: v}),
			AnnouncementMessage(Announcement{Minutes: v, NowApproved: true}),
			ApprovedReply(lang.English, title, -1),
			AssignmentMessage(Assignment{Committee: committee, Meeting: title, Rows: []ActionRow{{ID: actionID, Title: body, CanChange: true}, {ID: actionID + "2", Title: title}}}),
		} {
			if err := CheckMessage(m); err != nil {
				t.Fatalf("%v\ntext: %q", err, m.Text)
			}
		}
	})
}
