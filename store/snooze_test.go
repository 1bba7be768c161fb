package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

func steerCases() []conformanceCase {
	return []conformanceCase{
		{"snooze: set, moved, unsnoozed, ended with the action", false, testSnooze},
		{"away: set, moved, ended early, caught up once", false, testAway},
		{"cadence: daily, weekly, the organisation's", false, testCadence},
	}
}

func testSnooze(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	require.NoError(t, s.Snooze(ctx, "U1", "A-1", "2026-12-02"))
	require.NoError(t, s.Snooze(ctx, "U1", "A-2", "2026-12-01"))
	require.NoError(t, s.Snooze(ctx, "U2", "A-1", "2026-12-05"))
	require.NoError(t, s.Snooze(ctx, "U1", "A-2", "2026-12-03"), "snoozed again: moved")
	got, err := s.Snoozes(ctx, "U1")
	require.NoError(t, err)
	at := clock.Now().Truncate(time.Millisecond)
	assert.Equal(t, map[string]Snooze{"A-1": {"A-1", "2026-12-02", at}, "A-2": {"A-2", "2026-12-03", at}}, got)

	ok, err := s.Unsnooze(ctx, "U1", "A-2")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = s.Unsnooze(ctx, "U1", "A-2")
	require.NoError(t, err)
	assert.False(t, ok, "twice: nothing to end")

	require.NoError(t, s.EndSnoozes(ctx, "A-1"), "completed: everyone's snooze of it ends")
	got, err = s.Snoozes(ctx, "U1")
	require.NoError(t, err)
	assert.Empty(t, got)
	got, err = s.Snoozes(ctx, "U2")
	require.NoError(t, err)
	assert.Empty(t, got)

	for _, bad := range []string{"", "2026-13-01", "tomorrow", "2026-12-1"} {
		assert.ErrorIs(t, s.Snooze(ctx, "U1", "A-1", bad), ErrInvalid, "%q", bad)
	}
	assert.ErrorIs(t, s.Snooze(ctx, "", "A-1", "2026-12-02"), ErrInvalid)
	assert.ErrorIs(t, s.Snooze(ctx, "U1", "", "2026-12-02"), ErrInvalid)
	got, err = s.Snoozes(ctx, "U1")
	require.NoError(t, err)
	assert.Empty(t, got, "a refused snooze stores nothing")
}

func testAway(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	a, err := s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, Away{}, a)
	assert.False(t, a.On("2026-11-30"))
	assert.False(t, a.CatchUpDue("2026-11-30"))

	since := clock.Now().Truncate(time.Millisecond)
	require.NoError(t, s.SetAway(ctx, "U1", "2026-12-04"))
	clock.Advance(time.Hour)
	require.NoError(t, s.SetAway(ctx, "U1", "2026-12-05"), "moved: still the same time away")
	a, err = s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, Away{LastDay: "2026-12-05", Since: since}, a)
	assert.True(t, a.On("2026-12-05"), "the last day is away")
	assert.False(t, a.On("2026-12-06"))
	assert.False(t, a.CatchUpDue("2026-12-05"))
	assert.True(t, a.CatchUpDue("2026-12-06"), "the day after")

	ok, err := s.EndAway(ctx, "U1", "2026-12-02")
	require.NoError(t, err)
	assert.True(t, ok)
	a, err = s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, "2026-12-01", a.LastDay, "ended early: back today")
	assert.True(t, a.CatchUpDue("2026-12-02"), "the catch-up goes at the next run")

	holding, err := s.Holding(ctx, "U1")
	require.NoError(t, err)
	assert.True(t, holding, "assignment DMs held until the catch-up")
	require.NoError(t, s.Hold(ctx, "U1", []string{"A-9", "A-8"}))
	require.NoError(t, s.Hold(ctx, "U1", []string{"A-9"}), "held twice: once")
	held, err := s.Held(ctx, "U1")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"A-9", "A-8"}, held)
	all, err := s.HeldActions(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"A-9": true, "A-8": true}, all, "everyone's held actions, for the reminder run")

	require.NoError(t, s.CaughtUp(ctx, "U1", time.Unix(1, 0)), "another time away's: left alone")
	a, err = s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.False(t, a.CaughtUp)
	require.NoError(t, s.CaughtUp(ctx, "U1", since))
	a, err = s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.True(t, a.CaughtUp)
	assert.False(t, a.CatchUpDue("2026-12-03"), "exactly once")
	held, err = s.Held(ctx, "U1")
	require.NoError(t, err)
	assert.Empty(t, held, "what was held went in the catch-up")
	holding, err = s.Holding(ctx, "U1")
	require.NoError(t, err)
	assert.False(t, holding)
	ok, err = s.EndAway(ctx, "U1", "2026-12-03")
	require.NoError(t, err)
	assert.False(t, ok, "not away any more")

	clock.Advance(time.Hour)
	require.NoError(t, s.SetAway(ctx, "U1", "2026-12-20"))
	a, err = s.AwayOf(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, Away{LastDay: "2026-12-20", Since: clock.Now().Truncate(time.Millisecond)}, a, "a new time away after a catch-up")

	assert.ErrorIs(t, s.SetAway(ctx, "U1", "next week"), ErrInvalid)
	assert.ErrorIs(t, s.SetAway(ctx, "", "2026-12-20"), ErrInvalid)
}

func testCadence(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	ctx := t.Context()
	weekly := clocktime.Weekly{On: true, Day: time.Friday, At: clocktime.Of(16, 0)}
	require.NoError(t, s.ChangeSettings(ctx, "U1", Settings{Cadence: &weekly}))
	require.NoError(t, s.ChangeSettings(ctx, "U2", Settings{Cadence: &clocktime.Weekly{}}))
	require.NoError(t, s.ChangeSettings(ctx, "U3", Settings{WeekdaysOnly: ptr(true)}))
	all, err := s.SettingsFor(ctx, []string{"U1", "U2", "U3"})
	require.NoError(t, err)
	assert.Equal(t, &weekly, all["U1"].Cadence)
	assert.Equal(t, &clocktime.Weekly{}, all["U2"].Cadence, "daily")
	assert.Nil(t, all["U3"].Cadence, "the organisation's")

	org := Defaults{Cadence: clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}}
	assert.Equal(t, weekly, org.Effective(all["U1"]).Cadence, "the person's choice wins")
	assert.False(t, org.Effective(all["U2"]).Cadence.On, "daily, though the organisation's is weekly")
	assert.Equal(t, org.Cadence, org.Effective(all["U3"]).Cadence)
}
