package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeChannel stands in for Slack in the protocol test: posts carry the
// ledger key as metadata and can be searched for it, and a post can fail.
type fakeChannel struct {
	mu    sync.Mutex
	posts map[string]int // key → times posted
	ts    map[string]string
	n     int
}

var errSlackDown = errors.New("slack: 500")

func (c *fakeChannel) post(key string, fail bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fail {
		return "", errSlackDown
	}
	c.n++
	if c.posts == nil {
		c.posts, c.ts = map[string]int{}, map[string]string{}
	}
	c.posts[key]++
	c.ts[key] = fmt.Sprintf("1700000000.%06d", c.n)
	return c.ts[key], nil
}

// find is conversations.history with include_all_metadata, reduced to what
// the protocol needs.
func (c *fakeChannel) find(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts, ok := c.ts[key]
	return ts, ok
}

// The protocol in doc.go, run by two watchers at once on separate pools,
// with Slack failing some posts and watchers "killed" between posting and
// Done: after enough polls every key is posted exactly once.
func testExactlyOnceProtocol(t *testing.T, e engine) {
	url := e.newURL(t)
	clock := newClock()
	watchers := []*Store{open(t, url, WithClock(clock.Now)), open(t, url, WithClock(clock.Now))}
	const keys, lease = 40, time.Minute
	var slack fakeChannel
	rng := rand.New(rand.NewPCG(1, 2))
	var rngMu sync.Mutex
	chance := func(p float64) bool {
		rngMu.Lock()
		defer rngMu.Unlock()
		return rng.Float64() < p
	}

	var failed, killed, recovered atomic.Int32
	poll := func(w int, s *Store, round int) {
		owner := fmt.Sprintf("watcher%d-poll%d", w, round) // a restart is a new owner
		for k := range keys {
			key := fmt.Sprintf("announce/C1/mtg_%d/approved", k)
			r, err := s.Claim(t.Context(), key, owner, lease)
			if !assert.NoError(t, err) { // not require: this runs off the test goroutine
				return
			}
			switch r {
			case ClaimDone, ClaimBusy:
				continue
			case ClaimExpired:
				if ts, ok := slack.find(key); ok {
					recovered.Add(1)
					assert.NoError(t, s.Done(t.Context(), key, owner, ts))
					continue
				}
			}
			ts, err := slack.post(key, chance(0.2))
			if err != nil {
				failed.Add(1)
				assert.NoError(t, s.Release(t.Context(), key, owner))
				continue
			}
			if chance(0.2) {
				killed.Add(1)
				continue // killed between posting and recording
			}
			assert.NoError(t, s.Done(t.Context(), key, owner, ts))
		}
	}

	for round := 0; round < 12; round++ {
		var wg sync.WaitGroup
		for w, s := range watchers {
			wg.Go(func() { poll(w, s, round) })
		}
		wg.Wait()
		clock.Advance(lease) // the next poll comes after every lease ran out
	}

	// The test means something only if the bad paths were taken.
	require.Positive(t, failed.Load(), "posts that failed")
	require.Positive(t, killed.Load(), "watchers killed between post and Done")
	require.Positive(t, recovered.Load(), "expired claims whose post was found in the channel")
	for k := range keys {
		key := fmt.Sprintf("announce/C1/mtg_%d/approved", k)
		assert.Equal(t, 1, slack.posts[key], "%s: posts", key)
		ts, done, err := watchers[0].Result(t.Context(), key)
		require.NoError(t, err)
		assert.True(t, done, "%s recorded", key)
		assert.Equal(t, slack.ts[key], ts, "%s: the ts recorded is the post's", key)
	}
}
