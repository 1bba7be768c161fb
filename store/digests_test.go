package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func digestCases() []conformanceCase {
	return []conformanceCase{
		{"digest: choice and snapshot kept apart, gone with the follow", false, testDigest},
	}
}

func testDigest(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	d, err := s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{}, d, "never chosen nor posted: the default, never posted")

	require.NoError(t, s.SetDigestChoice(ctx, "C1", "finance", "fri 16:30", true))
	at := clock.Now().Truncate(time.Millisecond)
	require.NoError(t, s.RecordDigest(ctx, "C1", "finance", "2026-11-27", at, `{"A-1":{}}`))
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, Digest{Schedule: "fri 16:30", Mentions: true, LastSlot: "2026-11-27", LastAt: at, Snapshot: `{"A-1":{}}`}, d)

	require.NoError(t, s.SetDigestChoice(ctx, "C1", "finance", "off", false))
	d, err = s.Digest(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, "off", d.Schedule)
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
