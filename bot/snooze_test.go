package bot_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
			stored, dm := h.dm("DU0ALICE")
			press := func(user slacktest.User, actionID, valuePart, date string) string {
				t.Helper()
				blockID, el, opt := dm.element(t, actionID, valuePart)
				r, err := h.send.Click(t.Context(), slacktest.Click{User: user, ChannelID: "DU0ALICE", MessageTS: stored.TS, MessageBlocks: stored.Blocks,
					MessageText: stored.Text, BlockID: blockID, Element: el, Option: opt, Date: date})
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, r.Status)
				return h.responses(r.ResponseURLID, 1)[0].Text
			}
			snoozes := func() map[string]store.Snooze {
				got, err := st.Snoozes(t.Context(), alice.ID)
				require.NoError(t, err)
				return got
			}
			// The picker is on A-1's row: its block names the action.
			pickFor := func(id, date string) string {
				t.Helper()
				for _, b := range dm.Blocks {
					if strings.Contains(string(b), `"block_id":"snooze:`+id+`~`) {
						blockID, el, _ := msg{Blocks: []json.RawMessage{b}}.element(t, blocks.ActionSnoozeDate, "")
						r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "DU0ALICE", MessageTS: stored.TS, MessageBlocks: stored.Blocks,
							MessageText: stored.Text, BlockID: blockID, Element: el, Date: date})
						require.NoError(t, err)
						return h.responses(r.ResponseURLID, 1)[0].Text
					}
				}
				t.Fatalf("no snooze block for %s", id)
				return ""
			}

			assert.Contains(t, pickFor("A-1", "2026-11-17"), "That day has already come")
			assert.Contains(t, pickFor("A-1", "2026-11-18"), "That day has already come", "today is no snooze")
			assert.Contains(t, pickFor("A-1", "2027-12-01"), "more than a year away")
			assert.Contains(t, press(bob, blocks.ActionSnooze, "A-2", ""), "Only the action's assignee can snooze it", "an admin or anyone else cannot silence Alice")
			assert.Empty(t, snoozes(), "refused: nothing stored")

			got := pickFor("A-1", "2026-11-20")
			assert.Contains(t, got, ":zzz: Snoozed *Task A-1* until Fri 20 Nov: no reminders of it before then.")
			assert.Contains(t, got, "Its deadline falls inside the snooze.", "A-1 was due on the 10th")
			assert.Contains(t, press(alice, blocks.ActionSnooze, "tomorrow|A-2", ""), "until Thu 19 Nov")
			assert.Equal(t, "2026-11-20", snoozes()["A-1"].Until)
			assert.Equal(t, "2026-11-19", snoozes()["A-2"].Until)

			thursday := wednesday.AddDate(0, 0, 1)
			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: thursday}).err)
			msgs := h.slack.Messages("DU0ALICE")
			require.Len(t, msgs, 2)
			assert.NotContains(t, string(msgs[1].Blocks), "*Task A-1*", "snoozed until Friday: left out on Thursday")
			assert.Contains(t, string(msgs[1].Blocks), "*Task A-2*", "snoozed until Thursday: back on Thursday")

			friday := wednesday.AddDate(0, 0, 2)
			require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday}).err)
			msgs = h.slack.Messages("DU0ALICE")
			require.Len(t, msgs, 3)
			assert.Contains(t, string(msgs[2].Blocks), "*Task A-1*", "back on the chosen day")

			clock = friday
			assert.Contains(t, press(alice, blocks.ActionSnooze, "workday|A-2", ""), "until Tue 24 Nov", "next working day: past the weekend and Monday's holiday")
			list, _ := h.slash(alice, "/actions", "snoozed")
			assert.Contains(t, list.all(), "Snoozed until Tue 24 Nov")
			assert.Contains(t, list.all(), `"action_id":"snooze:end"`)
			answers := h.clickEphemeral(alice, list, blocks.ActionUnsnooze, "A-2")
			assert.Contains(t, answers[0].Text, "Unsnoozed")
			assert.NotContains(t, snoozes(), "A-2")

			assert.Contains(t, press(alice, blocks.ActionSnooze, "week|A-14", ""), "until Fri 27 Nov")
			_, _ = h.slash(alice, "/actions", "complete A-14")
			assert.NotContains(t, snoozes(), "A-14", "completing the action ends its snooze")
		})
	}
}
