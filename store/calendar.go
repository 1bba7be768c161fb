package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// EventVersion is what the store keeps of a calendar event: its SEQUENCE
// and when it last changed (its DTSTAMP).
type EventVersion struct {
	Sequence  int
	ChangedAt time.Time
}

// calendarTouch is how stale seen_at and used_at may get before a read
// writes them again: they only decide pruning, which counts in days.
const calendarTouch = 24 * time.Hour

// EventVersions returns the version of each event in fingerprints (UID →
// a hash of what, when changed, its subscribers must be told of). An event
// seen for the first time is sequence 0, changed now; one whose
// fingerprint differs from the stored one has its sequence raised by one,
// changed now, in one statement, so replicas building a feed at once raise
// it once. Unchanged events cost one read. Errors: ErrUnavailable when the
// store is down.
func (s *Store) EventVersions(ctx context.Context, fingerprints map[string]string) (map[string]EventVersion, error) {
	if len(fingerprints) == 0 {
		return map[string]EventVersion{}, nil
	}
	uids := make([]string, 0, len(fingerprints))
	for uid := range fingerprints {
		uids = append(uids, uid)
	}
	now := s.now()
	known, err := s.storedEvents(ctx, uids, now)
	if err != nil {
		return nil, err
	}
	out := known.versions
	var changed []string
	for _, uid := range uids {
		if fp, ok := known.fingerprints[uid]; !ok || fp != fingerprints[uid] {
			changed = append(changed, uid)
		}
	}
	if len(changed) > 0 {
		if err := s.saveEvents(ctx, changed, fingerprints, now); err != nil {
			return nil, err
		}
		// Read back what was written (or what a replica wrote first).
		for _, uid := range changed {
			if out[uid], err = s.eventVersion(ctx, uid); err != nil {
				return nil, err
			}
		}
	}
	if len(known.stale) > 0 {
		_, err := s.conn().ExecContext(ctx, s.q(`UPDATE calendar_events SET seen_at = ? WHERE uid IN (`+s.d.jsonStrings+`)`), ms(now), jsonArray(known.stale))
		if err != nil {
			return nil, s.wrap("touch calendar events", err)
		}
	}
	return out, nil
}

// storedCalendarEvents is what the store holds of some calendar events.
type storedCalendarEvents struct {
	versions     map[string]EventVersion // by UID
	fingerprints map[string]string       // by UID
	stale        []string                // UIDs last seen more than calendarTouch before now
}

