package bot_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

func TestHomeNotificationSettings(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st, withConfig(func(c *bot.Config) {
			c.Notify = bot.NotifyDefaults{RemindAt: clocktime.Of(8, 0), AssignDMsOff: true}
		}))
		alice := h.person("alice")

		view := h.openHome(t, "Ev_settings", alice)
		s := view.all()
		assert.Contains(t, s, "*Daily reminders:* On")
		assert.Contains(t, s, "*Reminder time:* 08:00, your local time", "REMIND_AT is the default")
		assert.Contains(t, s, "Not picked yet, so this is your organisation's time", "the Home tab says whose time it is")
		assert.Contains(t, s, "*Weekdays only:* Off")
		assert.Contains(t, s, "*New-assignment DMs:* Off", "ASSIGN_DMS_DEFAULT=off is the default")
		assert.Contains(t, s, "Your actions", "the rest of Home is still there")

		steps := []struct {
			action, value string
			note, shows   string
			check         func(t *testing.T, set store.Settings)
		}{
			{blocks.ActionSettingsRemind, "off", "Daily reminders are off", "*Daily reminders:* Off", func(t *testing.T, set store.Settings) {
				require.NotNil(t, set.RemindEnabled)
				assert.False(t, *set.RemindEnabled)
				assert.True(t, set.RemindAt.IsZero(), "the other choices stay the default")
			}},
			{blocks.ActionSettingsRemindAt, "07:00", "Reminders now arrive from 07:00", "*Reminder time:* 07:00", func(t *testing.T, set store.Settings) {
				assert.Equal(t, "07:00", set.RemindAt.String())
				assert.False(t, *set.RemindEnabled, "the earlier change is kept")
			}},
			{blocks.ActionSettingsWeekdays, "on", "weekdays only", "*Weekdays only:* On", func(t *testing.T, set store.Settings) {
				require.NotNil(t, set.WeekdaysOnly)
				assert.True(t, *set.WeekdaysOnly)
			}},
			{blocks.ActionSettingsAssignDMs, "on", "I'll DM you when an action is assigned", "*New-assignment DMs:* On", func(t *testing.T, set store.Settings) {
				require.NotNil(t, set.AssignDMs)
				assert.True(t, *set.AssignDMs)
			}},
			{blocks.ActionSettingsRemind, "on", "Daily reminders are on", "*Daily reminders:* On", func(t *testing.T, set store.Settings) {
				assert.True(t, *set.RemindEnabled)
			}},
		}
		for _, step := range steps {
			h.clickHome(t, alice, view, step.action, step.value)
			view = h.homeView(t, alice)
			s := view.all()
			assert.Contains(t, s, step.note, "the change is confirmed in place")
			assert.Contains(t, s, step.shows, "the Home tab shows the new state")
			set, err := st.Settings(t.Context(), alice.ID)
			require.NoError(t, err)
			step.check(t, set)
		}
		assert.Contains(t, view.all(), `"initial_option":{"text":{"emoji":true,"text":"07:00","type":"plain_text"},"value":"07:00"}`,
			"the menu shows the time chosen")
		assert.Contains(t, view.all(), "Your choice: your daily reminder comes at this time or soon after")
		assert.NotContains(t, view.all(), "Not picked yet", "a time picked is the person's own")

		// Someone else still has the defaults.
		bob, err := st.Settings(t.Context(), h.person("bob").ID)
		require.NoError(t, err)
		assert.Equal(t, store.Settings{}, bob)
	})
}

