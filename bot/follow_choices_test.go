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
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// followBoxes finds the checkbox group of the follow of key in m: its
// block_id, the element and the values ticked.
func followBoxes(t *testing.T, m msg, key string) (blockID string, el json.RawMessage, ticked []string) {
	t.Helper()
	for _, b := range m.Blocks {
		var blk struct {
			BlockID   string          `json:"block_id"`
			Accessory json.RawMessage `json:"accessory"`
		}
		require.NoError(t, json.Unmarshal(b, &blk))
		if k, ok := blocks.FollowKeyOf(blk.BlockID); !ok || k != key {
			continue
		}
		if blk.Accessory == nil {
			return blk.BlockID, nil, nil
		}
		var boxes struct {
			Type    string `json:"type"`
			Initial []struct {
				Value string `json:"value"`
			} `json:"initial_options"`
		}
		require.NoError(t, json.Unmarshal(blk.Accessory, &boxes))
		require.Equal(t, "checkboxes", boxes.Type)
		for _, o := range boxes.Initial {
			ticked = append(ticked, o.Value)
		}
		return blk.BlockID, blk.Accessory, ticked
	}
	t.Fatalf("no follow %q in %s", key, m.all())
	return "", nil, nil
}

// tick sends user's click on the checkboxes of the follow of key in m,
// leaving selected ticked, and returns the message drawn in its place.
func (h *harness) tick(user slacktest.User, m msg, key string, selected ...string) msg {
	h.t.Helper()
	blockID, el, _ := followBoxes(h.t, m, key)
	r, err := h.send.Click(h.t.Context(), slacktest.Click{User: user, ChannelID: "C0GENERAL", Ephemeral: true,
		BlockID: blockID, Element: el, Selected: selected})
	require.NoError(h.t, err)
	require.Equal(h.t, http.StatusOK, r.Status)
	got := h.responses(r.ResponseURLID, 1)[0]
	assert.True(h.t, got.ReplaceOriginal, "redrawn in place")
	return got
}

// TestFollowingCheckboxes: /minutes following shows each follow with
// what the channel hears as checkboxes; unticking one changes the follow
// in the store and redraws the list in place, with the new state and who
// changed it. With FOLLOW_ADMINS_ONLY, others see what the channel hears
// but no boxes, and a tick of theirs changes nothing.
func TestFollowingCheckboxes(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st, withConfig(func(c *botConfig) {
			c.Follows.Defaults, _ = store.ParseFollowDefaults("approvals,digest,briefs")
		}))
		alice := h.person("alice")
		const general = "C0GENERAL"
		h.minutesIn(alice, general, "general", "follow finance")
		h.minutesIn(alice, general, "general", "follow audit")

		list := h.minutesIn(alice, general, "general", "following")
		_, _, ticked := followBoxes(t, list, "finance")
		assert.Equal(t, []string{store.HearApprovals, store.HearDigest, store.HearBriefs}, ticked, "FOLLOW_DEFAULTS: no drafts")

		got := h.tick(alice, list, "finance", store.HearDrafts, store.HearApprovals, store.HearDigest)
		_, _, ticked = followBoxes(t, got, "finance")
		assert.Equal(t, []string{store.HearDrafts, store.HearApprovals, store.HearDigest}, ticked)
		assert.Contains(t, got.all(), "*Finance* now brings drafts published, approvals and weekly digest here")
		got = h.tick(alice, got, "finance", store.HearDrafts, store.HearDigest)
		_, _, ticked = followBoxes(t, got, "finance")
		assert.Equal(t, []string{store.HearDrafts, store.HearDigest}, ticked)
		_, _, ticked = followBoxes(t, got, "audit & risk")
		assert.Equal(t, []string{store.HearApprovals, store.HearDigest, store.HearBriefs}, ticked, "the other follow is as it was")

		fs, err := st.FollowsInChannel(t.Context(), general)
		require.NoError(t, err)
		for _, f := range fs {
			if f.CommitteeKey == "finance" {
				require.NotNil(t, f.Choices.Drafts)
				require.NotNil(t, f.Choices.Approvals)
				assert.True(t, *f.Choices.Drafts)
				assert.False(t, *f.Choices.Approvals)
				assert.Nil(t, f.Choices.Digest, "left ticked: never set")
			}
		}

		// Admins only: bob sees no boxes; a tick from an older list
		// changes nothing and redraws what the channel hears.
		h2 := newStoreHarness(t, st, withConfig(func(c *botConfig) { c.Follows.AdminsOnly = true }), withAdmins(alice.ID))
		bob := h2.person("bob")
		ro := h2.minutesIn(bob, general, "general", "following")
		_, el, _ := followBoxes(t, ro, "finance")
		assert.Nil(t, el, "no checkboxes for bob")
		assert.Contains(t, ro.all(), "Hears: drafts published")
		assert.Contains(t, ro.all(), "Only the app's admins may change")
		got = h2.tick(bob, list, "finance")
		assert.Contains(t, got.all(), "Nothing was changed")
		fs, err = st.FollowsInChannel(t.Context(), general)
		require.NoError(t, err)
		for _, f := range fs {
			if f.CommitteeKey == "finance" {
				assert.True(t, *f.Choices.Drafts, "unchanged")
			}
		}
		assert.False(t, strings.Contains(got.all(), "<@"+bob.ID+"> changed it"))
	})
}

