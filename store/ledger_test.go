package store

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ledgerCases() []conformanceCase {
	return []conformanceCase{
		{"ledger claim, done, skip", false, testLedgerLifecycle},
		{"ledger lease expiry and owners", false, testLedgerExpiry},
		{"ledger release and prune", false, testLedgerReleasePrune},
		{"ledger claim race across pools", true, testLedgerRace},
		{"exactly-once protocol: two watchers, Slack failures, crashes", true, testExactlyOnceProtocol},
		{"leader lock", false, testLock},
		{"leader lock race across pools", true, testLockRace},
	}
}

func testLedgerLifecycle(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	ctx := t.Context()

	r, err := s.Claim(ctx, "announce/C1/mtg_1/approved", "w1", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimNew, r)
	r, err = s.Claim(ctx, "announce/C1/mtg_1/approved", "w2", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimBusy, r, "another owner while the lease runs")
	r, err = s.Claim(ctx, "announce/C1/mtg_1/approved", "w1", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimBusy, r, "the same owner again: still busy, not a second ClaimNew")

	_, done, err := s.Result(ctx, "announce/C1/mtg_1/approved")
	require.NoError(t, err)
	assert.False(t, done, "claimed is not done")

	assert.ErrorIs(t, s.Done(ctx, "announce/C1/mtg_1/approved", "w2", "x"), ErrNotOwner, "done by a non-owner")
	require.NoError(t, s.Done(ctx, "announce/C1/mtg_1/approved", "w1", "1700000000.000100"))
	require.NoError(t, s.Done(ctx, "announce/C1/mtg_1/approved", "w1", "1700000000.000100"), "done twice by its owner")

	for _, who := range []string{"w1", "w2", "w3"} {
		r, err = s.Claim(ctx, "announce/C1/mtg_1/approved", who, time.Minute)
		require.NoError(t, err)
		assert.Equal(t, ClaimDone, r, "claim by %s after done", who)
	}
	res, done, err := s.Result(ctx, "announce/C1/mtg_1/approved")
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, "1700000000.000100", res)

	_, done, err = s.Result(ctx, "never")
	require.NoError(t, err)
	assert.False(t, done)
	assert.ErrorIs(t, s.Done(ctx, "never", "w1", ""), ErrNotOwner, "done of a key never claimed")

	_, err = s.Claim(ctx, "", "w1", time.Minute)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Claim(ctx, "k", "", time.Minute)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = s.Claim(ctx, "k", "w1", 0)
	assert.ErrorIs(t, err, ErrInvalid)
}

func testLedgerExpiry(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	r, err := s.Claim(ctx, "dm/U1/act_7", "w1", time.Minute)
	require.NoError(t, err)
	require.Equal(t, ClaimNew, r)

	clock.Advance(59 * time.Second)
	r, err = s.Claim(ctx, "dm/U1/act_7", "w2", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimBusy, r, "a second before the lease ends")

	clock.Advance(time.Second)
	r, err = s.Claim(ctx, "dm/U1/act_7", "w2", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimExpired, r, "the lease has run out: w1 may or may not have posted")

	// w1 comes back late: its Done must not count, nor its Release.
	assert.ErrorIs(t, s.Done(ctx, "dm/U1/act_7", "w1", "late"), ErrNotOwner)
	assert.ErrorIs(t, s.Release(ctx, "dm/U1/act_7", "w1"), ErrNotOwner)

	r, err = s.Claim(ctx, "dm/U1/act_7", "w3", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimBusy, r, "w2 holds it now")

	// An expired lease nobody took over still lets its owner record Done.
	clock.Advance(10 * time.Minute)
	require.NoError(t, s.Done(ctx, "dm/U1/act_7", "w2", "D1.ts"))
	res, done, err := s.Result(ctx, "dm/U1/act_7")
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, "D1.ts", res)

	// An owner that lost its own lease and claims again is told so.
	r, err = s.Claim(ctx, "remind/U1/2026-11-23", "w1", time.Minute)
	require.NoError(t, err)
	require.Equal(t, ClaimNew, r)
	clock.Advance(2 * time.Minute)
	r, err = s.Claim(ctx, "remind/U1/2026-11-23", "w1", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimExpired, r, "its own earlier lease ran out before Done")
}