// Clicks on different settings that arrive together (a person clicking
// quickly, Slack delivering two interactions at once, two replicas) all
// land: each saves only its own field.
func TestHomeSettingsClickedTogether(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st)
		alice := h.person("alice")
		view := h.openHome(t, "Ev_together", alice)
		h.clickTogether(t, alice, view,
			homeClick{h.send, blocks.ActionSettingsRemind, "off"},
			homeClick{h.send, blocks.ActionSettingsRemindAt, "07:00"},
			homeClick{h.send, blocks.ActionSettingsWeekdays, "on"},
			homeClick{h.send, blocks.ActionSettingsAssignDMs, "off"})

		set, err := st.Settings(t.Context(), alice.ID)
		require.NoError(t, err)
		require.NotNil(t, set.RemindEnabled)
		require.NotNil(t, set.WeekdaysOnly)
		require.NotNil(t, set.AssignDMs)
		assert.Equal(t, []any{false, "07:00", true, false}, []any{*set.RemindEnabled, set.RemindAt.String(), *set.WeekdaysOnly, *set.AssignDMs}, "every click landed")
		s := h.homeView(t, alice).all()
		for _, want := range []string{"*Daily reminders:* Off", "*Reminder time:* 07:00", "*Weekdays only:* On", "*New-assignment DMs:* Off"} {
			assert.Contains(t, s, want, "the Home tab ends showing all four")
		}
	})
}

// Two replicas behind one Request URL each take one of two clicks made
// together on the same Home tab. Neither knows of the other's publish; the
// hash of the version clicked makes Slack refuse whichever answer comes
// second (hash_conflict), and that one is built again from the store. The
// Home tab ends showing both changes, round after round.
func TestHomeSettingsClickedOnTwoReplicas(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newStoreHarness(t, st)
	replicaA := h.send
	h.rebuild(bot.Deps{Store: st})
	replicaB := h.send
	alice := h.person("alice")
	view := h.openHome(t, "Ev_replicas", alice)
	for round := range 12 {
		remind, weekdays := "off", "on"
		if round%2 == 1 {
			remind, weekdays = "on", "off"
		}
		h.clickTogether(t, alice, view,
			homeClick{replicaA, blocks.ActionSettingsRemind, remind},
			homeClick{replicaB, blocks.ActionSettingsWeekdays, weekdays})
		view = h.homeView(t, alice)
		s := view.all()
		word := map[string]string{"on": "On", "off": "Off"}
		require.Contains(t, s, "*Daily reminders:* "+word[remind], "round %d: the Home tab shows both changes", round)
		require.Contains(t, s, "*Weekdays only:* "+word[weekdays], "round %d: the Home tab shows both changes", round)
	}
}

// homeClick is a click on a Home tab element, sent through via.
type homeClick struct {
	via           *slacktest.Sender
	action, value string
}

// clickTogether sends the clicks on user's Home view at the same moment,
// as Slack does when they come quickly, and waits for their work.
func (h *harness) clickTogether(t *testing.T, user slacktest.User, view msg, clicks ...homeClick) {
	t.Helper()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, c := range clicks {
		blockID, el, opt := view.element(t, c.action, c.value)
		wg.Go(func() {
			<-start
			r, err := c.via.Click(t.Context(), slacktest.Click{User: user, View: view.raw, BlockID: blockID, Element: el, Option: opt})
			if assert.NoError(t, err) {
				assert.Equal(t, http.StatusOK, r.Status)
			}
		})
	}
	close(start)
	wg.Wait()
	h.settle(t)
}

func TestHomeSettingsWhileTheStoreIsDown(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newStoreHarness(t, st)
	alice := h.person("alice")
	view := h.openHome(t, "Ev_up", alice)
	require.NoError(t, st.Close())

	h.clickHome(t, alice, view, blocks.ActionSettingsRemind, "off")
	s := h.homeView(t, alice).all()
	assert.Contains(t, s, "I can't reach my database right now, so nothing was changed", "the click is answered")
	assert.Contains(t, s, "notification settings can't be shown or changed")
	assert.NotContains(t, s, "*Daily reminders:*", "no controls that cannot work")
	assert.Contains(t, s, "Your actions", "the actions need no store")
}

