package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/clocktime/clocktimetest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// TestDigestOffIsTheBox: `/minutes follow <c> digest off` and the Weekly
// digest box are one switch. `digest fri 16:30`, then `digest off`: the
// box is unticked, its own time said under it, and no digest comes at
// the slot; ticked again after the slot, the missed digest is not posted
// late, and the next Friday 16:30's is.
func TestDigestOffIsTheBox(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			clock := &testClock{t: time.Now().UTC()}
			st := openTestStore(t, engine, store.WithClock(clock.Now))
			h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "mon 09:00") }))
			alice := h.person("alice")
			const general = "C0GENERAL"
			wdeps := h.watcherDeps(t, st)
			// The channel's own slot: the day after tomorrow at 16:30 UTC;
			// the organisation's (never due in this test) a week off.
			slot := clock.Now().Truncate(24*time.Hour).AddDate(0, 0, 2).Add(16*time.Hour + 30*time.Minute)
			day := strings.ToLower(slot.Weekday().String()[:3])
			dayName := slot.Weekday().String()
			wcfg := watch.Config{Follows: follows.Settings{Digest: &clocktime.Weekly{On: true, Day: slot.AddDate(0, 0, 3).Weekday(), At: clocktime.Of(9, 0)}}, Now: clock.Now}
			poll := func() watch.Summary {
				t.Helper()
				sum, err := watch.Poll(t.Context(), wcfg, wdeps)
				require.NoError(t, err)
				return sum
			}
			following := func() msg { return h.minutesIn(alice, general, "general", "following") }

			h.minutesIn(alice, general, "general", "follow finance digest "+day+" 16:30")
			poll() // the baseline poll
			got := h.minutesIn(alice, general, "general", "follow finance digest off")
			assert.Contains(t, got.Text, "Tick its *Weekly digest* box in `/minutes following` to bring it back every "+dayName+" 16:30, as before")
			list := following()
			_, _, ticked := followBoxes(t, list, "finance")
			assert.NotContains(t, ticked, store.HearDigest, "digest off: the box unticked")
			assert.Contains(t, list.all(), "off — was every "+dayName+" 16:30", "its own time kept, said under the box")

			clock.Add(slot.Add(time.Minute).Sub(clock.Now()))
			assert.Zero(t, poll().Digests, "off: no digest at the slot")

			clock.Add(2 * time.Hour)
			got = h.tick(alice, list, "finance", store.HearApprovals, store.HearDigest, store.HearBriefs)
			_, _, ticked = followBoxes(t, got, "finance")
			assert.Contains(t, ticked, store.HearDigest, "ticked: on")
			assert.Contains(t, got.all(), "every "+dayName+" 16:30", "resumes at the channel's own time")
			assert.NotContains(t, got.all(), "off —")
			assert.Zero(t, poll().Digests, "ticked back after the slot: nothing back-dated")
			clock.Add(24 * time.Hour)
			assert.Zero(t, poll().Digests)

			clock.Add(slot.AddDate(0, 0, 7).Add(-time.Minute).Sub(clock.Now()))
			assert.Zero(t, poll().Digests, "not before its time")
			clock.Add(2 * time.Minute)
			assert.Equal(t, 1, poll().Digests, "the next "+day+" 16:30")
			assert.Zero(t, poll().Digests, "once")
		})
	}
}

// TestDigestBoxWithoutATime: with DIGEST_DEFAULT off, a follow without a
// time of its own has its box unticked, with the command that gives it
// one; ticking it says so and leaves it unticked, rather than showing a
// digest that never comes.
func TestDigestBoxWithoutATime(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "off") }))
		alice := h.person("alice")
		const general = "C0GENERAL"
		h.minutesIn(alice, general, "general", "follow finance")
		list := h.minutesIn(alice, general, "general", "following")
		_, _, ticked := followBoxes(t, list, "finance")
		assert.NotContains(t, ticked, store.HearDigest, "no time: unticked")
		assert.Contains(t, list.all(), "off, as usual here (/minutes follow … digest mon 09:00)")

		got := h.tick(alice, list, "finance", store.HearApprovals, store.HearDigest, store.HearBriefs)
		_, _, ticked = followBoxes(t, got, "finance")
		assert.NotContains(t, ticked, store.HearDigest, "still no time: still unticked")
		assert.Contains(t, got.all(), "has no time here yet")
		assert.Contains(t, got.all(), "`/minutes follow Finance digest mon 09:00` chooses one")
		assert.NotContains(t, got.all(), "weekly digest and", "not said to bring the digest")

		h.minutesIn(alice, general, "general", "follow finance digest wed 10:00")
		_, _, ticked = followBoxes(t, h.minutesIn(alice, general, "general", "following"), "finance")
		assert.Contains(t, ticked, store.HearDigest, "a time of its own: ticked")
	})
}

// TestDigestOffKeptTheOldWay: a follow whose schedule was kept as "off"
// (how `digest off` was stored before it became the box) shows the box
// unticked; ticking it brings the organisation's usual time.
func TestDigestOffKeptTheOldWay(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "mon 09:00") }))
		alice := h.person("alice")
		const general = "C0GENERAL"
		h.minutesIn(alice, general, "general", "follow finance")
		require.NoError(t, st.SetDigestChoice(t.Context(), general, "finance", clocktimetest.Weekly(t, "off"), false))

		list := h.minutesIn(alice, general, "general", "following")
		_, _, ticked := followBoxes(t, list, "finance")
		assert.NotContains(t, ticked, store.HearDigest)
		assert.Contains(t, list.all(), "off — the usual time is every Monday 09:00")

		got := h.tick(alice, list, "finance", store.HearApprovals, store.HearDigest, store.HearBriefs)
		_, _, ticked = followBoxes(t, got, "finance")
		assert.Contains(t, ticked, store.HearDigest)
		assert.Contains(t, got.all(), "every Monday 09:00, the usual time")
		d, err := st.Digest(t.Context(), general, "finance")
		require.NoError(t, err)
		assert.Nil(t, d.Schedule, "the old \"off\" gave way to the usual time")
	})
}
