package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store/storetest"
)

// The conformance suite: every engine must pass every case. SQLite always
// runs; PostgreSQL runs when RECORDSBOT_TEST_POSTGRES is set.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, e := range []engine{sqliteFile, sqliteMemory, postgres} {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			if e.name == "postgres" {
				storetest.Skip(t)
			}
			runConformance(t, e)
		})
	}
}

// conformanceCase is one case of the suite.
type conformanceCase struct {
	name string
	// shared: the case opens the same database twice.
	shared bool
	run    func(t *testing.T, e engine)
}

func runConformance(t *testing.T, e engine) {
	for _, c := range conformanceCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.shared && !e.shared {
				t.Skip("needs two connections to one database; :memory: is private to each Open")
			}
			c.run(t, e)
		})
	}
}

func conformanceCases() []conformanceCase {
	return slices.Concat([]conformanceCase{
		{"migrations apply once", false, testMigrationsApplyOnce},
		{"concurrent open migrates once", true, testConcurrentOpen},
		{"newer schema refused", true, testSchemaTooNew},
		{"failed migration leaves schema as it was", false, testFailedMigration},
		{"follows", false, testFollows},
		{"announcements", false, testAnnouncements},
		{"seen assignees and state", false, testSeenAndState},
		{"settings", false, testSettings},
		{"settings changed together", true, testSettingsChangedTogether},
		{"closed store is unavailable", false, testClosedUnavailable},
	}, ledgerCases(), searchCases(), pruneCases(), choicesCases(), digestCases(), auditCases(), steerCases(), calendarCases(), topicCases(), versionCases())
}

func testMigrationsApplyOnce(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	have, know, err := s.SchemaVersion(t.Context())
	require.NoError(t, err)
	assert.Equal(t, know, have, "schema version after Open")
	assert.GreaterOrEqual(t, know, 1)
	// Migrating again is a no-op, not a "table exists" failure.
	require.NoError(t, s.migrate(t.Context()))
	var rows int
	require.NoError(t, s.conn().QueryRowContext(t.Context(), "SELECT COUNT(*) FROM schema_migrations").Scan(&rows))
	assert.Equal(t, know, rows, "one row per migration")
	require.NoError(t, s.Ping(t.Context()))
}

// Two replicas starting together: all succeed, the migrations run once.
func testConcurrentOpen(t *testing.T, e engine) {
	url := e.newURL(t)
	logs := &countingHandler{}
	const replicas = 4
	stores := make([]*Store, replicas)
	errs := make([]error, replicas)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range replicas {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = Open(t.Context(), url, WithLogger(slogNew(logs)))
		})
	}
	close(start)
	wg.Wait()
	for i := range replicas {
		require.NoError(t, errs[i], "replica %d", i)
		t.Cleanup(func() { _ = stores[i].Close() })
	}
	all, err := migrations(migrationFS, stores[0].Engine())
	require.NoError(t, err)
	assert.Equal(t, len(all), logs.count("store migrated"), "migrations applied, over all replicas")
	var rows int
	require.NoError(t, stores[0].conn().QueryRowContext(t.Context(), "SELECT COUNT(*) FROM schema_migrations").Scan(&rows))
	assert.Equal(t, len(all), rows)
	// Every replica works on the one schema.
	for i, s := range stores {
		_, err := s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "finance", Committee: "Finance"})
		require.NoError(t, err, "replica %d", i)
	}
}

func testSchemaTooNew(t *testing.T, e engine) {
	url := e.newURL(t)
	s := open(t, url)
	_, know, err := s.SchemaVersion(t.Context())
	require.NoError(t, err)
	_, err = s.conn().ExecContext(t.Context(), s.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"), know+7, "from-the-future.sql", 0)
	require.NoError(t, err)

	_, err = Open(t.Context(), url)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrSchemaTooNew)
	want := "database schema is version " + itoa(know+7) + ", newer than this recordsbot (knows up to " + itoa(know) + "): upgrade recordsbot or restore a backup"
	assert.Equal(t, want, err.Error(), "the one line start-up prints")
}

