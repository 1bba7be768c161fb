package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/audit"
)

// auditColumns are audit_log's columns in scanAudit's order.
const auditColumns = "seq, at, actor, actor_records, surface, kind, target, from_value, to_value, outcome, request_id, prev, hash"

// AppendAudit appends e to the audit trail and returns it as stored: its
// Seq, Prev and Hash given here (audit.Seal, keyed with WithAuditKey's
// key) after the chain's head, read under a lock on it (PostgreSQL's
// advisory lock, SQLite's write lock), so appends from every replica form
// one chain. The head is kept in audit_head, which only moves forward: a
// sequence number is never given twice, even after entries were cut off
// the end. A zero e.Time is the store's clock; times are kept to the
// millisecond. Errors: ErrInvalid when e has no Kind; ErrUnavailable when
// the store is down (nothing was appended).
func (s *Store) AppendAudit(ctx context.Context, e audit.Entry) (audit.Entry, error) {
	if e.Kind == "" {
		return e, fmt.Errorf("append audit: %w: kind is required", ErrInvalid)
	}
	e = storableAudit(e)
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	e.Time = fromMS(ms(e.Time))
	err := s.tx(ctx, "append audit", func(tx *sql.Tx) error {
		head, err := s.auditHead(ctx, tx)
		if err != nil {
			return err
		}
		return s.appendSealed(ctx, tx, &e, head)
	})
	return e, err
}

// chainHead is audit_head: the chain's last entry (Seq 0 for a trail
// never written) and the first sequence number kept.
type chainHead struct {
	audit.Entry // Seq and Hash
	first       int64
}

// entry is the head to seal the next entry after: nil for a trail never
// written.
func (h *chainHead) entry() *audit.Entry {
	if h.Seq == 0 {
		return nil
	}
	return &h.Entry
}

// auditHead locks the chain's head and returns it.
func (s *Store) auditHead(ctx context.Context, tx *sql.Tx) (*chainHead, error) {
	if s.d.auditLock != "" {
		if _, err := tx.ExecContext(ctx, s.d.auditLock); err != nil {
			return nil, err
		}
	}
	var h chainHead
	err := tx.QueryRowContext(ctx, "SELECT seq, hash, first FROM audit_head WHERE id = 1").Scan(&h.Seq, &h.Hash, &h.first)
	return &h, err
}

// appendSealed seals e after head, inserts it and moves the head to it.
func (s *Store) appendSealed(ctx context.Context, tx *sql.Tx, e *audit.Entry, head *chainHead) error {
	audit.Seal(e, head.entry(), s.auditKey)
	if err := s.insertAudit(ctx, tx, e); err != nil {
		return err
	}
	head.Entry = audit.Entry{Seq: e.Seq, Hash: e.Hash}
	_, err := tx.ExecContext(ctx, s.q("UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1"), e.Seq, e.Hash)
	return err
}

