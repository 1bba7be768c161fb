package store

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func calendarCases() []conformanceCase {
	return []conformanceCase{
		{"calendar event versions", false, testEventVersions},
		{"calendar event changed by two replicas at once", true, testEventVersionsTogether},
		{"calendar tokens", false, testCalendarTokens},
	}
}

func testEventVersions(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()
	first := clock.Now()

	v, err := s.EventVersions(ctx, map[string]string{"m1@x": "a", "m2@x": "b"})
	require.NoError(t, err)
	assert.Equal(t, map[string]EventVersion{"m1@x": {0, first}, "m2@x": {0, first}}, v)

	clock.Advance(time.Hour)
	v, err = s.EventVersions(ctx, map[string]string{"m1@x": "a", "m2@x": "b"})
	require.NoError(t, err)
	assert.Equal(t, map[string]EventVersion{"m1@x": {0, first}, "m2@x": {0, first}}, v, "unchanged: same sequence, same stamp")

	clock.Advance(time.Hour)
	v, err = s.EventVersions(ctx, map[string]string{"m1@x": "a2", "m2@x": "b"})
	require.NoError(t, err)
	assert.Equal(t, EventVersion{1, clock.Now()}, v["m1@x"], "changed: sequence up, stamped now")
	assert.Equal(t, EventVersion{0, first}, v["m2@x"])

	v, err = s.EventVersions(ctx, map[string]string{"m1@x": "a2"})
	require.NoError(t, err)
	assert.Equal(t, 1, v["m1@x"].Sequence, "asked again with the same change: not raised twice")

	v, err = s.EventVersions(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, v)
}

// Two replicas see the same change at once: the sequence goes up once.
func testEventVersionsTogether(t *testing.T, e engine) {
	url := e.newURL(t)
	clock := newClock()
	a, b := open(t, url, WithClock(clock.Now)), open(t, url, WithClock(clock.Now))
	_, err := a.EventVersions(t.Context(), map[string]string{"m1@x": "a"})
	require.NoError(t, err)
	clock.Advance(time.Minute)
	var wg sync.WaitGroup
	for _, s := range []*Store{a, b, a, b} {
		wg.Go(func() {
			_, err := s.EventVersions(t.Context(), map[string]string{"m1@x": "changed"})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	v, err := b.EventVersions(t.Context(), map[string]string{"m1@x": "changed"})
	require.NoError(t, err)
	assert.Equal(t, 1, v["m1@x"].Sequence)
}

func testCalendarTokens(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	_, ok, err := s.CalendarToken(ctx, "U1")
	require.NoError(t, err)
	assert.False(t, ok)
	_, err = s.AddCalendarToken(ctx, CalendarToken{UserID: "U1"})
	require.ErrorIs(t, err, ErrInvalid)

	got, err := s.AddCalendarToken(ctx, CalendarToken{UserID: "U1", Salt: "s1", Hash: "h1"})
	require.NoError(t, err)
	assert.Equal(t, CalendarToken{UserID: "U1", Salt: "s1", Hash: "h1", CreatedAt: clock.Now()}, got)
	got, err = s.AddCalendarToken(ctx, CalendarToken{UserID: "U1", Salt: "s9", Hash: "h9"})
	require.NoError(t, err)
	assert.Equal(t, "h1", got.Hash, "without replace, the first token stays")

	user, ok, err := s.CalendarTokenUser(ctx, "h1")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "U1", user)

	got, err = s.ReplaceCalendarToken(ctx, CalendarToken{UserID: "U1", Salt: "s2", Hash: "h2"})
	require.NoError(t, err)
	assert.Equal(t, "h2", got.Hash)
	_, ok, err = s.CalendarTokenUser(ctx, "h1")
	require.NoError(t, err)
	assert.False(t, ok, "a reset token finds nobody")
	user, ok, err = s.CalendarTokenUser(ctx, "h2")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "U1", user)
}
