package bot_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

// TestSnoozeFromAReminder presses a reminder's Snooze choices and date
// picker as Slack sends them, on both engines: the snooze leaves the
// action out of the person's reminders until the chosen local day, then
// it is back; bad days and other people's actions get a short answer and
// store nothing; /actions snoozed lists it with Unsnooze; completing the
// action ends the snooze.
func TestSnoozeFromAReminder(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			st := openTestStore(t, engine)
			h := newHarness(t, remindWorld)
			wednesday := remindNow // 10:00 UTC, Wednesday 18 November 2026
			// Monday 23 November is a holiday: "the next working day"
			// from Friday skips the weekend and it.
			cal, err := workdays.Load(t.Context(), "2026-11-23", nil)
			require.NoError(t, err)
			cal.SkipWeekends = true
			clock := wednesday
			h.rebuild(bot.Deps{Store: st, Now: func() time.Time { return clock }}, withConfig(func(c *bot.Config) { c.Workdays = cal }))
			// Slack signs its requests at the test's moment, which the
			// bot checks against its own clock.
			h.send.Now = func() time.Time { return clock }
			alice, bob := h.users["U0ALICE"], h.users["U0BOB"]

			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday}).err)
			// The latest reminder as Slack holds it now: a snooze
			// redraws its row.
			current := func() (slacktest.Message, msg) {
				t.Helper()
				msgs := h.slack.Messages("DU0ALICE")
				require.NotEmpty(t, msgs)
				last := msgs[len(msgs)-1]
				body, err := json.Marshal(map[string]any{"text": last.Text, "blocks": last.Blocks})
				require.NoError(t, err)
				return last, parseMsg(t, body)
			}
			// click presses a control on action id's row as user.
			click := func(user slacktest.User, actionID, id, option, date string) string {
				t.Helper()
				stored, dm := current()
				blockID, el := rowElement(t, dm, id, actionID)
				r, err := h.send.Click(t.Context(), slacktest.Click{User: user, ChannelID: "DU0ALICE", MessageTS: stored.TS, MessageBlocks: stored.Blocks,
					MessageText: stored.Text, BlockID: blockID, Element: el, Option: option, Date: date})
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, r.Status)
				return h.responses(r.ResponseURLID, 1)[0].Text
			}
			press := func(user slacktest.User, when, id string) string {
				t.Helper()
				return click(user, blocks.ActionRowMenu, id, when, "")
			}
			snoozes := func() map[string]store.Snooze {
				got, err := st.Snoozes(t.Context(), alice.ID)
				require.NoError(t, err)
				return got
			}
			pickFor := func(id, date string) string {
				t.Helper()
				return click(alice, blocks.ActionSnoozeDate, id, "", date)
			}

			assert.Contains(t, pickFor("A-1", "2026-11-17"), "That day has already come")
			assert.Contains(t, pickFor("A-1", "2026-11-18"), "That day has already come", "today is no snooze")
			assert.Contains(t, pickFor("A-1", "2027-12-01"), "more than a year away")
			assert.Contains(t, press(bob, blocks.SnoozeTomorrow, "A-2"), "Only the action's assignee can snooze it", "an admin or anyone else cannot silence Alice")
			assert.Empty(t, snoozes(), "refused: nothing stored")

			got := pickFor("A-1", "2026-11-20")
			assert.Contains(t, got, ":zzz: Snoozed *Task A-1* until Fri 20 Nov: no reminders of it before then.")
			assert.Contains(t, got, "It is already overdue.", "A-1 was due on the 10th")
			assert.NotContains(t, got, "falls inside the snooze", "an overdue deadline is not inside the snooze")
			got = press(alice, blocks.SnoozeTomorrow, "A-2")
			assert.Contains(t, got, "until Thu 19 Nov")
			assert.NotContains(t, got, "deadline", "A-2 is due on the 21st, after the snooze")
			assert.NotContains(t, got, "overdue")
			_, dm := current()
			assert.Contains(t, dm.all(), "Snoozed until Fri 20 Nov", "the row in the DM is redrawn snoozed")
			_, unsnooze := rowElement(t, dm, "A-1", blocks.ActionUnsnooze)
			assert.Contains(t, string(unsnooze), "Unsnooze", "with Unsnooze in place of the choices")
			assert.Equal(t, "2026-11-20", snoozes()["A-1"].Until)
			assert.Equal(t, "2026-11-19", snoozes()["A-2"].Until)

			thursday := wednesday.AddDate(0, 0, 1)
			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: thursday}).err)
			msgs := h.slack.Messages("DU0ALICE")
			require.Len(t, msgs, 2)
			assert.NotContains(t, string(msgs[1].Blocks), `|Task A-1\u003e*`, "snoozed until Friday: left out on Thursday")
			assert.Contains(t, string(msgs[1].Blocks), `|Task A-2\u003e*`, "snoozed until Thursday: back on Thursday")

			friday := wednesday.AddDate(0, 0, 2)
			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday}).err)
			msgs = h.slack.Messages("DU0ALICE")
			require.Len(t, msgs, 3)
			assert.Contains(t, string(msgs[2].Blocks), `|Task A-1\u003e*`, "back on the chosen day")

			clock = friday
			got = press(alice, blocks.SnoozeWorkingDay, "A-2")
			assert.Contains(t, got, "until Tue 24 Nov", "next working day: past the weekend and Monday's holiday")
			assert.Contains(t, got, "Its deadline falls inside the snooze.", "A-2 is due on Saturday the 21st")
			list, _ := h.slash(alice, "/actions", "snoozed")
			assert.Contains(t, list.all(), "Snoozed until Tue 24 Nov")
			assert.Contains(t, list.all(), `"action_id":"snooze:end"`)
			blockID, el := rowElement(t, list, "A-2", blocks.ActionUnsnooze)
			r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: blockID, Element: el})
			require.NoError(t, err)
			answers := h.responses(r.ResponseURLID, 1)
			assert.Contains(t, answers[0].Text, "Unsnoozed")
			assert.NotContains(t, snoozes(), "A-2")

			got = press(alice, blocks.SnoozeNextWeek, "A-14")
			assert.Contains(t, got, "until Fri 27 Nov")
			assert.Contains(t, got, "It is already overdue.", "A-14 was due on Thursday at 08:00")
			_, _ = h.slash(alice, "/actions", "complete A-14")
			assert.NotContains(t, snoozes(), "A-14", "completing the action ends its snooze")
		})
	}
}