func testLedgerReleasePrune(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	r, err := s.Claim(ctx, "k1", "w1", time.Hour)
	require.NoError(t, err)
	require.Equal(t, ClaimNew, r)
	assert.ErrorIs(t, s.Release(ctx, "k1", "w2"), ErrNotOwner, "release by a non-owner")
	require.NoError(t, s.Release(ctx, "k1", "w1"))
	assert.ErrorIs(t, s.Release(ctx, "k1", "w1"), ErrNotOwner, "released twice")
	r, err = s.Claim(ctx, "k1", "w2", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, ClaimNew, r, "a released key is free and nobody did the work")
	require.NoError(t, s.Done(ctx, "k1", "w2", "ts1"))
	assert.ErrorIs(t, s.Release(ctx, "k1", "w2"), ErrNotOwner, "a done key cannot be released")

	clock.Advance(24 * time.Hour)
	for _, k := range []string{"k2", "k3"} {
		_, err := s.Claim(ctx, k, "w1", time.Hour)
		require.NoError(t, err)
	}
	require.NoError(t, s.Done(ctx, "k2", "w1", "ts2"))

	n, err := s.Prune(ctx, clock.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "only k1 was done before the cut-off")
	for key, want := range map[string]ClaimResult{"k1": ClaimNew, "k2": ClaimDone, "k3": ClaimBusy} {
		r, err := s.Claim(ctx, key, "w9", time.Hour)
		require.NoError(t, err)
		assert.Equal(t, want, r, "%s after prune", key)
	}
}

// Two watchers, each with its own pool, many goroutines each, racing for
// the same keys: exactly one ClaimNew per key. Then every lease runs out
// and they race again: exactly one ClaimExpired per key.
func testLedgerRace(t *testing.T, e engine) {
	url := e.newURL(t)
	clock := newClock()
	pools := []*Store{open(t, url, WithClock(clock.Now)), open(t, url, WithClock(clock.Now))}
	const keys, workersPerPool = 30, 6

	race := func(round string) map[ClaimResult]*[keys]atomic.Int32 {
		counts := map[ClaimResult]*[keys]atomic.Int32{ClaimNew: {}, ClaimBusy: {}, ClaimExpired: {}, ClaimDone: {}}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for p, s := range pools {
			for w := range workersPerPool {
				owner := fmt.Sprintf("%s-pool%d-worker%d", round, p, w)
				wg.Go(func() {
					<-start
					for k := range keys {
						r, err := s.Claim(t.Context(), fmt.Sprintf("key-%d", k), owner, time.Minute)
						if !assert.NoError(t, err) {
							return
						}
						counts[r][k].Add(1)
					}
				})
			}
		}
		close(start)
		wg.Wait()
		return counts
	}
	workers := int32(len(pools) * workersPerPool)

	first := race("first")
	for k := range keys {
		assert.Equal(t, int32(1), first[ClaimNew][k].Load(), "key-%d: ClaimNew", k)
		assert.Equal(t, workers-1, first[ClaimBusy][k].Load(), "key-%d: ClaimBusy", k)
	}

	clock.Advance(time.Minute)
	second := race("second")
	for k := range keys {
		assert.Equal(t, int32(1), second[ClaimExpired][k].Load(), "key-%d: ClaimExpired", k)
		assert.Equal(t, int32(0), second[ClaimNew][k].Load(), "key-%d: ClaimNew", k)
	}
}

func testLock(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	got, err := s.TryLock(ctx, "watch", "r1", time.Minute)
	require.NoError(t, err)
	assert.True(t, got, "a free lock")
	got, err = s.TryLock(ctx, "watch", "r2", time.Minute)
	require.NoError(t, err)
	assert.False(t, got, "held by r1")
	got, err = s.TryLock(ctx, "other", "r2", time.Minute)
	require.NoError(t, err)
	assert.True(t, got, "locks are independent by name")

	clock.Advance(50 * time.Second)
	got, err = s.TryLock(ctx, "watch", "r1", time.Minute)
	require.NoError(t, err)
	assert.True(t, got, "r1 renews")
	clock.Advance(50 * time.Second)
	got, err = s.TryLock(ctx, "watch", "r2", time.Minute)
	require.NoError(t, err)
	assert.False(t, got, "the renewal moved the expiry on")

	clock.Advance(10 * time.Second)
	got, err = s.TryLock(ctx, "watch", "r2", time.Minute)
	require.NoError(t, err)
	assert.True(t, got, "r2 takes over once r1's ttl ran out")
	got, err = s.TryLock(ctx, "watch", "r1", time.Minute)
	require.NoError(t, err)
	assert.False(t, got, "r1 lost it")

	released, err := s.Unlock(ctx, "watch", "r1")
	require.NoError(t, err)
	assert.False(t, released, "r1 cannot unlock r2's lock")
	released, err = s.Unlock(ctx, "watch", "r2")
	require.NoError(t, err)
	assert.True(t, released)
	got, err = s.TryLock(ctx, "watch", "r1", time.Minute)
	require.NoError(t, err)
	assert.True(t, got, "free again after Unlock")

	_, err = s.TryLock(ctx, "watch", "r1", 0)
	assert.ErrorIs(t, err, ErrInvalid)
}

func testLockRace(t *testing.T, e engine) {
	url := e.newURL(t)
	pools := []*Store{open(t, url), open(t, url)}
	var winners atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 16 {
		s := pools[i%2]
		wg.Go(func() {
			<-start
			got, err := s.TryLock(t.Context(), "watch", fmt.Sprintf("replica-%d", i), time.Minute)
			if assert.NoError(t, err) && got {
				winners.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	assert.Equal(t, int32(1), winners.Load(), "replicas holding the lock")
}
