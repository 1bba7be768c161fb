package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ClaimResult is the outcome of Claim.
type ClaimResult int

const (
	// ClaimNew: the key is yours and nobody has started it. Do the work,
	// then call Done (or Release if it failed).
	ClaimNew ClaimResult = iota + 1
	// ClaimDone: the work was done before. Skip it.
	ClaimDone
	// ClaimBusy: another owner (or you, under the same owner name) holds an
	// unexpired lease. Skip it now: it will be done, or its lease will run
	// out and a later run takes it.
	ClaimBusy
	// ClaimExpired: the key is yours now, but an earlier owner's lease ran
	// out before it called Done. It may or may not have done the work (it
	// may have crashed between posting and recording): check the outside
	// world first, then do the work if it is missing, and call Done.
	ClaimExpired
)

// String names the result: "new", "done", "busy" or "expired".
func (r ClaimResult) String() string {
	switch r {
	case ClaimNew:
		return "new"
	case ClaimDone:
		return "done"
	case ClaimBusy:
		return "busy"
	case ClaimExpired:
		return "expired"
	}
	return fmt.Sprintf("ClaimResult(%d)", int(r))
}

// Claim takes key for owner for lease, atomically across every Store on the
// database: of any number of concurrent claims of a free key exactly one
// gets ClaimNew (or ClaimExpired), the rest ClaimBusy. Owners must be
// unique per worker (say hostname, process and a random suffix): two
// workers sharing an owner name would each be taken for the other.
//
// A key released with Release is free again and its next claim is
// ClaimNew. Errors: ErrInvalid for an empty key or owner or a lease that is
// not positive; ErrUnavailable when the store is down.
func (s *Store) Claim(ctx context.Context, key, owner string, lease time.Duration) (ClaimResult, error) {
	if key == "" || owner == "" || lease <= 0 {
		return 0, fmt.Errorf("claim %q: %w: key and owner must be set and the lease positive", key, ErrInvalid)
	}
	for attempt := 0; ; attempt++ {
		r, err := s.claimOnce(ctx, key, owner, lease)
		// Not taken, and the row gone before it could be read: it was
		// pruned (done) or never there. Once more settles it.
		if errors.Is(err, sql.ErrNoRows) && attempt == 0 {
			continue
		}
		if err != nil {
			return 0, s.wrap("claim "+key, err)
		}
		return r, nil
	}
}

func (s *Store) claimOnce(ctx context.Context, key, owner string, lease time.Duration) (ClaimResult, error) {
	now := s.now()
	// One statement: insert the key, or take over a row that is neither
	// done nor under a live lease. prev_owner keeps the owner whose lease
	// ran out (SET sees the old row), which tells ClaimExpired from
	// ClaimNew; a row that is not taken returns nothing.
	var prev string
	err := s.conn().QueryRowContext(ctx, s.q(`
		INSERT INTO ledger (work_key, owner, prev_owner, lease_until, claimed_at)
		VALUES (?, ?, '', ?, ?)
		ON CONFLICT (work_key) DO UPDATE SET
			prev_owner  = ledger.owner,
			owner       = excluded.owner,
			lease_until = excluded.lease_until,
			claimed_at  = excluded.claimed_at
		WHERE ledger.done_at IS NULL AND ledger.lease_until <= ?
		RETURNING prev_owner`),
		key, owner, ms(now.Add(lease)), ms(now), ms(now)).Scan(&prev)
	switch {
	case err == nil && prev == "":
		return ClaimNew, nil
	case err == nil:
		return ClaimExpired, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, err
	}
	// Not taken: done, or leased. A row cannot go from done to anything
	// but pruned, and from leased only to done or free; either answer is a
	// correct "skip it now".
	var done sql.NullInt64
	if err := s.conn().QueryRowContext(ctx, s.q("SELECT done_at FROM ledger WHERE work_key = ?"), key).Scan(&done); err != nil {
		return 0, err
	}
	if done.Valid {
		return ClaimDone, nil
	}
	return ClaimBusy, nil
}

// Done records that owner did the work of key, with result (say the Slack
// message ts) kept for later. The lease need not be live: if it ran out
// but nobody took the key over, the work still counts. Calling Done again
// with the same owner is not an error.
//
// Errors: ErrNotOwner if key is not held by owner (taken over after the
// lease ran out, released, or never claimed): the caller's work may then be
// done twice, which is why the lease must be longer than the work;
// ErrUnavailable when the store is down.
func (s *Store) Done(ctx context.Context, key, owner, result string) error {
	res, err := s.conn().ExecContext(ctx, s.q(`
		UPDATE ledger SET done_at = ?, result = ?
		WHERE work_key = ? AND owner = ? AND done_at IS NULL`),
		ms(s.now()), result, key, owner)
	if err != nil {
		return s.wrap("done "+key, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return s.wrap("done "+key, err)
	}
	var holder string
	var done sql.NullInt64
	err = s.conn().QueryRowContext(ctx, s.q("SELECT owner, done_at FROM ledger WHERE work_key = ?"), key).Scan(&holder, &done)
	if err == nil && holder == owner && done.Valid {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s.wrap("done "+key, err)
	}
	return fmt.Errorf("done %s by %s: %w", key, owner, ErrNotOwner)
}

// Release gives key back without the work done (Slack failed, say), so the
// next Claim is ClaimNew and the work is retried.
//
// Errors: ErrNotOwner if key is not held by owner or is already done;
// ErrUnavailable when the store is down.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	res, err := s.conn().ExecContext(ctx, s.q(`
		UPDATE ledger SET owner = '', prev_owner = '', lease_until = 0
		WHERE work_key = ? AND owner = ? AND done_at IS NULL`), key, owner)
	if err != nil {
		return s.wrap("release "+key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.wrap("release "+key, err)
	}
	if n == 0 {
		return fmt.Errorf("release %s by %s: %w", key, owner, ErrNotOwner)
	}
	return nil
}

// Result returns the result recorded by Done for key, and whether key is
// done.
func (s *Store) Result(ctx context.Context, key string) (result string, done bool, err error) {
	var at sql.NullInt64
	err = s.conn().QueryRowContext(ctx, s.q("SELECT result, done_at FROM ledger WHERE work_key = ?"), key).Scan(&result, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.wrap("ledger result "+key, err)
	}
	if !at.Valid {
		return "", false, nil
	}
	return result, true, nil
}

// Prune deletes the done entries done before olderThan and returns how many
// went. Keep entries at least as long as the work could come round again
// (a daily reminder's key names its day, so a few days is plenty). Claims
// not done are kept: they expire by themselves.
func (s *Store) Prune(ctx context.Context, olderThan time.Time) (int64, error) {
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM ledger WHERE done_at IS NOT NULL AND done_at < ?"), ms(olderThan))
	if err != nil {
		return 0, s.wrap("prune ledger", err)
	}
	n, err := res.RowsAffected()
	return n, s.wrap("prune ledger", err)
}
