package store

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/clocktest"
)

func auditCases() []conformanceCase {
	return []conformanceCase{
		{"audit append, read by target, page, since", false, testAuditAppendRead},
		{"audit trail is append-only in the database", false, testAuditAppendOnly},
		{"audit tampering named by verify", false, testAuditTampering},
		{"audit sequence numbers never reused", false, testAuditSeqNeverReused},
		{"audit prune keeps the chain verifiable", false, testAuditPrune},
		{"audit appends from two pools form one chain", true, testAuditRace},
		{"holiday files keep the last good copy", false, testHolidayFiles},
		{"audit trail keyed after the fact", true, testAuditKeyedLater},
	}
}

func statusEntry(actor, id, from, to string) audit.Entry {
	return audit.Entry{Actor: actor, ActorRecords: actor + "@example.org", Surface: audit.Reply, Kind: audit.ActionStatus,
		Target: id, From: from, To: to, Outcome: audit.Done, RequestID: "req-" + id}
}

// appendN appends n status changes, one a day (the clock moves).
func appendN(t *testing.T, s *Store, clock *clocktest.Clock, n int) []audit.Entry {
	t.Helper()
	var out []audit.Entry
	for i := range n {
		e, err := s.AppendAudit(t.Context(), statusEntry("U1", fmt.Sprintf("act_%d", i%3), "open", "complete"))
		require.NoError(t, err)
		out = append(out, e)
		clock.Advance(24 * time.Hour)
	}
	return out
}

func testAuditAppendRead(t *testing.T, e engine) {
	clock := newClock()
	s := openAudited(t, e, clock)
	ctx := t.Context()

	_, err := s.AppendAudit(ctx, audit.Entry{Actor: "U1"})
	require.ErrorIs(t, err, ErrInvalid, "an entry without a kind")
	got := appendN(t, s, clock, 7)
	assert.Equal(t, int64(1), got[0].Seq)
	assert.Empty(t, got[0].Prev)
	assert.Equal(t, got[0].Hash, got[1].Prev)
	assert.Equal(t, newClock().Now(), got[0].Time, "a zero time is the store's clock")

	of, err := s.AuditOf(ctx, "act_1", 10)
	require.NoError(t, err)
	require.Len(t, of, 2)
	assert.Equal(t, []int64{2, 5}, []int64{of[0].Seq, of[1].Seq}, "oldest first")
	assert.Equal(t, got[1], of[0], "read back as appended, field for field")
	of, err = s.AuditOf(ctx, "act_1", 1)
	require.NoError(t, err)
	require.Len(t, of, 1)
	assert.Equal(t, int64(5), of[0].Seq, "the latest when limited")

	page, next, err := s.AuditPage(ctx, 0, 3)
	require.NoError(t, err)
	assert.Equal(t, []int64{7, 6, 5}, seqs(page))
	page, next, err = s.AuditPage(ctx, next, 3)
	require.NoError(t, err)
	assert.Equal(t, []int64{4, 3, 2}, seqs(page))
	page, next, err = s.AuditPage(ctx, next, 3)
	require.NoError(t, err)
	assert.Equal(t, []int64{1}, seqs(page))
	assert.Zero(t, next, "the last page")

	var since []int64
	require.NoError(t, s.AuditSince(ctx, got[4].Time, func(e *audit.Entry) error { since = append(since, e.Seq); return nil }))
	assert.Equal(t, []int64{5, 6, 7}, since)

	head, err := s.VerifyAudit(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, audit.Head{Entries: 7, First: 1, Seq: 7, Hash: got[6].Hash}, head)
}

func seqs(es []audit.Entry) []int64 {
	out := make([]int64, 0, len(es))
	for _, e := range es {
		out = append(out, e.Seq)
	}
	return out
}

// testAuditKey is the AUDIT_KEY of the store's audit tests.
var testAuditKey, _ = audit.ParseKey("store-test-audit-key-0123456789abcdef")

// openAudited opens a store that keys its trail with testAuditKey.
func openAudited(t *testing.T, e engine, clock *clocktest.Clock, opts ...Option) *Store {
	t.Helper()
	return open(t, e.newURL(t), append([]Option{WithClock(clock.Now), WithAuditKey(testAuditKey)}, opts...)...)
}

