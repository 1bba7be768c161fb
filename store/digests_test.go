package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

func digestCases() []conformanceCase {
	return []conformanceCase{
		{"digest: choice and snapshot kept apart, gone with the follow", false, testDigest},
		{"digest: resumed when chosen or ticked on, only for a follow", false, testDigestResumed},
	}
}

func testDigest(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	d, err := s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{}, d, "never chosen nor posted: the default, never posted")
	fri1630 := clocktime.Weekly{On: true, Day: time.Friday, At: clocktime.Of(16, 30)}

	require.NoError(t, s.SetDigestChoice(ctx, "C1", "finance", &fri1630, true))
	chosen := clock.Now().Truncate(time.Millisecond)
	clock.Advance(time.Hour)
	at := clock.Now().Truncate(time.Millisecond)
	require.NoError(t, s.RecordDigest(ctx, "C1", "finance", "2026-11-27", at, `{"A-1":{}}`))
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{Schedule: &fri1630, Mentions: true, LastSlot: "2026-11-27", LastAt: at, Snapshot: `{"A-1":{}}`, ResumedAt: chosen}, d)

	require.NoError(t, s.SetDigestChoice(ctx, "C1", "finance", &clocktime.Weekly{}, false))
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, &clocktime.Weekly{}, d.Schedule, "off")
	assert.Equal(t, "2026-11-27", d.LastSlot, "a new choice keeps the snapshot")

	_, err = s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance"})
	require.NoError(t, err)
	_, err = s.Unfollow(ctx, "C1", "finance")
	require.NoError(t, err)
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{}, d, "unfollowing forgets the digest")

	assert.ErrorIs(t, s.RecordDigest(ctx, "C1", "finance", "", at, ""), ErrInvalid)
}

// testDigestResumed: choosing a schedule and ticking the digest back on
// both mark it resumed (the watcher posts no slot before that); ticking
// it off, or on for a channel that does not follow, leaves no trace.
func testDigestResumed(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()
	_, err := s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance"})
	require.NoError(t, err)

	ok, err := s.SetFollowChoice(ctx, "C1", "finance", HearDigest, false)
	require.NoError(t, err)
	require.True(t, ok)
	d, err := s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.True(t, d.ResumedAt.IsZero(), "off: nothing to resume")

	clock.Advance(time.Hour)
	ok, err = s.SetFollowChoice(ctx, "C1", "finance", HearDigest, true)
	require.NoError(t, err)
	require.True(t, ok)
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, clock.Now().Truncate(time.Millisecond), d.ResumedAt, "ticked back on")
	assert.Nil(t, d.Schedule, "the schedule is left as it was")

	require.NoError(t, s.RecordDigest(ctx, "C1", "finance", "2026-11-30", clock.Now(), "{}"))
	d2, err := s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, d.ResumedAt, d2.ResumedAt, "a digest posted keeps it")

	ok, err = s.SetFollowChoice(ctx, "C2", "finance", HearDigest, true)
	require.NoError(t, err)
	assert.False(t, ok, "no such follow")
	d, err = s.Digest(ctx, "C2", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{}, d, "no row for a follow that does not exist")
}