// A migration that fails midway rolls back whole, and the next start
// tries again from the same version.
func testFailedMigration(t *testing.T, e engine) {
	url := e.newURL(t)
	s := open(t, url)
	_, know, err := s.SchemaVersion(t.Context())
	require.NoError(t, err)

	next := map[string]string{}
	for _, m := range mustMigrations(t, s.Engine()) {
		next[m.name] = m.sql
	}
	fsys := fstest.MapFS{}
	for name, body := range next {
		fsys["migrations/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	fsys["migrations/"+pad(know+1)+"_broken.sql"] = &fstest.MapFile{Data: []byte(
		"CREATE TABLE half_done (id TEXT);\nINSERT INTO no_such_table VALUES (1);")}
	err = s.migrateFrom(t.Context(), fsys)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "_broken.sql")

	have, _, err := s.SchemaVersion(t.Context())
	require.NoError(t, err)
	assert.Equal(t, know, have, "version unchanged after a failed migration")
	var n int
	err = s.conn().QueryRowContext(t.Context(), "SELECT COUNT(*) FROM half_done").Scan(&n)
	assert.Error(t, err, "the failed migration's first statement was rolled back")
}

func testFollows(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	existed, err := s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U1"})
	require.NoError(t, err)
	assert.False(t, existed, "first follow")
	clock.Advance(time.Hour)
	existed, err = s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U2"})
	require.NoError(t, err)
	assert.True(t, existed, "second follow of the same committee")
	_, err = s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Audit", CommitteeKey: "audit", By: "U2", At: clock.Now()})
	require.NoError(t, err)
	_, err = s.Follow(ctx, Follow{ChannelID: "C2", Committee: "Finance", CommitteeKey: "finance", By: "U3"})
	require.NoError(t, err)

	in, err := s.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	assert.Equal(t, []Follow{
		{ChannelID: "C1", Committee: "Audit", CommitteeKey: "audit", By: "U2", At: start.Add(time.Hour)},
		{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U1", At: start},
	}, in, "ordered by committee; the first follow is kept")

	ok, err := s.MarkFollowBaselined(ctx, "C2", "finance")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = s.MarkFollowBaselined(ctx, "C9", "finance")
	require.NoError(t, err)
	assert.False(t, ok, "no such follow")

	all, err := s.AllFollows(ctx)
	require.NoError(t, err)
	var got []string
	for _, f := range all {
		got = append(got, f.CommitteeKey+"/"+f.ChannelID+"/"+boolString(f.Baselined))
	}
	assert.Equal(t, []string{"audit/C1/false", "finance/C1/false", "finance/C2/true"}, got)

	existed, err = s.Unfollow(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.True(t, existed)
	existed, err = s.Unfollow(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.False(t, existed, "unfollowing twice")
	in, err = s.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	require.Len(t, in, 1)
	assert.Equal(t, "audit", in[0].CommitteeKey)

	none, err := s.FollowsInChannel(ctx, "C404")
	require.NoError(t, err)
	assert.Empty(t, none)

	_, err = s.Follow(ctx, Follow{ChannelID: "C1"})
	assert.ErrorIs(t, err, ErrInvalid)
}

func testAnnouncements(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	_, found, err := s.Announcement(ctx, "C1", "mtg_1")
	require.NoError(t, err)
	assert.False(t, found)

	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C1", MeetingID: "mtg_1", Status: "published_draft", TS: "1700000000.000100"}))
	got, found, err := s.Announcement(ctx, "C1", "mtg_1")
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, Announcement{ChannelID: "C1", MeetingID: "mtg_1", Status: "published_draft", TS: "1700000000.000100", UpdatedAt: clock.Now()}, got)

	clock.Advance(time.Minute)
	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C1", MeetingID: "mtg_1", Status: "approved", TS: "1700000000.000100", ThreadPosted: true}))
	got, _, err = s.Announcement(ctx, "C1", "mtg_1")
	require.NoError(t, err)
	assert.Equal(t, Announcement{ChannelID: "C1", MeetingID: "mtg_1", Status: "approved", TS: "1700000000.000100", ThreadPosted: true, UpdatedAt: clock.Now()}, got)

	_, found, err = s.Announcement(ctx, "C2", "mtg_1")
	require.NoError(t, err)
	assert.False(t, found, "another channel's announcement is its own")

	assert.ErrorIs(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C1", MeetingID: "mtg_1"}), ErrInvalid)

	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C0", MeetingID: "mtg_1", Status: "published_draft", TS: "1700000000.000200"}))
	require.NoError(t, s.PutAnnouncement(ctx, Announcement{ChannelID: "C0", MeetingID: "mtg_2", Status: "approved", TS: "1700000000.000300"}))
	all, err := s.AnnouncementsForMeeting(ctx, "mtg_1")
	require.NoError(t, err)
	assert.Equal(t, []Announcement{
		{ChannelID: "C0", MeetingID: "mtg_1", Status: "published_draft", TS: "1700000000.000200", UpdatedAt: clock.Now()},
		{ChannelID: "C1", MeetingID: "mtg_1", Status: "approved", TS: "1700000000.000100", ThreadPosted: true, UpdatedAt: clock.Now()},
	}, all, "every channel that announced mtg_1, by channel")
	none, err := s.AnnouncementsForMeeting(ctx, "mtg_404")
	require.NoError(t, err)
	assert.Empty(t, none)
}

func testSeenAndState(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	ctx := t.Context()

	seen, err := s.SeenAssignees(ctx)
	require.NoError(t, err)
	assert.Empty(t, seen)
	at := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	require.NoError(t, s.RecordAssignees(ctx, map[string]string{"act_1": "alice@example.org", "act_2": "bob@example.org"}, at))
	require.NoError(t, s.RecordAssignees(ctx, map[string]string{"act_2": "carol@example.org"}, at.Add(time.Hour)))
	require.NoError(t, s.RecordAssignees(ctx, nil, at))
	seen, err = s.SeenAssignees(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"act_1": "alice@example.org", "act_2": "carol@example.org"}, seen)

	// act_1 closed: not seen in the last poll, so it is forgotten.
	n, err := s.ForgetAssigneesSeenBefore(ctx, at.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	seen, err = s.SeenAssignees(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"act_2": "carol@example.org"}, seen)

	_, ok, err := s.GetState(ctx, "meetings_horizon")
	require.NoError(t, err)
	assert.False(t, ok)
	require.NoError(t, s.SetState(ctx, "meetings_horizon", "2026-11-20T00:00:00Z"))
	require.NoError(t, s.SetState(ctx, "meetings_horizon", "2026-11-23T00:00:00Z"))
	v, ok, err := s.GetState(ctx, "meetings_horizon")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "2026-11-23T00:00:00Z", v)
}

func testSettings(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()

	got, err := s.Settings(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, Settings{}, got, "never saved: all defaults")

	mine := Settings{RemindEnabled: ptr(false), RemindAt: clocktime.Of(7, 30), WeekdaysOnly: ptr(true)}
	require.NoError(t, s.SaveSettings(ctx, "U1", mine))
	require.NoError(t, s.SaveSettings(ctx, "U2", Settings{AssignDMs: ptr(false)}))
	got, err = s.Settings(ctx, "U1")
	require.NoError(t, err)
	mine.UpdatedAt = clock.Now()
	assert.Equal(t, mine, got)

	bulk, err := s.SettingsFor(ctx, []string{"U1", "U2", "U3"})
	require.NoError(t, err)
	assert.Equal(t, map[string]Settings{"U1": mine, "U2": {AssignDMs: ptr(false), UpdatedAt: clock.Now()}}, bulk, "U3 never saved any")
	empty, err := s.SettingsFor(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, empty)

	// Back to the default: nil fields are stored as NULL.
	clock.Advance(time.Minute)
	require.NoError(t, s.SaveSettings(ctx, "U1", Settings{RemindAt: clocktime.Of(23, 59)}))
	got, err = s.Settings(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, Settings{RemindAt: clocktime.Of(23, 59), UpdatedAt: clock.Now()}, got)

	// A time is a clocktime.Time, parsed where it came in; a row edited
	// by hand to hold something else reads as the default.
	_, err = s.conn().ExecContext(ctx, s.q(`UPDATE settings SET remind_at = ? WHERE user_id = ?`), "25:00", "U1")
	require.NoError(t, err)
	got, err = s.Settings(ctx, "U1")
	require.NoError(t, err)
	assert.True(t, got.RemindAt.IsZero(), "got %v, want the default", got.RemindAt)
	assert.ErrorIs(t, s.SaveSettings(ctx, "", Settings{}), ErrInvalid)
}

// Two replicas each take one click on the same person's settings at the same
// moment, many times over: every change lands, and the fields nobody
// changed keep their values. A read-modify-write would lose one in most
// rounds.
func testSettingsChangedTogether(t *testing.T, e engine) {
	url := e.newURL(t)
	a, b := open(t, url), open(t, url)
	ctx := t.Context()
	require.NoError(t, a.SaveSettings(ctx, "U1", Settings{RemindAt: clocktime.Of(7, 30)}))
	for round := range 25 {
		on := round%2 == 0
		var wg sync.WaitGroup
		start := make(chan struct{})
		changes := []struct {
			s   *Store
			set Settings
		}{
			{a, Settings{RemindEnabled: ptr(on)}},
			{b, Settings{WeekdaysOnly: ptr(on)}},
			{a, Settings{AssignDMs: ptr(!on)}},
		}
		for _, c := range changes {
			wg.Go(func() {
				<-start
				assert.NoError(t, c.s.ChangeSettings(ctx, "U1", c.set))
			})
		}
		close(start)
		wg.Wait()
		got, err := b.Settings(ctx, "U1")
		require.NoError(t, err)
		require.Equal(t, []any{on, "07:30", on, !on}, []any{*got.RemindEnabled, got.RemindAt.String(), *got.WeekdaysOnly, *got.AssignDMs}, "round %d", round)
	}
	// A change of nothing is a no-op that still refuses what SaveSettings
	// refuses: no user.
	require.NoError(t, a.ChangeSettings(ctx, "U2", Settings{}))
	got, err := a.Settings(ctx, "U2")
	require.NoError(t, err)
	assert.Nil(t, got.RemindEnabled)
	assert.ErrorIs(t, a.ChangeSettings(ctx, "", Settings{}), ErrInvalid)
	got, err = a.Settings(ctx, "U1")
	require.NoError(t, err)
	assert.Equal(t, "07:30", got.RemindAt.String(), "a refused change changes nothing")
}

func testClosedUnavailable(t *testing.T, e engine) {
	s, err := Open(t.Context(), e.newURL(t))
	require.NoError(t, err)
	require.NoError(t, s.Ping(t.Context()))
	require.NoError(t, s.Close())

	err = s.Ping(t.Context())
	assert.ErrorIs(t, err, ErrUnavailable, "ping after close: %v", err)
	_, err = s.Claim(t.Context(), "k", "me", time.Minute)
	assert.ErrorIs(t, err, ErrUnavailable, "claim after close: %v", err)
	_, err = s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "finance"})
	assert.True(t, IsUnavailable(err), "follow after close: %v", err)
	// A cancelled request is the caller's doing, not an outage.
	s2 := open(t, e.newURL(t))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err = s2.Ping(ctx)
	require.Error(t, err)
	assert.False(t, IsUnavailable(err), "cancelled ping: %v", err)
	assert.True(t, errors.Is(err, context.Canceled), "cancelled ping: %v", err)
}