// remindWithStore runs the reminder job as `recordsbot remind` does: its
// ledger and people's settings in st, over the organisation's defaults d.
func (h *harness) remindWithStore(st *store.Store, d bot.NotifyDefaults, cfg remind.Config) remindRun {
	h.t.Helper()
	if cfg.Now.IsZero() {
		cfg.Now = remindNow
	}
	cfg.RemindAt, cfg.SkipWeekends = d.RemindAt, d.WeekdaysOnly
	var out bytes.Buffer
	sum, err := remind.Run(h.t.Context(), cfg, remind.Deps{
		Actions:  h.actions,
		Slack:    slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL())),
		Store:    st,
		Settings: remind.StoreSettings(st, d),
		Logger:   testlog.New(h.t),
		Clock:    slacktest.NewScaledClock(time.Now(), 1000),
		Out:      &out,
	})
	return remindRun{sum: sum, err: err, out: out.String()}
}

func boolp(b bool) *bool                { return &b }
func dmCount(h *harness, ch string) int { return len(h.slack.Messages(ch)) }

func TestRemindObeysStoredSettings(t *testing.T) {
	t.Parallel()
	wednesday := remindNow // 10:00 in London
	saturday := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			t.Run("off, a later time, and reminded-today in the store", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				require.NoError(t, st.SaveSettings(t.Context(), "U0ALICE", store.Settings{RemindEnabled: boolp(false)}))
				require.NoError(t, st.SaveSettings(t.Context(), "U0BOB", store.Settings{RemindAt: clocktime.Of(11, 0)}))

				run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday})
				require.NoError(t, run.err)
				assert.Zero(t, dmCount(h, "DU0ALICE"), "reminders off: no DM")
				assert.Zero(t, dmCount(h, "DU0BOB"), "11:00 has not come yet")
				assert.Equal(t, 1, run.sum.NotYet)
				assert.Equal(t, 1, dmCount(h, "DU0CAROL"), "the default: reminded")
				_, done, err := st.Result(t.Context(), "remind:U0CAROL:2026-11-18")
				require.NoError(t, err)
				assert.True(t, done, "reminded-today is recorded in the store")

				run = h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: wednesday.Add(90 * time.Minute)})
				require.NoError(t, run.err)
				assert.Equal(t, 1, dmCount(h, "DU0BOB"), "after 11:00 Bob is reminded")
				assert.Equal(t, 1, dmCount(h, "DU0CAROL"), "and Carol not twice")
				assert.Zero(t, dmCount(h, "DU0ALICE"))
			})
			t.Run("REMIND_DEFAULT=off, and someone who chose on", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				require.NoError(t, st.SaveSettings(t.Context(), "U0CAROL", store.Settings{RemindEnabled: boolp(true)}))
				run := h.remindWithStore(st, bot.NotifyDefaults{RemindOff: true}, remind.Config{Days: 3, Now: wednesday})
				require.NoError(t, run.err)
				assert.Equal(t, 1, run.sum.Reminded)
				assert.Equal(t, 1, dmCount(h, "DU0CAROL"))
			})
			t.Run("weekdays only in the person's zone", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				// Friday 22:00 in London is Saturday 11:00 in Auckland:
				// her weekend, nobody else's.
				h.addUser(slacktest.User{ID: "U0CAROL", Name: "carol", RealName: "Carol Chen", Email: "carol@example.org", TZ: "Pacific/Auckland"})
				require.NoError(t, st.SaveSettings(t.Context(), "U0CAROL", store.Settings{WeekdaysOnly: boolp(true)}))
				friday := time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC)
				run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday})
				require.NoError(t, run.err)
				assert.Zero(t, dmCount(h, "DU0CAROL"), "weekdays only: nothing on her Saturday")
				assert.Equal(t, 1, run.sum.Weekend)
				assert.Equal(t, 1, dmCount(h, "DU0ALICE"), "a Friday in London")

				require.NoError(t, st.SaveSettings(t.Context(), "U0CAROL", store.Settings{WeekdaysOnly: boolp(false)}))
				run = h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: friday})
				require.NoError(t, run.err)
				assert.Equal(t, 1, dmCount(h, "DU0CAROL"), "every day again: reminded on her Saturday")
			})
			t.Run("the organisation skips weekends; one person chose every day", func(t *testing.T) {
				t.Parallel()
				st := openTestStore(t, engine)
				h := newHarness(t, remindWorld)
				require.NoError(t, st.SaveSettings(t.Context(), "U0ALICE", store.Settings{WeekdaysOnly: boolp(false)}))
				run := h.remindWithStore(st, bot.NotifyDefaults{WeekdaysOnly: true}, remind.Config{Days: 3, Now: saturday})
				require.NoError(t, run.err)
				assert.Equal(t, 1, dmCount(h, "DU0ALICE"), "her own choice wins")
				assert.Equal(t, 3, run.sum.Weekend)
			})
		})
	}
}