// TestFollowingDigestCheckbox: the weekly digest is a checkbox of
// /minutes following, its schedule under it. Unticked (as Slack sends the
// click: the boxes still ticked, digest not among them), the watcher
// posts no digest at the slot; ticked back after the slot, the missed
// digest is not posted late, and the next slot's is.
func TestFollowingDigestCheckbox(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			// One clock for the store (when a choice is made) and the
			// watcher (when it polls).
			clock := &testClock{t: time.Now().UTC()}
			st := openTestStore(t, engine, store.WithClock(clock.Now))
			h := newStoreHarness(t, st)
			alice := h.person("alice")
			const general = "C0GENERAL"
			wdeps := h.watcherDeps(t, st)
			// The digest's slot: the day after tomorrow at 09:00 UTC.
			slot := clock.Now().Truncate(24*time.Hour).AddDate(0, 0, 2).Add(9 * time.Hour)
			wcfg := watch.Config{Follows: follows.Settings{Digest: &clocktime.Weekly{On: true, Day: slot.Weekday(), At: clocktime.Of(9, 0)}}, Now: clock.Now}
			poll := func() watch.Summary {
				t.Helper()
				sum, err := watch.Poll(t.Context(), wcfg, wdeps)
				require.NoError(t, err)
				return sum
			}
			digests := func() int {
				n := 0
				for _, m := range h.slack.Messages(general) {
					if !m.Ephemeral && strings.HasPrefix(m.Text, "Weekly digest of Finance") {
						n++
					}
				}
				return n
			}

			h.minutesIn(alice, general, "general", "follow finance")
			list := h.minutesIn(alice, general, "general", "following")
			_, _, ticked := followBoxes(t, list, "finance")
			assert.Contains(t, ticked, store.HearDigest, "on by default")
			assert.Contains(t, list.all(), `"text":"Weekly digest"`)
			// The time said, lower-case inside the label, even
			// where DIGEST_DEFAULT is not said: its own default.
			assert.Contains(t, list.all(), "every Monday 09:00, the usual time", "its schedule under the checkbox")
			assert.NotContains(t, list.all(), "At the usual time")

			got := h.tick(alice, list, "finance", store.HearDrafts, store.HearApprovals, store.HearBriefs)
			_, _, ticked = followBoxes(t, got, "finance")
			assert.NotContains(t, ticked, store.HearDigest)
			assert.Contains(t, got.all(), "now brings drafts published, approvals and pre-meeting briefs here")
			poll() // the baseline poll

			clock.Add(slot.Add(time.Minute).Sub(clock.Now()))
			assert.Zero(t, poll().Digests, "unticked: no digest at the slot")
			assert.Zero(t, digests())

			clock.Add(2 * time.Hour)
			got = h.tick(alice, got, "finance", store.HearDrafts, store.HearApprovals, store.HearDigest, store.HearBriefs)
			_, _, ticked = followBoxes(t, got, "finance")
			assert.Contains(t, ticked, store.HearDigest)
			assert.Zero(t, poll().Digests, "ticked back after the slot: the missed digest is not posted late")
			clock.Add(24 * time.Hour)
			assert.Zero(t, poll().Digests)

			clock.Add(slot.AddDate(0, 0, 7).Add(time.Minute).Sub(clock.Now()))
			assert.Equal(t, 1, poll().Digests, "the next slot's digest")
			assert.Equal(t, 1, digests())
			assert.Zero(t, poll().Digests, "once")
		})
	}
}