// rowElement is the element actionID on action id's row of m: its block
// (the row's buttons block) and the element's JSON.
func rowElement(t *testing.T, m msg, id, actionID string) (blockID string, el json.RawMessage) {
	t.Helper()
	for _, b := range m.Blocks {
		var blk struct {
			BlockID  string            `json:"block_id"`
			Elements []json.RawMessage `json:"elements"`
		}
		require.NoError(t, json.Unmarshal(b, &blk))
		if got, ok := blocks.ActionOfRowBlock(blk.BlockID); !ok || got != id {
			continue
		}
		for _, e := range blk.Elements {
			var x struct {
				ActionID string `json:"action_id"`
			}
			if json.Unmarshal(e, &x) == nil && x.ActionID == actionID {
				return blk.BlockID, e
			}
		}
	}
	t.Fatalf("no %s on %s's row in %s", actionID, id, m.raw)
	return "", nil
}

// TestSnoozeOnListsAndHome puts the Snooze controls on /actions and Home
// tab rows, for the assignee only, on both engines: an admin reading
// Alice's list sees none; a snooze from /actions shows on her next
// /actions (the memoised reply is forgotten) and her Home tab; a status
// click on a reminder row redraws the row with its controls, which still
// name the action (the controls are part of the row, so a redraw cannot
// leave a snooze block with old controls and no block ID, whose date
// picker could not say which action it was for); completing a snoozed action from that row
// ends the snooze and the controls.
func TestSnoozeOnListsAndHome(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			st := openTestStore(t, engine)
			h := newHarness(t, remindWorld)
			clock := remindNow // Wednesday 18 November 2026, 10:00 UTC
			h.rebuild(bot.Deps{Store: st, Now: func() time.Time { return clock }}, withAdmins("U0BOB"), withVisibility(actions.VisibleOrganisation))
			h.send.Now = func() time.Time { return clock }
			alice, bob := h.users["U0ALICE"], h.users["U0BOB"]

			list, _ := h.slash(alice, "/actions", "")
			rowElement(t, list, "A-1", blocks.ActionRowMenu)
			rowElement(t, list, "A-1", blocks.ActionSnoozeDate)
			theirs, _ := h.slash(bob, "/actions", "@alice")
			require.Contains(t, theirs.all(), "Task A-1", "the admin reads Alice's list")
			assert.NotContains(t, theirs.all(), blocks.ActionSnoozePrefix, "but cannot snooze for her")

			blockID, el := rowElement(t, list, "A-14", blocks.ActionRowMenu)
			r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: blockID, Element: el, Option: blocks.SnoozeTomorrow})
			require.NoError(t, err)
			assert.Contains(t, h.responses(r.ResponseURLID, 1)[0].Text, "until Thu 19 Nov")
			again, _ := h.slash(alice, "/actions", "")
			assert.Contains(t, again.all(), "Snoozed until Thu 19 Nov", "the next /actions shows it")
			rowElement(t, again, "A-14", blocks.ActionUnsnooze)
			home := h.openHome(t, "Ev0SNOOZE1", alice)
			rowElement(t, home, "A-14", blocks.ActionUnsnooze)
			rowElement(t, home, "A-1", blocks.ActionRowMenu)

			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: clock}).err)
			dm := func() (slacktest.Message, msg) {
				t.Helper()
				msgs := h.slack.Messages("DU0ALICE")
				require.Len(t, msgs, 1)
				body, err := json.Marshal(map[string]any{"text": msgs[0].Text, "blocks": msgs[0].Blocks})
				require.NoError(t, err)
				return msgs[0], parseMsg(t, body)
			}
			click := func(blockID string, el json.RawMessage, option, date string) string {
				t.Helper()
				stored, _ := dm()
				r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "DU0ALICE", MessageTS: stored.TS, MessageBlocks: stored.Blocks,
					MessageText: stored.Text, BlockID: blockID, Element: el, Option: option, Date: date})
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, r.Status)
				h.settle(t)
				return stored.TS
			}
			_, reminder := dm()
			assert.NotContains(t, reminder.all(), "Task A-14", "snoozed: left out of the reminder")
			blockID, el, _ = reminder.element(t, "status:in_progress", "|A-1|")
			click(blockID, el, "", "")
			_, reminder = dm()
			require.Contains(t, reminder.all(), "Started by", "the row was redrawn")
			blockID, el = rowElement(t, reminder, "A-1", blocks.ActionSnoozeDate)
			click(blockID, el, "", "2026-11-20")
			got, err := st.Snoozes(t.Context(), alice.ID)
			require.NoError(t, err)
			assert.Equal(t, "2026-11-20", got["A-1"].Until, "the redrawn row's date picker names its action")
			_, reminder = dm()
			assert.Contains(t, reminder.all(), "Snoozed until Fri 20 Nov")

			blockID, el, _ = reminder.element(t, "status:complete", "|A-1|")
			click(blockID, el, "", "")
			got, err = st.Snoozes(t.Context(), alice.ID)
			require.NoError(t, err)
			assert.NotContains(t, got, "A-1", "completing ends the snooze")
			_, reminder = dm()
			for _, b := range reminder.Blocks {
				if id, ok := blocks.ActionOfRowBlock(rawID(t, b)); ok && id == "A-1" {
					assert.NotContains(t, string(b), blocks.ActionSnoozePrefix, "a completed action offers no snooze")
				}
			}
		})
	}
}