// TestStopTheseFromAReminder presses the reminder DM's buttons as Slack
// sends them (the DM's own blocks and ts) and checks what the person sees
// and that the next day's run obeys.
func TestStopTheseFromAReminder(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t, remindWorld)
	h.rebuild(bot.Deps{Store: st})
	alice := h.users["U0ALICE"]
	require.NoError(t, h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3}).err)
	stored, dm := h.dm("DU0ALICE")
	assert.Contains(t, dm.all(), `"action_id":"notify:stop"`, "every reminder can be stopped")

	click := func(actionID string) *slacktest.Response {
		blockID, el, _ := dm.element(t, actionID, blocks.NotifyReminders)
		r, err := h.send.Click(t.Context(), slacktest.Click{
			User: alice, ChannelID: "DU0ALICE", MessageTS: stored.TS, MessageBlocks: stored.Blocks, MessageText: stored.Text, BlockID: blockID, Element: el,
		})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		h.settle(t)
		return r
	}

	r := click(blocks.ActionNotifySettings)
	answer := h.responses(r.ResponseURLID, 1)[0]
	assert.Contains(t, answer.Text, "under *Notifications* on my *Home* tab")
	assert.Contains(t, answer.Text, "<slack://app?id=A0RECORDS&tab=home&team=", "a deep link to the Home tab")
	assert.Contains(t, h.homeView(t, alice).all(), "*Daily reminders:* On", "the Home tab is ready with the settings")

	click(blocks.ActionNotifyStop)
	set, err := st.Settings(t.Context(), alice.ID)
	require.NoError(t, err)
	require.NotNil(t, set.RemindEnabled)
	assert.False(t, *set.RemindEnabled, "saved off")
	after, updated := h.dm("DU0ALICE")
	assert.True(t, after.Edited, "confirmed in place")
	s := updated.all()
	assert.Contains(t, s, "Daily reminders are off. Turn them back on under *Notifications* on my Home tab.")
	assert.NotContains(t, s, `"notify:stop"`, "the buttons gave way to the note")
	assert.Equal(t, outline(t, dm), outline(t, updated), "the reminder itself stays")
	assert.Equal(t, stored.Text, after.Text)

	thursday := remindNow.Add(24 * time.Hour)
	run := h.remindWithStore(st, bot.NotifyDefaults{}, remind.Config{Days: 3, Now: thursday})
	require.NoError(t, run.err)
	assert.Len(t, h.slack.Messages("DU0ALICE"), 1, "no reminder the next day")
	assert.Len(t, h.slack.Messages("DU0BOB"), 2, "others still get theirs")
}

// A store that is down leaves /readyz ready (the replica can still answer
// everything that needs no store, and say so for the rest) and is logged
// once, not once per request.
func TestStoreDownIsNotReadinessAndIsLoggedOnce(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t)
		var logs lockedBuffer
		h.rebuild(bot.Deps{Store: st, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		require.NoError(t, st.Close())
		alice := h.person("alice")
		for range 20 {
			got := h.minutesIn(alice, "C0GENERAL", "general", "following")
			require.Contains(t, got.Text, "I can't reach my database right now")
		}
		resp, err := http.Get(h.http.URL + "/readyz")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the process can still take requests")
		assert.Equal(t, 1, strings.Count(string(logs.Bytes()), `msg="dependency down" dependency=store`), string(logs.Bytes()))
		assert.NotContains(t, string(logs.Bytes()), "following failed", "no line per request")
	})
}
