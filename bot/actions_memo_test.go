package bot_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/store"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// TestActionsReplyMemo: /actions draws a person's list once per version
// of the shared list and serves the same bytes after that, but never a
// reply that is no longer what they would be shown: not after an action
// of theirs turned overdue, not after a click changed the list, and never
// another person's.
func TestActionsReplyMemo(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Now()}
	var alice recordstest.Person
	var soon string // alice's action that falls due in an hour
	h := newHarnessDeps(t, bot.Deps{Now: clock.Now},
		withActions(func(c *actions.Config) { c.CacheTTL, c.ProfileTTL = 24*time.Hour, 24*time.Hour }),
		withDataset(func(d *recordstest.Dataset) {
			for _, p := range d.People {
				if sampleorg.Handle(p) == "alice" {
					alice = p
				}
			}
			for i, a := range d.Actions {
				if strings.EqualFold(a.AssigneeEmail, alice.Email) && a.Status == "open" {
					d.Actions[i].Deadline, d.Actions[i].DateOnly = clock.Now().Add(time.Hour), false
					soon = a.ID
					break
				}
			}
		}))
	require.NotEmpty(t, soon, "alice has an open action")
	aliceU, bob := h.person("alice"), h.person("bob")

	first, _ := h.slash(aliceU, "/actions", "")
	reads := h.records.Count(http.MethodGet, "/actions")
	again, _ := h.slash(aliceU, "/actions", "")
	assert.Equal(t, string(first.raw), string(again.raw), "the same list version, drawn once")
	assert.Equal(t, reads, h.records.Count(http.MethodGet, "/actions"), "the list was not read again")
	assert.False(t, rowOverdue(t, first, soon), "not yet overdue: %s", first.all())

	// Bob's list is his own, not alice's memoised one.
	bobs, _ := h.slash(bob, "/actions", "")
	assert.NotEqual(t, first.all(), bobs.all())
	assert.Contains(t, first.all(), soon)
	assert.NotContains(t, bobs.all(), soon)

	// An hour later the same list version shows the action overdue.
	clock.Add(time.Hour + time.Minute)
	later, _ := h.slash(aliceU, "/actions", "")
	assert.True(t, rowOverdue(t, later, soon), "overdue after its deadline: %s", later.all())
	assert.Equal(t, reads, h.records.Count(http.MethodGet, "/actions"), "still the same list version")

	// A click redraws the list with new block IDs (the harness checks
	// Slack's rule), and the next /actions no longer shows the action.
	posts := h.clickEphemeral(aliceU, later, "status:complete", "complete|"+soon+"|")
	require.Len(t, posts, 1)
	assert.Contains(t, posts[0].all(), "Marked complete")
	after, _ := h.slash(aliceU, "/actions", "")
	assert.NotContains(t, after.all(), soon, "completed: off the open list")
	afterAgain, _ := h.slash(aliceU, "/actions", "")
	assert.Equal(t, string(after.raw), string(afterAgain.raw), "the new version is memoised in its turn")
}

// rowOverdue reports whether the row of action id in m says it is overdue.
func rowOverdue(t *testing.T, m msg, id string) bool {
	t.Helper()
	for _, b := range m.Blocks {
		s := string(b)
		if strings.Contains(s, `"block_id":"action:`+id) {
			return strings.Contains(s, "Overdue")
		}
	}
	t.Fatalf("no row for %s in %s", id, m.all())
	return false
}

// TestActionsReplyMemoIsPerViewer: the same list asked for by two people
// is drawn for each, by the visibility and change rules of each, and each
// gets their own again from the memo.
func TestActionsReplyMemoIsPerViewer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAdmins("U0ALICE"), withVisibility(actions.VisibleOrganisation))
	alice, bob, carol := h.person("alice"), h.person("bob"), h.person("carol")
	bobs := h.openActionsOf(bob.Email)
	require.NotEmpty(t, bobs)
	for range 2 {
		m, _ := h.slash(carol, "/actions", "@bob")
		assert.Contains(t, m.all(), `"action:`+bobs[0].ID+`"`)
		assert.NotContains(t, m.all(), `"action_id":"status:`, "carol may not change bob's actions: no buttons")
		m, _ = h.slash(alice, "/actions", "@bob")
		assert.Contains(t, m.all(), `"complete|`+bobs[0].ID, "alice is an admin: buttons")
		m, _ = h.slash(bob, "/actions", "")
		assert.Contains(t, m.all(), `"complete|`+bobs[0].ID, "bob's own list")
	}
}