// rawID is a raw block's block_id.
func rawID(t *testing.T, b json.RawMessage) string {
	t.Helper()
	var blk struct {
		BlockID string `json:"block_id"`
	}
	require.NoError(t, json.Unmarshal(b, &blk))
	return blk.BlockID
}

// TestRowMenuAnswersBothKinds: a row's menu holds status changes and
// Snooze choices, and each option does what it says; the menus of
// messages sent before it (a status:menu overflow, a snooze:when select)
// still answer, since a reminder or list may stay on screen for days.
func TestRowMenuAnswersBothKinds(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t, remindWorld)
	clock := remindNow // Wednesday 18 November 2026
	h.rebuild(bot.Deps{Store: st, Now: func() time.Time { return clock }})
	h.send.Now = func() time.Time { return clock }
	alice := h.users["U0ALICE"]
	list, _ := h.slash(alice, "/actions", "")
	choose := func(blockID string, el json.RawMessage, option string) string {
		t.Helper()
		r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, BlockID: blockID, Element: el, Option: option})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		var said []string
		for _, p := range h.responses(r.ResponseURLID, 1) {
			said = append(said, p.all())
		}
		return strings.Join(said, "\n")
	}

	blockID, menu := rowElement(t, list, "A-1", blocks.ActionRowMenu)
	assert.Contains(t, choose(blockID, menu, blocks.SnoozeTomorrow), "until Thu 19 Nov", "a Snooze choice snoozes")
	blockID, menu = rowElement(t, list, "A-14", blocks.ActionRowMenu)
	assert.Contains(t, choose(blockID, menu, "cancelled|A-14|-"), "Cancelled by", "a status option changes the status")

	// An older message's controls on A-2's row.
	blockID, _ = rowElement(t, list, "A-2", blocks.ActionRowMenu)
	oldSelect := json.RawMessage(`{"type":"static_select","action_id":"snooze:when","placeholder":{"type":"plain_text","text":"Snooze…","emoji":true},` +
		`"options":[{"text":{"type":"plain_text","text":"Until tomorrow","emoji":true},"value":"tomorrow"},{"text":{"type":"plain_text","text":"For a week","emoji":true},"value":"week"}]}`)
	assert.Contains(t, choose(blockID, oldSelect, blocks.SnoozeNextWeek), "until Wed 25 Nov", "an older Snooze select still snoozes")
	oldMenu := json.RawMessage(`{"type":"overflow","action_id":"status:menu",` +
		`"options":[{"text":{"type":"plain_text","text":"Mark cancelled","emoji":true},"value":"cancelled|A-2|-"},{"text":{"type":"plain_text","text":"Back to open","emoji":true},"value":"open|A-2|-"}]}`)
	assert.Contains(t, choose(blockID, oldMenu, "open|A-2|-"), "Moved back to open by", "an older status menu still changes the status")

	snoozed, err := st.Snoozes(t.Context(), alice.ID)
	require.NoError(t, err)
	assert.Len(t, snoozed, 2, "A-1 and A-2 snoozed")
}