// storedEvents reads the stored version and fingerprint of each of uids
// the store has.
func (s *Store) storedEvents(ctx context.Context, uids []string, now time.Time) (storedCalendarEvents, error) {
	known := storedCalendarEvents{versions: make(map[string]EventVersion, len(uids)), fingerprints: map[string]string{}}
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT uid, fingerprint, sequence, changed_at, seen_at FROM calendar_events WHERE uid IN (`+s.d.jsonStrings+`)`), jsonArray(uids))
	if err != nil {
		return known, s.wrap("read calendar events", err)
	}
	for rows.Next() {
		var uid, fp string
		var seq int
		var changed, seen int64
		if err := rows.Scan(&uid, &fp, &seq, &changed, &seen); err != nil {
			return known, s.wrap("read calendar events", errors.Join(err, rows.Close()))
		}
		known.fingerprints[uid] = fp
		known.versions[uid] = EventVersion{Sequence: seq, ChangedAt: fromMS(changed)}
		if now.Sub(fromMS(seen)) > calendarTouch {
			known.stale = append(known.stale, uid)
		}
	}
	if err := rows.Close(); err != nil {
		return known, s.wrap("read calendar events", err)
	}
	if err := rows.Err(); err != nil {
		return known, s.wrap("read calendar events", err)
	}
	return known, nil
}

// saveEvents stores the fingerprints of the changed events, first seen or
// changed at now, in one transaction.
func (s *Store) saveEvents(ctx context.Context, changed []string, fingerprints map[string]string, now time.Time) error {
	return s.tx(ctx, "save calendar events", func(tx *sql.Tx) error {
		// The WHERE keeps a second writer with the same fingerprint
		// from raising the sequence again.
		stmt, err := tx.PrepareContext(ctx, s.q(`
			INSERT INTO calendar_events (uid, fingerprint, sequence, changed_at, seen_at) VALUES (?, ?, 0, ?, ?)
			ON CONFLICT (uid) DO UPDATE SET
				fingerprint = excluded.fingerprint, sequence = calendar_events.sequence + 1,
				changed_at = excluded.changed_at, seen_at = excluded.seen_at
			WHERE calendar_events.fingerprint <> excluded.fingerprint`))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, uid := range changed {
			if _, err := stmt.ExecContext(ctx, uid, fingerprints[uid], ms(now), ms(now)); err != nil {
				return fmt.Errorf("event %s: %w", uid, err)
			}
		}
		return nil
	})
}

// eventVersion reads the stored version of event uid.
func (s *Store) eventVersion(ctx context.Context, uid string) (EventVersion, error) {
	var seq int
	var at int64
	err := s.conn().QueryRowContext(ctx, s.q(`SELECT sequence, changed_at FROM calendar_events WHERE uid = ?`), uid).Scan(&seq, &at)
	if err != nil {
		return EventVersion{}, s.wrap("read calendar event", err)
	}
	return EventVersion{Sequence: seq, ChangedAt: fromMS(at)}, nil
}

// CalendarToken is what the store keeps of a person's private calendar
// feed: the salt its token is made from and the token's hash, never the
// token.
type CalendarToken struct {
	UserID    string
	Salt      string
	Hash      string
	CreatedAt time.Time
}

// CalendarToken returns userID's calendar token; ok is false when they
// have none. Errors: ErrUnavailable when the store is down.
func (s *Store) CalendarToken(ctx context.Context, userID string) (tok CalendarToken, ok bool, err error) {
	var created int64
	err = s.conn().QueryRowContext(ctx, s.q(`SELECT user_id, salt, token_hash, created_at FROM calendar_tokens WHERE user_id = ?`), userID).
		Scan(&tok.UserID, &tok.Salt, &tok.Hash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return CalendarToken{}, false, nil
	}
	if err != nil {
		return CalendarToken{}, false, s.wrap("read calendar token", err)
	}
	tok.CreatedAt = fromMS(created)
	return tok, true, nil
}

// AddCalendarToken stores tok as its user's first calendar token: a token
// they already have is kept (two replicas making someone's first token at
// once keep one) and returned. Errors: ErrInvalid for an empty user, salt
// or hash; ErrUnavailable.
func (s *Store) AddCalendarToken(ctx context.Context, tok CalendarToken) (CalendarToken, error) {
	return s.saveCalendarToken(ctx, tok, "DO NOTHING")
}

// ReplaceCalendarToken stores tok as its user's calendar token in place of
// the one they had (a reset: the old token's hash is gone when this
// returns), and returns it. Errors: as AddCalendarToken's.
func (s *Store) ReplaceCalendarToken(ctx context.Context, tok CalendarToken) (CalendarToken, error) {
	return s.saveCalendarToken(ctx, tok, "DO UPDATE SET salt = excluded.salt, token_hash = excluded.token_hash, created_at = excluded.created_at, used_at = excluded.used_at")
}

// saveCalendarToken inserts tok, doing conflict (an ON CONFLICT action)
// when its user has a token, and returns the token the user has then.
func (s *Store) saveCalendarToken(ctx context.Context, tok CalendarToken, conflict string) (CalendarToken, error) {
	if tok.UserID == "" || tok.Salt == "" || tok.Hash == "" {
		return CalendarToken{}, fmt.Errorf("%w: calendar token needs a user, a salt and a hash", ErrInvalid)
	}
	now := ms(s.now())
	_, err := s.conn().ExecContext(ctx, s.q(`INSERT INTO calendar_tokens (user_id, salt, token_hash, created_at, used_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (user_id) `+conflict), tok.UserID, tok.Salt, tok.Hash, now, now)
	if err != nil {
		return CalendarToken{}, s.wrap("save calendar token", err)
	}
	got, ok, err := s.CalendarToken(ctx, tok.UserID)
	if err == nil && !ok {
		err = s.wrap("save calendar token", errors.New("token gone after saving"))
	}
	return got, err
}

// CalendarTokenUser returns the user whose token hashes to hash; ok is
// false when nobody's does (a reset token, a made-up one). It notes the
// use at most once a day, for pruning. Errors: ErrUnavailable.
func (s *Store) CalendarTokenUser(ctx context.Context, hash string) (userID string, ok bool, err error) {
	var used int64
	err = s.conn().QueryRowContext(ctx, s.q(`SELECT user_id, used_at FROM calendar_tokens WHERE token_hash = ?`), hash).Scan(&userID, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.wrap("find calendar token", err)
	}
	if now := s.now(); now.Sub(fromMS(used)) > calendarTouch {
		if _, err := s.conn().ExecContext(ctx, s.q(`UPDATE calendar_tokens SET used_at = ? WHERE token_hash = ?`), ms(now), hash); err != nil {
			return "", false, s.wrap("touch calendar token", err)
		}
	}
	return userID, true, nil
}

// pruneCalendar deletes events no feed has shown since before, and tokens
// neither made nor used since: a person's feed URL nobody polls is
// personal data kept no longer than the rest.
func (s *Store) pruneCalendar(ctx context.Context, before time.Time) (events, tokens int64, err error) {
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM calendar_events WHERE seen_at < ?"), ms(before))
	if err != nil {
		return 0, 0, s.wrap("prune calendar events", err)
	}
	if events, err = res.RowsAffected(); err != nil {
		return 0, 0, s.wrap("prune calendar events", err)
	}
	res, err = s.conn().ExecContext(ctx, s.q("DELETE FROM calendar_tokens WHERE used_at < ? AND created_at < ?"), ms(before), ms(before))
	if err != nil {
		return events, 0, s.wrap("prune calendar tokens", err)
	}
	tokens, err = res.RowsAffected()
	return events, tokens, s.wrap("prune calendar tokens", err)
}
