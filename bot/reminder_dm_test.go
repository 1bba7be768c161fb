package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/remind/remindtest"
)

// The reminder DM as the bot serves it: its buttons, pressed as Slack
// sends them, change the action and redraw the DM. The job itself
// (remind.Run: who is reminded of what, once a day, paced) is tested in
// package remind; here it only puts a reminder in a DM to press.

// remindNow is when the reminder tests run (remindtest.Now): a Wednesday
// morning.
var remindNow = remindtest.Now

// remindDataset is remindtest's organisation as a harness option's edit.
func remindDataset(d *recordstest.Dataset) { *d = remindtest.Dataset() }

// remindRun is one run of the reminder job against the harness's fakes.
type remindRun struct {
	sum remind.Summary
	err error
	out string
}

// remindWorld is the reminder tests' organisation: remindDataset, with
// USER_MAP naming Dee, who the records know by name only. USER_MAP is the
// action domain's, which the bot and the job share.
func remindWorld(s harnessSetup) {
	withDataset(remindDataset)(s)
	s.actions.UserMap = remindtest.UserMap()
}

// remind runs the job with cfg, at remindNow when cfg leaves the time
// out, reading the actions through the harness's action domain (the one
// the bot has), paced on a clock 1,000 times faster than real time.
func (h *harness) remind(cfg remind.Config) remindRun {
	h.t.Helper()
	if cfg.Now.IsZero() {
		cfg.Now = remindNow
	}
	var out bytes.Buffer
	sum, err := remind.Run(h.t.Context(), cfg, remind.Deps{
		Actions: h.actions,
		Slack:   slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL())),
		Logger:  testlog.New(h.t),
		Out:     &out,
		Clock:   slacktest.NewScaledClock(time.Now(), 1000),
		Store:   h.jobStore(),
	})
	return remindRun{sum: sum, err: err, out: out.String()}
}

// dm returns the only message in a DM channel, parsed.
func (h *harness) dm(channel string) (slacktest.Message, msg) {
	h.t.Helper()
	msgs := h.slack.Messages(channel)
	require.Len(h.t, msgs, 1, "messages in %s", channel)
	body, err := json.Marshal(map[string]any{"text": msgs[0].Text, "blocks": msgs[0].Blocks})
	require.NoError(h.t, err)
	return msgs[0], parseMsg(h.t, body)
}

// outline is a reminder's structure: its group labels and the IDs of its
// rows, in order (remindtest.Outline).
func outline(t *testing.T, m msg) []string { return remindtest.Outline(t, m.Blocks) }

// TestRemindButtonsWorkInTheDM presses a button of a reminder exactly as
// Slack would (the DM's real blocks and ts, a non-ephemeral container) and
// checks that `serve` changes the action and updates that DM in place.
func TestRemindButtonsWorkInTheDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	require.NoError(t, h.remind(remind.Config{Days: 3}).err)
	stored, dm := h.dm("DU0ALICE")

	blockID, el, _ := dm.element(t, "status:complete", "complete|A-1|")
	r, err := h.send.Click(t.Context(), slacktest.Click{
		User: h.users["U0ALICE"], ChannelID: "DU0ALICE",
		MessageTS: stored.TS, MessageBlocks: stored.Blocks,
		BlockID: blockID, Element: el,
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.slack.Wait(ctx, func() bool { return len(h.slack.Calls("chat.update")) > 0 }))

	got, _ := h.records.Action("A-1")
	assert.Equal(t, "complete", got.Status, "the records service has the new status")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
	updates := h.slack.Calls("chat.update")
	require.Len(t, updates, 1)
	assert.Equal(t, "DU0ALICE", updates[0].Params.Get("channel"))
	assert.Equal(t, stored.TS, updates[0].Params.Get("ts"), "the reminder itself is updated")

	after, updated := h.dm("DU0ALICE")
	assert.True(t, after.Edited)
	s := updated.all()
	assert.Contains(t, s, "Marked complete by <@U0ALICE>", "the row says who changed it")
	assert.NotContains(t, s, `"complete|A-1|"`, "no Complete button on a completed action")
	assert.Contains(t, s, `"open|A-1|"`, "but Reopen")
	assert.Contains(t, s, `"complete|A-2|"`, "the other rows keep their buttons")
	assert.Equal(t, outline(t, dm), outline(t, updated), "every row stays where it was")
	assert.Equal(t, string(stored.Metadata), string(after.Metadata), "the update keeps the metadata")

	// So the once-a-day rule still holds after a click.
	again := h.remind(remind.Config{Days: 3})
	require.NoError(t, again.err)
	assert.Equal(t, 4, again.sum.Skipped)
}

// TestReminderRecountsWhenARowChanges: Complete clicked on a reminder DM's
// rows, signed as Slack signs them, leaves the DM Slack holds saying what
// is still to do: "1 overdue action and 2 due" becomes "2 due" after the
// overdue one is done, then "1 action due" after one due soon is too, and
// Reopen counts it again. The rows stay, redrawn with who changed them.
func TestReminderRecountsWhenARowChanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	require.NoError(t, h.remind(remind.Config{Days: 3}).err)
	alice := h.users["U0ALICE"]
	held := func() (slacktest.Message, msg) {
		t.Helper()
		msgs := h.slack.Messages("DU0ALICE")
		require.Len(t, msgs, 1, "the reminder is updated in place")
		body, err := json.Marshal(map[string]any{"text": msgs[0].Text, "blocks": msgs[0].Blocks})
		require.NoError(t, err)
		return msgs[0], parseMsg(t, body)
	}
	press := func(actionID, value string) msg {
		t.Helper()
		stored, dm := held()
		updates := len(h.slack.Calls("chat.update"))
		blockID, el, _ := dm.element(t, actionID, value)
		r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "DU0ALICE",
			MessageTS: stored.TS, MessageBlocks: stored.Blocks, MessageText: stored.Text, BlockID: blockID, Element: el})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		require.NoError(t, h.slack.Wait(ctx, func() bool { return len(h.slack.Calls("chat.update")) > updates }))
		_, dm = held()
		return dm
	}
	_, dm := held()
	require.Contains(t, dm.all(), "You have *1 overdue action* and *2* due within 3 days.")

	dm = press("status:complete", "complete|A-1|")
	assert.Contains(t, dm.all(), "You have *2 actions* due within 3 days.", "the overdue one is done")
	assert.NotContains(t, dm.all(), "overdue action")
	assert.Contains(t, dm.all(), "*Task A-1*", "its row stays, redrawn")

	dm = press("status:complete", "complete|A-2|")
	assert.Contains(t, dm.all(), "You have *1 action* due within 3 days.")

	dm = press("status:open", "open|A-1|")
	assert.Contains(t, dm.all(), "You have *1 overdue action* and *1* due within 3 days.", "reopened: counted again")
	assert.Empty(t, h.slack.BlockIDReuse(), "each version under new block IDs")
}