// bypassAuditTriggers is what someone with write access to the database
// can do: SQLite's triggers dropped, PostgreSQL's disabled by the table's
// owner (the bot's role).
func bypassAuditTriggers(t *testing.T, s *Store, e engine) {
	t.Helper()
	stmts := []string{"DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete",
		"DROP TRIGGER audit_head_forward", "DROP TRIGGER audit_head_no_delete"}
	if e.name == "postgres" {
		stmts = []string{"ALTER TABLE audit_log DISABLE TRIGGER USER", "ALTER TABLE audit_head DISABLE TRIGGER USER"}
	}
	for _, q := range stmts {
		_, err := s.conn().ExecContext(t.Context(), q)
		require.NoError(t, err, q)
	}
}

func testAuditAppendOnly(t *testing.T, e engine) {
	clock := newClock()
	s := openAudited(t, e, clock)
	appendN(t, s, clock, 5)
	refused := []string{
		"UPDATE audit_log SET actor = 'U2' WHERE seq = 2",
		"DELETE FROM audit_log WHERE seq >= 4",
		"DELETE FROM audit_log",
		"UPDATE audit_head SET seq = 3",
		"DELETE FROM audit_head",
	}
	if e.name == "postgres" {
		refused = append(refused, "TRUNCATE audit_log", "TRUNCATE audit_head")
	}
	for _, q := range refused {
		_, err := s.conn().ExecContext(t.Context(), q)
		require.Error(t, err, "the database refuses %s", q)
		assert.Contains(t, err.Error(), "audit_", q)
	}
	head, err := s.VerifyAudit(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, int64(5), head.Entries, "nothing changed")

	// The one deletion the database allows, done by hand: the start moved
	// forward without the checkpoint only the key can write.
	for _, q := range []string{"UPDATE audit_head SET first = 3", "DELETE FROM audit_log WHERE seq < 3"} {
		_, err := s.conn().ExecContext(t.Context(), q)
		require.NoError(t, err, q)
	}
	_, err = s.VerifyAudit(t.Context(), nil)
	var broken *audit.BrokenError
	require.ErrorAs(t, err, &broken)
	assert.Equal(t, int64(3), broken.Seq)
	assert.Contains(t, broken.Reason, "no checkpoint saying entries 1 to 2 were pruned")
}

func testAuditTampering(t *testing.T, e engine) {
	// The attacker writes the database, triggers bypassed, without the
	// key: a chain re-hashed is plain SHA-256. rehash re-seals entries
	// from seq on and moves audit_head to the last, as they would.
	rehash := func(from int64) string { return fmt.Sprintf("REHASH %d", from) }
	cases := []struct {
		name     string
		sql      []string
		anchored bool // verified against the head anchored before the tampering
		seq      int64
		reason   string
	}{
		{"edited", []string{"UPDATE audit_log SET to_value = 'open' WHERE seq = 3"}, false, 3, "altered"},
		{"actor changed", []string{"UPDATE audit_log SET actor = 'U2' WHERE seq = 2"}, false, 2, "altered"},
		{"actor changed and the chain re-hashed", []string{"UPDATE audit_log SET actor = 'U2' WHERE seq = 2", rehash(2)}, false, 2, "not keyed, after keyed entries"},
		{"every entry rewritten and re-hashed", []string{"UPDATE audit_log SET actor = 'U2' WHERE seq = 2", rehash(1)}, true, 5, "replaced: the anchored head"},
		{"deleted", []string{"DELETE FROM audit_log WHERE seq = 3"}, false, 4, "entry 3 should come before it"},
		{"first deleted", []string{"DELETE FROM audit_log WHERE seq = 1"}, false, 2, "no checkpoint"},
		{"last two deleted", []string{"DELETE FROM audit_log WHERE seq >= 4"}, false, 4, "removed: the trail ends at entry 3, but its head is entry 5"},
		{"last two deleted and the head moved back", []string{"DELETE FROM audit_log WHERE seq >= 4", rehash(4)}, true, 4, "removed: the trail ends at entry 3, but its head was entry 5"},
		{"every entry deleted", []string{"DELETE FROM audit_log"}, false, 1, "removed: the trail ends at entry 0, but its head is entry 5"},
		{"every entry deleted and the head reset", []string{"DELETE FROM audit_log", "UPDATE audit_head SET seq = 0, hash = '', first = 1"}, true, 1, "removed: the trail ends at entry 0, but its head was entry 5"},
		{"swapped", []string{
			"UPDATE audit_log SET seq = 100 WHERE seq = 2",
			"UPDATE audit_log SET seq = 2 WHERE seq = 3",
			"UPDATE audit_log SET seq = 3 WHERE seq = 100",
		}, false, 2, "altered"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := newClock()
			s := openAudited(t, e, clock)
			appendN(t, s, clock, 5)
			head, err := s.VerifyAudit(t.Context(), nil)
			require.NoError(t, err)
			anchor := audit.Anchor{Seq: head.Seq, Hash: head.Hash, At: clock.Now()}
			bypassAuditTriggers(t, s, e)
			for _, q := range tc.sql {
				var from int64
				if _, err := fmt.Sscanf(q, "REHASH %d", &from); err == nil {
					rehashAudit(t, s, from)
					continue
				}
				_, err := s.conn().ExecContext(t.Context(), q)
				require.NoError(t, err, q)
			}
			if !tc.anchored {
				_, err = s.VerifyAudit(t.Context(), nil)
			} else {
				_, err = s.VerifyAudit(t.Context(), nil)
				require.NoError(t, err, "a thorough attacker gets past the chain and its head in the database")
				_, err = s.VerifyAudit(t.Context(), &anchor)
			}
			var broken *audit.BrokenError
			require.ErrorAs(t, err, &broken)
			assert.Equal(t, tc.seq, broken.Seq, "got %v", err)
			assert.Contains(t, broken.Reason, tc.reason)
		})
	}
}