func (s *Store) insertAudit(ctx context.Context, tx *sql.Tx, e *audit.Entry) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO audit_log (`+auditColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		e.Seq, ms(e.Time), e.Actor, e.ActorRecords, string(e.Surface), string(e.Kind), e.Target, e.From, e.To,
		string(e.Outcome), e.RequestID, e.Prev, e.Hash)
	return err
}

func scanAudit(rows *sql.Rows) (audit.Entry, error) {
	var e audit.Entry
	var at int64
	var surface, kind, outcome string
	err := rows.Scan(&e.Seq, &at, &e.Actor, &e.ActorRecords, &surface, &kind, &e.Target, &e.From, &e.To, &outcome, &e.RequestID, &e.Prev, &e.Hash)
	e.Time, e.Surface, e.Kind, e.Outcome = fromMS(at), audit.Surface(surface), audit.Kind(kind), audit.Outcome(outcome)
	return e, err
}

// auditQuery runs query and hands each entry to fn, in the query's order,
// stopping at fn's first error.
func (s *Store) auditQuery(ctx context.Context, what string, fn func(*audit.Entry) error, query string, args ...any) error {
	rows, err := s.conn().QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return s.wrap(what, err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return s.wrap(what, err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return s.wrap(what, rows.Err())
}

// AuditOf returns the latest limit entries about target (an action id, a
// "<channel>/<committee>" follow, a user ID), oldest first. Errors:
// ErrUnavailable.
func (s *Store) AuditOf(ctx context.Context, target string, limit int) ([]audit.Entry, error) {
	var out []audit.Entry
	err := s.auditQuery(ctx, "read audit of "+target, func(e *audit.Entry) error { out = append(out, *e); return nil },
		`SELECT `+auditColumns+` FROM audit_log WHERE target = ? ORDER BY seq DESC LIMIT ?`, storable(target), limit)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// AuditPage returns up to limit entries newest first, those before entry
// before (0: from the newest), and the cursor of the page after (0 when
// this is the last). Errors: ErrUnavailable.
func (s *Store) AuditPage(ctx context.Context, before int64, limit int) (page []audit.Entry, next int64, err error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	err = s.auditQuery(ctx, "read audit page", func(e *audit.Entry) error { page = append(page, *e); return nil },
		`SELECT `+auditColumns+` FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?`, before, limit+1)
	if len(page) > limit {
		page = page[:limit]
		next = page[limit-1].Seq
	}
	return page, next, err
}

// AuditSince hands fn every entry at or after since, oldest first,
// without holding them all. fn's error stops the walk and is returned as
// it is. Errors: ErrUnavailable.
func (s *Store) AuditSince(ctx context.Context, since time.Time, fn func(*audit.Entry) error) error {
	return s.auditQuery(ctx, "read audit", fn,
		`SELECT `+auditColumns+` FROM audit_log WHERE at >= ? ORDER BY seq`, ms(since))
}

// VerifyAudit walks the whole trail in order (audit.Chain, keyed with
// WithAuditKey's key) and returns its head; with anchor (a head published
// earlier, audit.Key.ParseAnchor) the trail must still hold it. The last
// entry must be the head audit_head names, so entries cut off the end, or
// all of them, are named even without an anchor. Errors: a
// *audit.BrokenError naming the first entry altered, removed or
// reordered; audit.ErrKeyNeeded for a keyed trail and no key;
// ErrUnavailable.
func (s *Store) VerifyAudit(ctx context.Context, anchor *audit.Anchor) (audit.Head, error) {
	c := audit.Chain{Key: s.auditKey, Anchor: anchor}
	err := s.auditQuery(ctx, "verify audit", c.Add, `SELECT `+auditColumns+` FROM audit_log ORDER BY seq`)
	var broken *audit.BrokenError
	if err != nil && !errors.As(err, &broken) {
		return audit.Head{}, err
	}
	var want chainHead
	if err := s.conn().QueryRowContext(ctx, "SELECT seq, hash, first FROM audit_head WHERE id = 1").Scan(&want.Seq, &want.Hash, &want.first); err != nil {
		return audit.Head{}, s.wrap("verify audit", err)
	}
	head, err := c.Done()
	if err != nil {
		return head, err
	}
	switch {
	case head.Seq < want.Seq:
		return head, &audit.BrokenError{Seq: head.Seq + 1, Reason: fmt.Sprintf("removed: the trail ends at entry %d, but its head is entry %d", head.Seq, want.Seq)}
	case head.Seq > want.Seq:
		return head, &audit.BrokenError{Seq: want.Seq + 1, Reason: fmt.Sprintf("added outside recordsbot: the trail's head is entry %d, but it goes on to %d", want.Seq, head.Seq)}
	case head.Hash != want.Hash:
		return head, &audit.BrokenError{Seq: head.Seq, Reason: "replaced: its hash is not the head's"}
	}
	return head, nil
}

// PruneAudit deletes the entries older than before, as a recorded
// operation: in one transaction under the head's lock it appends a
// checkpoint saying where the chain now starts and the hash it continues
// from (audit.NewCheckpoint), moves audit_head's first kept entry there,
// and only then deletes: the database refuses to delete any entry a
// checkpoint has not moved the start past (migration 0013). The trail
// verifies after it as before. Nothing older: nothing written, 0. Errors:
// ErrUnavailable.
func (s *Store) PruneAudit(ctx context.Context, before time.Time) (pruned int64, err error) {
	err = s.tx(ctx, "prune audit", func(tx *sql.Tx) error {
		head, err := s.auditHead(ctx, tx)
		if err != nil || head.Seq == 0 {
			return err
		}
		// The first entry kept, and the hash it continues from: the
		// oldest entry not older than before, or, when every entry is,
		// the checkpoint itself, after the head.
		var first int64
		var from string
		err = tx.QueryRowContext(ctx, s.q("SELECT seq, prev FROM audit_log WHERE at >= ? ORDER BY seq LIMIT 1"), ms(before)).Scan(&first, &from)
		if errors.Is(err, sql.ErrNoRows) {
			first, from, err = head.Seq+1, head.Hash, nil
		}
		if err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM audit_log WHERE seq < ?"), first).Scan(&pruned); err != nil || pruned == 0 {
			return err
		}
		cp := audit.NewCheckpoint(first, from, pruned)
		cp.Time = fromMS(ms(s.now()))
		if err := s.appendSealed(ctx, tx, &cp, head); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE audit_head SET first = ? WHERE id = 1"), first); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.q("DELETE FROM audit_log WHERE seq < ?"), first)
		return err
	})
	return pruned, err
}
