package bot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

func TestClickCompleteUpdatesTheListInPlace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	list, _ := h.slash(alice, "/actions", "")
	mine := h.openActionsOf(alice.Email)
	require.GreaterOrEqual(t, len(mine), 2)
	target, other := mine[0], mine[1]

	posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
	require.Len(t, posts, 1)
	up := posts[0]
	assert.True(t, up.ReplaceOriginal, "the ephemeral list is replaced in place")
	assert.Equal(t, "ephemeral", up.ResponseType)

	got, _ := h.records.Action(target.ID)
	assert.Equal(t, "complete", got.Status, "the records service has the new status")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))

	s := up.all()
	assert.Contains(t, s, `"action:`+target.ID+`"`, "the changed row stays on the page")
	assert.Contains(t, s, "by <@"+alice.ID+">", "the row says who changed it")
	assert.NotContains(t, s, `"complete|`+target.ID+`|`, "no Complete button on a completed action")
	assert.Contains(t, s, `"open|`+target.ID+`|`, "but Reopen")
	assert.Contains(t, s, `"complete|`+other.ID+`|`, "other rows keep their buttons")
	assert.Equal(t, rowOrder(list), rowOrder(up), "no row moved")
	n := len(rowOrder(list))
	assert.Equal(t, fmt.Sprintf("Your open actions (%d)", n), headerText(t, list))
	assert.Equal(t, fmt.Sprintf("Your open actions (%d)", n-1), headerText(t, up),
		"the completed row stays on the page, but the header counts the open actions left")
}

// TestClickInAFilteredListRecounts: a row whose change takes it out of a
// filtered list (completed in /actions overdue) stays on the redrawn page
// while the header's count drops; on the next click the row has left the
// page too, and the count still matches the rows that belong to the list.
func TestClickInAFilteredListRecounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	list, _ := h.slash(alice, "/actions", "overdue")
	ids := rowOrder(list)
	require.GreaterOrEqual(t, len(ids), 2, "the harness gives alice two overdue actions")
	first, second := strings.TrimPrefix(ids[0], "action:"), strings.TrimPrefix(ids[1], "action:")
	n := len(ids)
	require.Equal(t, fmt.Sprintf("Your overdue actions (%d)", n), headerText(t, list))

	posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+first+"|")
	require.Len(t, posts, 1)
	done := posts[0]
	assert.Equal(t, ids, rowOrder(done), "the completed row stays, where it was")
	assert.Equal(t, fmt.Sprintf("Your overdue actions (%d)", n-1), headerText(t, done))

	posts = h.clickEphemeral(alice, done, "status:in_progress", "in_progress|"+second+"|")
	require.Len(t, posts, 1)
	started := posts[0]
	assert.Equal(t, ids[1:], rowOrder(started), "the row completed before has left the page")
	assert.Equal(t, fmt.Sprintf("Your overdue actions (%d)", n-1), headerText(t, started),
		"an overdue action started is still overdue: the count matches the rows")
}

// headerText is the text of a message's header block.
func headerText(t *testing.T, m msg) string {
	t.Helper()
	for _, b := range m.Blocks {
		var blk struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if json.Unmarshal(b, &blk) == nil && blk.Type == "header" {
			return blk.Text.Text
		}
	}
	t.Fatalf("no header in %s", m.all())
	return ""
}

// rowOrder lists the action rows of a message in order.
func rowOrder(m msg) []string {
	var ids []string
	for _, b := range m.Blocks {
		var blk struct {
			BlockID string `json:"block_id"`
		}
		if json.Unmarshal(b, &blk) == nil && strings.HasPrefix(blk.BlockID, "action:") {
			blk.BlockID = stableBlockID(blk.BlockID)
			ids = append(ids, blk.BlockID)
		}
	}
	return ids
}

func TestClickByAnotherUserIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	bob, carol := h.person("bob"), h.person("carol")
	list, _ := h.slash(bob, "/actions", "")
	target := h.openActionsOf(bob.Email)[0]
	// Carol presses a button of bob's list: a forged or forwarded payload.
	posts := h.clickEphemeral(carol, list, "status:complete", "complete|"+target.ID+"|")
	require.Len(t, posts, 1)
	assert.False(t, posts[0].ReplaceOriginal, "the original stays as it was")
	assert.Contains(t, posts[0].Text, "Only the action's assignee or an admin can change this")
	assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "no PUT reached the records server")
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, target.Status, got.Status)
}

func TestAdminMayChangeAnyonesAction(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAdmins("U0CAROL"))
	bob, carol := h.person("bob"), h.person("carol")
	list, _ := h.slash(carol, "/actions", "@bob")
	target := h.openActionsOf(bob.Email)[0]
	posts := h.clickEphemeral(carol, list, "status:deferred", "deferred|"+target.ID+"|")
	require.Len(t, posts, 1)
	assert.True(t, posts[0].ReplaceOriginal)
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, "deferred", got.Status)
	assert.Contains(t, posts[0].all(), "Deferred by <@U0CAROL>")
}

func TestTamperedAndStaleButtons(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	tests := []struct {
		name, actionID, value, want string
	}{
		{"unknown action id", "status:complete", "complete|no-such-action|-", "doesn't exist"},
		{"invented status", "status:complete", "explode|" + h.openActionsOf(alice.Email)[0].ID + "|-", "don't recognise that button"},
		{"no id", "status:complete", "complete", "don't recognise that button"},
		{"unknown button", "launch:rocket", "now", "don't recognise that button"},
		{"garbled paging", "actions:more", "{not json", "don't recognise that button"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			el, _ := json.Marshal(map[string]any{"type": "button", "action_id": tt.actionID, "value": tt.value, "text": map[string]any{"type": "plain_text", "text": "X"}})
			r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: "b", Element: el})
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, r.Status)
			posts := h.responses(r.ResponseURLID, 1)
			assert.Contains(t, posts[0].Text, tt.want)
			assert.False(t, posts[0].ReplaceOriginal)
		})
	}
	assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"))
}

func TestDoubleClickSendsOnePUT(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	list, _ := h.slash(alice, "/actions", "")
	target := h.openActionsOf(alice.Email)[0]
	// The PUT is slow enough for the second click to arrive while the first
	// is under way.
	h.records.InjectFault(recordstest.Fault{Method: http.MethodPut, Latency: 300 * time.Millisecond})
	blockID, el, _ := list.element(t, "status:complete", "complete|"+target.ID+"|")
	var wg sync.WaitGroup
	ids := make([]string, 3)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: blockID, Element: el})
			if assert.NoError(t, err) {
				assert.Equal(t, http.StatusOK, r.Status)
				ids[i] = r.ResponseURLID
			}
		}()
	}
	wg.Wait()
	require.NoError(t, h.bot.Wait(t.Context()))
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"), "one PUT for three clicks")
	// A later click finds the status already set.
	posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
	assert.Contains(t, posts[0].Text, "already")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
	for _, id := range ids {
		for _, p := range h.slack.ResponsePosts(id) {
			assert.NotContains(t, string(p.Body), "went wrong", "no errors from a double click")
		}
	}
}