// rehashAudit re-seals every entry from seq from on with plain SHA-256
// (the attacker has no key) after the entry before it, and moves
// audit_head to the last entry left.
func rehashAudit(t *testing.T, s *Store, from int64) {
	t.Helper()
	ctx := t.Context()
	var entries []audit.Entry
	require.NoError(t, s.auditQuery(ctx, "read", func(e *audit.Entry) error { entries = append(entries, *e); return nil },
		`SELECT `+auditColumns+` FROM audit_log ORDER BY seq`))
	var head *audit.Entry
	for i := range entries {
		e := &entries[i]
		if e.Seq >= from {
			audit.Seal(e, head, audit.Key{})
			_, err := s.conn().ExecContext(ctx, s.q("UPDATE audit_log SET prev = ?, hash = ? WHERE seq = ?"), e.Prev, e.Hash, e.Seq)
			require.NoError(t, err)
		}
		head = e
	}
	var seq int64
	var hash string
	if head != nil {
		seq, hash = head.Seq, head.Hash
	}
	_, err := s.conn().ExecContext(ctx, s.q("UPDATE audit_head SET seq = ?, hash = ?"), seq, hash)
	require.NoError(t, err)
}

// testAuditSeqNeverReused: entries cut off the end leave their numbers
// taken; the next append says so with a gap.
func testAuditSeqNeverReused(t *testing.T, e engine) {
	clock := newClock()
	s := openAudited(t, e, clock)
	appendN(t, s, clock, 5)
	bypassAuditTriggers(t, s, e)
	_, err := s.conn().ExecContext(t.Context(), "DELETE FROM audit_log WHERE seq >= 4")
	require.NoError(t, err)
	next := appendN(t, s, clock, 1)
	assert.Equal(t, int64(6), next[0].Seq, "4 and 5 are not given again")
	_, err = s.VerifyAudit(t.Context(), nil)
	var broken *audit.BrokenError
	require.ErrorAs(t, err, &broken)
	assert.Equal(t, int64(6), broken.Seq)
	assert.Contains(t, broken.Reason, "entry 4 should come before it")
}

