package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func versionCases() []conformanceCase {
	return []conformanceCase{
		{"minutes versions: kept once each, numbered, bounded", false, testMinutesVersions},
	}
}

func testMinutesVersions(t *testing.T, e engine) {
	ctx := t.Context()
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	start := clock.Now()
	v1, added, err := s.AddMinutesVersion(ctx, MinutesVersion{MeetingID: "m1", Hash: "h1", Status: "published_draft", Body: "Draft text.", Changes: -1})
	require.NoError(t, err)
	assert.True(t, added)
	assert.Equal(t, 1, v1.N)
	_, added, err = s.AddMinutesVersion(ctx, MinutesVersion{MeetingID: "m1", Hash: "h1", Status: "published_draft", Body: "Draft text.", Changes: -1})
	require.NoError(t, err)
	assert.False(t, added, "read again: the same version")
	clock.Advance(time.Hour)
	v2, added, err := s.AddMinutesVersion(ctx, MinutesVersion{MeetingID: "m1", Hash: "h1", Status: "approved", Body: "Draft text.", Changes: 0})
	require.NoError(t, err)
	assert.True(t, added, "approved as drafted is a version")
	assert.Equal(t, 2, v2.N)
	_, _, err = s.AddMinutesVersion(ctx, MinutesVersion{MeetingID: "m2", Hash: "x", Status: "approved", Body: "Other \x00 text.", Changes: -1})
	require.NoError(t, err)

	vs, err := s.MinutesVersions(ctx, "m1")
	require.NoError(t, err)
	require.Len(t, vs, 2)
	assert.Equal(t, "published_draft", vs[0].Status)
	assert.Equal(t, start.Truncate(time.Millisecond), vs[0].FirstSeen)
	assert.Equal(t, 0, vs[1].Changes)
	assert.Empty(t, vs[0].Body, "the list carries no text")
	text, ok, err := s.MinutesVersionText(ctx, "m1", 1)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "Draft text.", text.Body)
	_, ok, err = s.MinutesVersionText(ctx, "m1", 9)
	require.NoError(t, err)
	assert.False(t, ok)

	news, err := s.NewMinutesVersions(ctx, start, 10)
	require.NoError(t, err)
	require.Len(t, news, 2, "first seen after start: m1's approval and m2")
	assert.Equal(t, 2, news[0].N)

	for i := range MaxMinutesVersions + 5 {
		_, _, err := s.AddMinutesVersion(ctx, MinutesVersion{MeetingID: "m3", Hash: fmt.Sprint("h", i), Status: "approved", Body: "x", Changes: 1})
		require.NoError(t, err)
	}
	vs, err = s.MinutesVersions(ctx, "m3")
	require.NoError(t, err)
	require.Len(t, vs, MaxMinutesVersions, "bounded")
	assert.Equal(t, 6, vs[0].N, "the oldest went")
}