// TestUncachedActionsReplyMemo: with the cache off every /actions reads
// the list; while the records service sends the same bytes the list is the
// same version and the reply drawn from it is served again, but never one
// drawn with other snoozes (another replica's, read from the store for
// every command) nor from other records.
func TestUncachedActionsReplyMemo(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			st := openTestStore(t, engine)
			h := newHarnessDeps(t, bot.Deps{Store: st},
				withActions(func(c *actions.Config) { c.CacheTTL, c.ProfileTTL = -1, 24*time.Hour }))
			alice := h.person("alice")
			var mine string
			for _, a := range h.records.Actions() {
				if a.Status == "open" && strings.Contains(a.AssigneeEmail, "alice") {
					mine = a.ID
					break
				}
			}
			require.NotEmpty(t, mine)

			reads := h.records.Count(http.MethodGet, "/actions")
			first, _ := h.slash(alice, "/actions", "")
			per := h.records.Count(http.MethodGet, "/actions") - reads // open, then in progress
			require.Positive(t, per)
			second, _ := h.slash(alice, "/actions", "")
			third, _ := h.slash(alice, "/actions", "")
			assert.Equal(t, reads+3*per, h.records.Count(http.MethodGet, "/actions"), "the list is read for every command")
			assert.Contains(t, first.all(), mine)
			assert.Equal(t, string(second.raw), string(third.raw), "the same records: the reply drawn once is served again")
			assert.NotContains(t, third.all(), "snooze:end")

			// A snooze made on another replica is in the store only.
			require.NoError(t, st.Snooze(t.Context(), alice.ID, mine, "2099-01-01"))
			snoozed, _ := h.slash(alice, "/actions", "")
			assert.NotEqual(t, string(third.raw), string(snoozed.raw))
			assert.Contains(t, snoozed.all(), "snooze:end", "the row of %s shows its snooze", mine)

			// New records: a new list, drawn afresh.
			acts := h.records.Actions()
			for i := range acts {
				if acts[i].ID == mine {
					acts[i].Title = "Renamed while nobody was looking"
				}
			}
			h.records.SetActions(acts)
			renamed, _ := h.slash(alice, "/actions", "")
			assert.Contains(t, renamed.all(), "Renamed while nobody was looking")
		})
	}
}

// countedStore counts the reads a list page could make of the store: the
// caller's snoozes, their time away and their settings.
type countedStore struct {
	bot.Store
	snoozes, away, settings atomic.Int32
}

func (c *countedStore) Snoozes(ctx context.Context, user string) (map[string]store.Snooze, error) {
	c.snoozes.Add(1)
	return c.Store.Snoozes(ctx, user)
}

func (c *countedStore) AwayOf(ctx context.Context, user string) (store.Away, error) {
	c.away.Add(1)
	return c.Store.AwayOf(ctx, user)
}

func (c *countedStore) Settings(ctx context.Context, user string) (store.Settings, error) {
	c.settings.Add(1)
	return c.Store.Settings(ctx, user)
}

// reads is what c counted since the last call.
func (c *countedStore) reads() [3]int32 {
	return [3]int32{c.snoozes.Swap(0), c.away.Swap(0), c.settings.Swap(0)}
}

// TestActionsStoreReads: a cached /actions reads nothing from the store
// once its reply is drawn; with the cache off each one reads the caller's
// snoozes, once, and nothing else.
func TestActionsStoreReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		ttl   time.Duration
		first [3]int32 // snoozes, away, settings: the first command
		again [3]int32 // each command after it
	}{
		{"cached", 24 * time.Hour, [3]int32{1, 0, 0}, [3]int32{0, 0, 0}},
		{"uncached", -1, [3]int32{1, 0, 0}, [3]int32{1, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := &countedStore{Store: openTestStore(t, "sqlite")}
			h := newHarnessDeps(t, bot.Deps{Store: st},
				withActions(func(c *actions.Config) { c.CacheTTL, c.ProfileTTL = tc.ttl, 24*time.Hour }))
			alice := h.person("alice")
			st.reads() // what starting read
			first, _ := h.slash(alice, "/actions", "")
			require.Contains(t, first.all(), "snooze:date")
			assert.Equal(t, tc.first, st.reads(), "the first /actions")
			for range 3 {
				h.slash(alice, "/actions", "")
				assert.Equal(t, tc.again, st.reads(), "a later /actions")
			}
		})
	}
}