func testAuditPrune(t *testing.T, e engine) {
	clock := newClock()
	var heard []error
	s := openAudited(t, e, clock, WithAuditRetention(3*24*time.Hour),
		WithAuditVerified(func(_ audit.Head, err error) { heard = append(heard, err) }))
	ctx := t.Context()
	got := appendN(t, s, clock, 6) // days 0..5; now is day 6

	n, err := s.PruneAudit(ctx, clock.Now().Add(-3*24*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, int64(3), n, "days 0, 1, 2")
	head, err := s.VerifyAudit(ctx, nil)
	require.NoError(t, err, "the checkpoint says where the chain starts")
	assert.Equal(t, int64(4), head.First)
	assert.Equal(t, int64(7), head.Seq, "the checkpoint is the head")
	page, _, err := s.AuditPage(ctx, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, audit.Checkpoint, page[0].Kind)
	assert.Equal(t, got[3].Prev, page[0].From)

	n, err = s.PruneAudit(ctx, clock.Now().Add(-3*24*time.Hour))
	require.NoError(t, err)
	assert.Zero(t, n, "nothing more to prune: no second checkpoint")

	// Everything old: the checkpoint alone is left, and still verifies.
	clock.Advance(30 * 24 * time.Hour)
	n, err = s.PruneAudit(ctx, clock.Now())
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
	_, err = s.VerifyAudit(ctx, nil)
	require.NoError(t, err)
	more := appendN(t, s, clock, 2)
	head, err = s.VerifyAudit(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, more[1].Hash, head.Hash)

	// The daily prune verifies first and tells WithAuditVerified.
	clock.Advance(10 * 24 * time.Hour)
	p, ran, err := s.PruneDaily(ctx, "w1", MinRetention)
	require.NoError(t, err)
	require.True(t, ran)
	assert.Equal(t, int64(3), p.Audit, "checkpoint and the two after it")
	assert.Equal(t, []error{nil}, heard)
	_, err = s.VerifyAudit(ctx, nil)
	require.NoError(t, err)

	// A broken trail is reported and not pruned: the evidence stays.
	appendN(t, s, clock, 2)
	bypassAuditTriggers(t, s, e)
	_, err = s.conn().ExecContext(ctx, s.q("UPDATE audit_log SET actor = 'U9' WHERE kind = ?"), string(audit.ActionStatus))
	require.NoError(t, err)
	clock.Advance(30 * 24 * time.Hour)
	_, _, err = s.PruneDaily(ctx, "w1", MinRetention)
	var broken *audit.BrokenError
	require.ErrorAs(t, err, &broken)
	require.Len(t, heard, 2)
	assert.ErrorAs(t, heard[1], &broken)
	page, _, err = s.AuditPage(ctx, 0, 10)
	require.NoError(t, err)
	assert.Len(t, page, 3, "nothing pruned")
}

func testAuditRace(t *testing.T, e engine) {
	url := e.newURL(t)
	a, b := open(t, url), open(t, url)
	var wg sync.WaitGroup
	for i := range 20 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, err := s.AppendAudit(t.Context(), statusEntry(fmt.Sprintf("U%d", i), "act_1", "open", "complete"))
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	head, err := a.VerifyAudit(t.Context(), nil)
	require.NoError(t, err, "one chain, no fork")
	assert.Equal(t, int64(20), head.Entries)
}

func testHolidayFiles(t *testing.T, e engine) {
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	ctx := t.Context()
	url := "https://cal.example.org/h.ics?token=s3cret"
	_, _, found, err := s.HolidayFile(ctx, url)
	require.NoError(t, err)
	assert.False(t, found)
	require.NoError(t, s.PutHolidayFile(ctx, url, []byte("BEGIN:VCALENDAR\nEND:VCALENDAR\n")))
	clock.Advance(time.Hour)
	require.NoError(t, s.PutHolidayFile(ctx, url, []byte("BEGIN:VCALENDAR\nX:2\nEND:VCALENDAR\n")))
	body, at, found, err := s.HolidayFile(ctx, url)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "BEGIN:VCALENDAR\nX:2\nEND:VCALENDAR\n", string(body), "the latest copy")
	assert.Equal(t, clock.Now(), at)
	var n int
	require.NoError(t, s.conn().QueryRowContext(ctx, "SELECT COUNT(*) FROM holiday_files WHERE url_hash LIKE '%s3cret%'").Scan(&n))
	assert.Zero(t, n, "the URL's token is not written to the database")
}

// testAuditKeyedLater: a trail written before AUDIT_KEY was set keeps
// its unkeyed start, which verify counts; every entry after is keyed, and
// an unkeyed one after them is named.
func testAuditKeyedLater(t *testing.T, e engine) {
	clock := newClock()
	url := e.newURL(t)
	before := open(t, url, WithClock(clock.Now))
	appendN(t, before, clock, 2)
	after := open(t, url, WithClock(clock.Now), WithAuditKey(testAuditKey))
	got := appendN(t, after, clock, 2)
	assert.True(t, strings.HasPrefix(got[0].Hash, "hmac-sha256:"), "keyed from now on")
	head, err := after.VerifyAudit(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, int64(2), head.Unkeyed)
	assert.Equal(t, int64(4), head.Seq)

	_, err = before.VerifyAudit(t.Context(), nil)
	require.ErrorIs(t, err, audit.ErrKeyNeeded, "keyed entries cannot be vouched for without the key")
	appendN(t, before, clock, 1) // written without the key
	_, err = after.VerifyAudit(t.Context(), nil)
	var broken *audit.BrokenError
	require.ErrorAs(t, err, &broken)
	assert.Equal(t, int64(5), broken.Seq)
	assert.Contains(t, broken.Reason, "not keyed, after keyed entries")
}
