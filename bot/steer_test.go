package bot_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

// TestRemindAwayWeeklyHolidays runs the reminder job over the store on
// both engines: away suppresses reminders and sends one catch-up DM,
// exactly once, listing what was assigned meanwhile; a weekly cadence
// sends one summary on its day of everything due within the week; no
// reminders on a holiday, from a list or from an iCalendar file.
func TestRemindAwayWeeklyHolidays(t *testing.T) {
	t.Parallel()
	wednesday := remindNow // 10:00 UTC, 18 November 2026
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			t.Run("away, then one catch-up", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				require.NoError(t, st.SetAway(t.Context(), "U0ALICE", "2026-11-19"))
				require.NoError(t, st.Hold(t.Context(), "U0ALICE", []string{"A-3"})) // the watcher held its assignment DM
				// Carol's A-8 has no deadline: held, it is in her
				// catch-up all the same (the run read it before).
				require.NoError(t, st.SetAway(t.Context(), "U0CAROL", "2026-11-19"))
				require.NoError(t, st.Hold(t.Context(), "U0CAROL", []string{"A-8"}))
				run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday})
				require.NoError(t, run.err)
				assert.Zero(t, dmCount(h, "DU0ALICE"), "away: no reminder")
				assert.Equal(t, 2, run.sum.Away, "alice and carol")
				run = h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday.AddDate(0, 0, 1)})
				require.NoError(t, run.err)
				assert.Zero(t, dmCount(h, "DU0ALICE"), "the last day away: still none")

				friday := wednesday.AddDate(0, 0, 2)
				require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday}).err)
				msgs := h.slack.Messages("DU0ALICE")
				require.Len(t, msgs, 1, "one catch-up DM the day after")
				body := string(msgs[0].Blocks)
				assert.Contains(t, body, "While you were away")
				assert.Contains(t, body, "Assigned while you were away")
				assert.Contains(t, body, `|Task A-3\u003e*`, "held, though not due within REMIND_DAYS")
				assert.Contains(t, body, `"action_id":"status:complete"`, "with the usual buttons")
				carol := h.slack.Messages("DU0CAROL")
				require.Len(t, carol, 1)
				assert.Contains(t, string(carol[0].Blocks), `|Task A-8\u003e*`, "held, though it has no deadline")
				require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday.Add(2 * time.Hour)}).err)
				assert.Len(t, h.slack.Messages("DU0ALICE"), 1, "exactly once")
				a, err := st.AwayOf(t.Context(), "U0ALICE")
				require.NoError(t, err)
				assert.True(t, a.CaughtUp)
				held, err := st.Held(t.Context(), "U0ALICE")
				require.NoError(t, err)
				assert.Empty(t, held)
			})
			t.Run("weekly cadence", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				fri := clocktime.Weekly{On: true, Day: time.Friday, At: clocktime.Of(9, 0)}
				require.NoError(t, st.ChangeSettings(t.Context(), "U0ALICE", store.Settings{Cadence: &fri}))
				run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday})
				require.NoError(t, run.err)
				assert.Zero(t, dmCount(h, "DU0ALICE"), "weekly on Friday: nothing on Wednesday")
				assert.Equal(t, 1, dmCount(h, "DU0BOB"), "others daily as before")
				friday := wednesday.AddDate(0, 0, 2)
				require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday}).err)
				require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday.Add(3 * time.Hour)}).err)
				msgs := h.slack.Messages("DU0ALICE")
				require.Len(t, msgs, 1, "one summary a week")
				body := string(msgs[0].Blocks)
				assert.Contains(t, body, "Your week's actions")
				assert.Contains(t, body, "within the next week")
				assert.Contains(t, body, `|Task A-3\u003e*`, "due within the week, beyond REMIND_DAYS")
				// The organisation's default (REMIND_CADENCE) for who has not chosen.
				org := bot.NotifyDefaults{Cadence: clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}}
				before := dmCount(h, "DU0BOB")
				run = h.remindWithStore(st, org, remind.Config{Days: 3, Now: friday.AddDate(0, 0, 1)})
				require.NoError(t, run.err)
				assert.Equal(t, before, dmCount(h, "DU0BOB"), "REMIND_CADENCE weekly on Monday: nothing on Saturday")
			})
			t.Run("holidays from a list and from an iCalendar file", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				ics := filepath.Join(t.TempDir(), "closures.ics")
				require.NoError(t, os.WriteFile(ics, []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261119\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"), 0o600))
				cal, err := workdays.Load(t.Context(), "2026-11-18,"+ics, nil)
				require.NoError(t, err)
				run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday, Holidays: cal})
				require.NoError(t, run.err)
				assert.Equal(t, 4, run.sum.Holiday, "18 November, from the list: nobody")
				run = h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday.AddDate(0, 0, 1), Holidays: cal})
				require.NoError(t, run.err)
				assert.Equal(t, 4, run.sum.Holiday, "19 November, from the file: nobody")
				assert.Zero(t, dmCount(h, "DU0ALICE"))
				run = h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday.AddDate(0, 0, 2), Holidays: cal})
				require.NoError(t, run.err)
				assert.Equal(t, 1, dmCount(h, "DU0ALICE"), "a working day again")
			})
		})
	}
}