func TestFailedPUTLeavesTheMessageAndSaysSo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault recordstest.Fault
		want  string
	}{
		{"records down", recordstest.Fault{Method: http.MethodPut, Status: 500}, "Nothing was changed"},
		{"missing scope", recordstest.Fault{Method: http.MethodPut, Status: 403, Body: `{"error":"forbidden","message":"missing scope actions:write"}`}, "actions:write"},
		{"rate limited", recordstest.Fault{Method: http.MethodPut, Status: 429, RetryAfter: "20"}, "busy"},
		{"gone", recordstest.Fault{Method: http.MethodPut, Status: 404}, "doesn't exist"},
		{"slow", recordstest.Fault{Method: http.MethodPut, Latency: 20 * time.Second}, "isn't answering"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, withConfig(func(c *botConfig) { c.WorkTimeout = 1500 * time.Millisecond; c.AckBudget = 500 * time.Millisecond }))
			alice := h.person("alice")
			list, _ := h.slash(alice, "/actions", "")
			target := h.openActionsOf(alice.Email)[0]
			h.records.InjectFault(tt.fault)
			start := time.Now()
			posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
			assert.Less(t, time.Since(start), 5*time.Second)
			require.Len(t, posts, 1)
			assert.False(t, posts[0].ReplaceOriginal, "the original message is left as it was")
			assert.Contains(t, posts[0].Text, tt.want)
			assert.NotContains(t, posts[0].all(), "marked complete", "nothing reported done")
			got, _ := h.records.Action(target.ID)
			assert.Equal(t, target.Status, got.Status)
		})
	}
}

func TestShowMorePages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		for i := 0; i < 23; i++ {
			d.Actions = append(d.Actions, recordstest.Action{ID: fmt.Sprintf("bulk-%02d", i), Title: fmt.Sprintf("Bulk item %02d", i),
				Status: "open", AssigneeEmail: "zed@example.org", Deadline: time.Now().Add(time.Duration(i+1) * 24 * time.Hour)})
		}
	}))
	zed := slacktest.User{ID: "U0ZED", Name: "zed", RealName: "Zed Zephyr", Email: "zed@example.org"}
	h.addUser(zed)
	p1, _ := h.slash(zed, "/actions", "")
	assert.Contains(t, p1.all(), "bulk-00")
	assert.NotContains(t, p1.all(), "bulk-10", "ten rows a page")
	posts := h.clickEphemeral(zed, p1, "actions:more", "")
	p2 := posts[0]
	assert.True(t, p2.ReplaceOriginal)
	assert.Contains(t, p2.all(), `"action:bulk-10"`)
	assert.Contains(t, p2.all(), `"action:bulk-19"`)
	assert.NotContains(t, p2.all(), `"action:bulk-09"`)
	p3 := h.clickEphemeral(zed, p2, "actions:more", "")[0]
	assert.Contains(t, p3.all(), `"action:bulk-22"`)
	assert.NotContains(t, p3.all(), `"actions:more"`, "the last page has no Show more")
}

func TestMeetingsButtons(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	list, _ := h.slash(alice, "/meetings", "")
	assert.Contains(t, list.all(), `"meeting:agenda"`)
	next := h.clickEphemeral(alice, list, "meetings:next", "")[0]
	assert.True(t, next.ReplaceOriginal)
	assert.NotEqual(t, list.all(), next.all(), "the next page shows other meetings")

	// Agenda of the newest past meeting with approved minutes.
	var m recordstest.Meeting
	for _, mm := range h.records.Minutes() {
		if mm.Status == "approved" {
			for _, x := range h.records.Meetings() {
				if x.ID == mm.MeetingID {
					m = x
				}
			}
			break
		}
	}
	require.NotEmpty(t, m.ID)
	detail, _ := h.slash(alice, "/meetings", m.ID)
	assert.Contains(t, detail.all(), m.Agenda[0].Title[:10])
	minutes := h.clickEphemeral(alice, detail, "meeting:minutes", m.ID)[0]
	assert.Contains(t, minutes.all(), "minutes:share")
}

func TestShareMinutesInChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	m, _ := h.slash(alice, "/minutes", "")
	posts := h.clickEphemeral(alice, m, "minutes:share", "")
	assert.Contains(t, posts[0].Text, "Shared")
	msgs := h.slack.Messages("C0GENERAL")
	require.Len(t, msgs, 1, "posted to the channel as the bot")
	assert.Contains(t, jsonText(msgs[0].Blocks), "Shared by <@"+alice.ID+">")

	h.slack.SetBotInChannel("C0GENERAL", false)
	posts = h.clickEphemeral(alice, m, "minutes:share", "")
	assert.Contains(t, posts[0].Text, "/invite @recordsbot")
	assert.Len(t, h.slack.Messages("C0GENERAL"), 1, "nothing more was posted")
}

