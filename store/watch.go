package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/internal/jsonappend"
)

// SeenAssignees returns the assignee each action had when last recorded,
// by action ID.
func (s *Store) SeenAssignees(ctx context.Context) (map[string]string, error) {
	rows, err := s.conn().QueryContext(ctx, "SELECT action_id, assignee FROM seen_actions")
	if err != nil {
		return nil, s.wrap("read seen actions", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, who string
		if err := rows.Scan(&id, &who); err != nil {
			return nil, s.wrap("read seen actions", err)
		}
		out[id] = who
	}
	return out, s.wrap("read seen actions", rows.Err())
}

// RecordAssignees records the assignee of each action (action ID →
// assignee), all or none, at the given time. Actions not named are left
// as they were.
func (s *Store) RecordAssignees(ctx context.Context, assignees map[string]string, at time.Time) error {
	if len(assignees) == 0 {
		return nil
	}
	return s.tx(ctx, "record assignees", func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, s.q(`
			INSERT INTO seen_actions (action_id, assignee, seen_at) VALUES (?, ?, ?)
			ON CONFLICT (action_id) DO UPDATE SET assignee = excluded.assignee, seen_at = excluded.seen_at`))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for id, who := range assignees {
			if _, err := stmt.ExecContext(ctx, id, who, ms(at)); err != nil {
				return err
			}
		}
		return nil
	})
}

// ForgetAssigneesSeenBefore deletes the actions not recorded since before
// (closed or deleted in the records service) and returns how many went, so
// the table stays the size of the active action list. An action forgotten
// and seen again later counts as new.
func (s *Store) ForgetAssigneesSeenBefore(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM seen_actions WHERE seen_at < ?"), ms(before))
	if err != nil {
		return 0, s.wrap("forget seen actions", err)
	}
	n, err := res.RowsAffected()
	return n, s.wrap("forget seen actions", err)
}

// GetState returns the named watcher value and whether it is set.
func (s *Store) GetState(ctx context.Context, name string) (string, bool, error) {
	var v string
	err := s.conn().QueryRowContext(ctx, s.q("SELECT value FROM watch_state WHERE name = ?"), name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.wrap("get state "+name, err)
	}
	return v, true, nil
}

// SetState sets the named watcher value (say the meetings horizon of the
// last poll, or that the actions baseline was taken).
func (s *Store) SetState(ctx context.Context, name, value string) error {
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO watch_state (name, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
		name, value, ms(s.now()))
	return s.wrap("set state "+name, err)
}

// TryLock takes the named lock for owner until ttl from now, renews it if
// owner holds it already, or takes it over from an owner whose ttl ran
// out. It reports whether owner holds the lock now. It is one atomic
// statement, so of replicas racing for a free lock exactly one wins.
// Errors: ErrInvalid for an empty name or owner or a ttl that is not
// positive; ErrUnavailable when the store is down.
func (s *Store) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	if name == "" || owner == "" || ttl <= 0 {
		return false, fmt.Errorf("lock %q: %w: name and owner must be set and the ttl positive", name, ErrInvalid)
	}
	now := s.now()
	var got string
	err := s.conn().QueryRowContext(ctx, s.q(`
		INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
		WHERE locks.owner = excluded.owner OR locks.expires_at <= ?
		RETURNING owner`), name, owner, ms(now.Add(ttl)), ms(now)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, s.wrap("lock "+name, err)
	}
	return true, nil
}

// LockHolder returns who holds the named lock and until when, or "" when
// nobody does (never taken, unlocked, or lapsed).
func (s *Store) LockHolder(ctx context.Context, name string) (owner string, until time.Time, err error) {
	var exp int64
	err = s.conn().QueryRowContext(ctx, s.q("SELECT owner, expires_at FROM locks WHERE name = ? AND expires_at > ?"), name, ms(s.now())).Scan(&owner, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, nil
	}
	if err != nil {
		return "", time.Time{}, s.wrap("lock holder "+name, err)
	}
	return owner, fromMS(exp), nil
}

// Unlock releases the named lock if owner holds it, and reports whether it
// did.
func (s *Store) Unlock(ctx context.Context, name, owner string) (bool, error) {
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM locks WHERE name = ? AND owner = ?"), name, owner)
	if err != nil {
		return false, s.wrap("unlock "+name, err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("unlock "+name, err)
}

// jsonArray encodes ids as one JSON array parameter for the dialect's
// jsonStrings subquery; none is [] (PostgreSQL's jsonb_array_elements_text
// refuses the null encoding/json would write for a nil slice).
func jsonArray(ids []string) string {
	b := make([]byte, 0, 2+len(ids)*16)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, id)
	}
	return string(append(b, ']'))
}
