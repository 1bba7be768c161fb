package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pruneCases() []conformanceCase {
	return []conformanceCase{
		{"prune before: ledger, seen actions, announcements, calendar", false, testPruneBefore},
		{"prune once a day across replicas", true, testPruneDaily},
	}
}

func testPruneBefore(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	old := clock.Now()
	_, err := s.Claim(ctx, "assign/U1/M1/abc", "w1", time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Done(ctx, "assign/U1/M1/abc", "w1", "ts1"))
	require.NoError(t, s.RecordAssignees(ctx, map[string]string{"A-1": "h1"}, old))
	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C1", MeetingID: "M1", Status: "approved", TS: "ts1"}))
	_, err = s.EventVersions(ctx, map[string]string{"old@x": "f1"})
	require.NoError(t, err)
	_, err = s.AddCalendarToken(ctx, CalendarToken{UserID: "U1", Salt: "s1", Hash: "h1"})
	require.NoError(t, err)
	// Personal choices: a snooze that ended and a time away caught up
	// go; a snooze still running and a time away not caught up stay.
	day := func(d time.Duration) string { return old.Add(d).Format(time.DateOnly) }
	require.NoError(t, s.Snooze(ctx, "U1", "A-1", day(24*time.Hour)))
	require.NoError(t, s.Snooze(ctx, "U1", "A-2", day(200*24*time.Hour)))
	require.NoError(t, s.SetAway(ctx, "U1", day(2*24*time.Hour)))
	require.NoError(t, s.CaughtUp(ctx, "U1", old))
	require.NoError(t, s.SetAway(ctx, "U2", day(2*24*time.Hour)))

	clock.Advance(100 * 24 * time.Hour)
	_, err = s.Claim(ctx, "assign/U1/M2/def", "w1", time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Done(ctx, "assign/U1/M2/def", "w1", "ts2"))
	require.NoError(t, s.RecordAssignees(ctx, map[string]string{"A-2": "h2"}, clock.Now()))
	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C1", MeetingID: "M2", Status: "approved", TS: "ts2"}))
	_, err = s.Claim(ctx, "assign/U1/M3/unfinished", "w1", time.Minute) // a claim not done is kept
	require.NoError(t, err)
	_, err = s.EventVersions(ctx, map[string]string{"new@x": "f2"})
	require.NoError(t, err)
	_, err = s.AddCalendarToken(ctx, CalendarToken{UserID: "U2", Salt: "s2", Hash: "h2"})
	require.NoError(t, err)

	p, err := s.PruneBefore(ctx, clock.Now().Add(-DefaultRetention))
	require.NoError(t, err)
	assert.Equal(t, Pruned{Ledger: 1, SeenActions: 1, Announcements: 1, Steered: 2, CalendarEvents: 1, CalendarTokens: 1}, p)
	_, ok, err := s.CalendarTokenUser(ctx, "h1")
	require.NoError(t, err)
	assert.False(t, ok, "a token nobody polled for the retention is gone")
	_, ok, err = s.CalendarTokenUser(ctx, "h2")
	require.NoError(t, err)
	assert.True(t, ok)
	snoozes, err := s.Snoozes(ctx, "U1")
	require.NoError(t, err)
	assert.Contains(t, snoozes, "A-2", "a snooze still running is kept")
	assert.Len(t, snoozes, 1)
	away, err := s.AwayOf(ctx, "U2")
	require.NoError(t, err)
	assert.NotEmpty(t, away.LastDay, "a catch-up still owed is kept")
	seen, err := s.SeenAssignees(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A-2": "h2"}, seen)
	_, had, err := s.Announcement(ctx, "C1", "M1")
	require.NoError(t, err)
	assert.False(t, had)
	_, had, err = s.Announcement(ctx, "C1", "M2")
	require.NoError(t, err)
	assert.True(t, had)
	r, err := s.Claim(ctx, "assign/U1/M2/def", "w2", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimDone, r)
	r, err = s.Claim(ctx, "assign/U1/M3/unfinished", "w2", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ClaimBusy, r, "a live claim is not pruned")
}

// Two replicas, each with its own pool: one prune a day between them.
func testPruneDaily(t *testing.T, e engine) {
	clock := newClock()
	url := e.newURL(t)
	a, b := open(t, url, WithClock(clock.Now)), open(t, url, WithClock(clock.Now))
	ctx := t.Context()

	_, ran, err := a.PruneDaily(ctx, "pod-a", DefaultRetention)
	require.NoError(t, err)
	assert.True(t, ran)
	_, ran, err = b.PruneDaily(ctx, "pod-b", DefaultRetention)
	require.NoError(t, err)
	assert.False(t, ran, "today's prune is done")
	clock.Advance(24 * time.Hour)
	_, ran, err = b.PruneDaily(ctx, "pod-b", DefaultRetention)
	require.NoError(t, err)
	assert.True(t, ran, "the next day's is new")
}