// A click on the bot's own (non-ephemeral) message that also holds a block
// the bot did not write, one Slack shows but refuses to take back from an
// app (invalid_blocks): the message is redrawn from the blocks the bot
// renders only, in one chat.update that Slack accepts, not first with the
// echo Slack refuses.
func TestClickOnMessageWithBlocksSlackWillNotTakeBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	list, _ := h.slash(alice, "/actions", "")
	target := h.openActionsOf(alice.Email)[0]
	call := json.RawMessage(`{"type":"call","block_id":"slack-call","call_id":"R0CALL","api_decoration_available":false}`)
	blocksJSON, err := json.Marshal(append(append([]json.RawMessage{}, list.Blocks...), call))
	require.NoError(t, err)
	ts := h.slack.PutMessage(slacktest.Message{Channel: "D0ALICE", Text: "Your actions", Blocks: blocksJSON})

	blockID, el, _ := list.element(t, "status:complete", "complete|"+target.ID+"|")
	r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "D0ALICE", MessageTS: ts, MessageBlocks: blocksJSON, BlockID: blockID, Element: el})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	require.NoError(t, h.bot.Wait(t.Context()))
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, "complete", got.Status)

	updates := h.slack.Calls("chat.update")
	require.Len(t, updates, 1, "one update, from the bot's own blocks")
	assert.Empty(t, updates[0].Error, "Slack took it")
	msgs := h.slack.Messages("D0ALICE")
	require.Len(t, msgs, 1)
	assert.Contains(t, jsonText(msgs[0].Blocks), "Marked complete by <@"+alice.ID+">", "the row changed in place")
	assert.NotContains(t, string(msgs[0].Blocks), `"call"`)
	assert.Empty(t, h.slack.ResponsePosts(r.ResponseURLID), "nothing to apologise for")
}

// A snooze on the bot's own (non-ephemeral) message that also holds a
// block Slack will not take back from an app is redrawn as a status
// change is, by the one redraw of the clicked message: one chat.update of
// the bot's own blocks, which Slack accepts, with the row snoozed.
func TestSnoozeRedrawsLikeAStatusChange(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t, remindWorld)
	clock := remindNow
	h.rebuild(bot.Deps{Store: st, Now: func() time.Time { return clock }})
	h.send.Now = func() time.Time { return clock }
	alice := h.users["U0ALICE"]
	list, _ := h.slash(alice, "/actions", "")
	call := json.RawMessage(`{"type":"call","block_id":"slack-call","call_id":"R0CALL","api_decoration_available":false}`)
	blocksJSON, err := json.Marshal(append(append([]json.RawMessage{}, list.Blocks...), call))
	require.NoError(t, err)
	ts := h.slack.PutMessage(slacktest.Message{Channel: "DU0ALICE", Text: "Your actions", Blocks: blocksJSON})

	blockID, el := rowElement(t, list, "A-1", blocks.ActionRowMenu)
	r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "DU0ALICE", MessageTS: ts, MessageBlocks: blocksJSON,
		MessageText: "Your actions", BlockID: blockID, Element: el, Option: blocks.SnoozeTomorrow})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Contains(t, h.responses(r.ResponseURLID, 1)[0].Text, "until Thu 19 Nov")

	updates := h.slack.Calls("chat.update")
	require.Len(t, updates, 1, "one update, from the bot's own blocks")
	assert.Empty(t, updates[0].Error, "Slack took it")
	msgs := h.slack.Messages("DU0ALICE")
	require.Len(t, msgs, 1)
	assert.Contains(t, jsonText(msgs[0].Blocks), "Snoozed until Thu 19 Nov", "the row changed in place")
	assert.NotContains(t, string(msgs[0].Blocks), `"call"`)
}
