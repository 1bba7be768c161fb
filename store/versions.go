package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// MinutesVersion is one version of a meeting's minutes the bot read while
// they were visible.
type MinutesVersion struct {
	MeetingID string
	// N numbers a meeting's versions from 1, in the order first seen.
	N      int
	Hash   string // of the plain text
	Status string // approved or published_draft
	// Body is the plain text (the first MaxIndexedBody bytes); only
	// MinutesVersionText fills it.
	Body      string
	FirstSeen time.Time
	// Changes counts the places changed since version N-1; -1 for the
	// first.
	Changes int
}

// MaxMinutesVersions bounds the versions kept of one meeting's minutes;
// the oldest go first.
const MaxMinutesVersions = 20

// AddMinutesVersion keeps v as its meeting's next version (its N and
// FirstSeen set here) unless one with its hash and status is kept already,
// and reports whether it was added. Errors: ErrInvalid without a meeting,
// hash or status; ErrUnavailable when the store is down.
func (s *Store) AddMinutesVersion(ctx context.Context, v MinutesVersion) (MinutesVersion, bool, error) {
	if v.MeetingID == "" || v.Hash == "" || v.Status == "" {
		return v, false, fmt.Errorf("add minutes version: %w: meeting, hash and status are required", ErrInvalid)
	}
	body := clean(v.Body)
	if len(body) > MaxIndexedBody {
		body = strings.ToValidUTF8(body[:MaxIndexedBody], "")
	}
	v.FirstSeen = fromMS(ms(s.now()))
	added := false
	err := s.tx(ctx, "add minutes version", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO minutes_versions (meeting_id, n, hash, status, body, first_seen, changes)
			SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ?, ? FROM minutes_versions WHERE meeting_id = ?
			ON CONFLICT DO NOTHING`), v.MeetingID, v.Hash, v.Status, body, ms(v.FirstSeen), v.Changes, v.MeetingID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		added = true
		if err := tx.QueryRowContext(ctx, s.q("SELECT MAX(n) FROM minutes_versions WHERE meeting_id = ?"), v.MeetingID).Scan(&v.N); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.q("DELETE FROM minutes_versions WHERE meeting_id = ? AND n <= ?"), v.MeetingID, v.N-MaxMinutesVersions)
		return err
	})
	return v, added, err
}

// MinutesVersions lists a meeting's versions, oldest first, without their
// text. Errors: ErrUnavailable when the store is down.
func (s *Store) MinutesVersions(ctx context.Context, meetingID string) ([]MinutesVersion, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT meeting_id, n, hash, status, first_seen, changes
		FROM minutes_versions WHERE meeting_id = ? ORDER BY n`), meetingID)
	if err != nil {
		return nil, s.wrap("read minutes versions", err)
	}
	out, err := scanVersions(rows)
	return out, s.wrap("read minutes versions", err)
}

// NewMinutesVersions lists, oldest first, at most limit versions of any
// meeting first seen after since, without their text: what the watcher
// tells of. Errors: ErrUnavailable when the store is down.
func (s *Store) NewMinutesVersions(ctx context.Context, since time.Time, limit int) ([]MinutesVersion, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT meeting_id, n, hash, status, first_seen, changes
		FROM minutes_versions WHERE first_seen > ? ORDER BY first_seen, meeting_id, n LIMIT ?`), ms(since), limit)
	if err != nil {
		return nil, s.wrap("read new minutes versions", err)
	}
	out, err := scanVersions(rows)
	return out, s.wrap("read new minutes versions", err)
}

func scanVersions(rows *sql.Rows) ([]MinutesVersion, error) {
	defer rows.Close()
	var out []MinutesVersion
	for rows.Next() {
		var v MinutesVersion
		var at int64
		if err := rows.Scan(&v.MeetingID, &v.N, &v.Hash, &v.Status, &at, &v.Changes); err != nil {
			return nil, err
		}
		v.FirstSeen = fromMS(at)
		out = append(out, v)
	}
	return out, rows.Err()
}

// MinutesVersionText returns version n of a meeting's minutes with its
// text, or ok false when it is not kept. Errors: ErrUnavailable when the
// store is down.
func (s *Store) MinutesVersionText(ctx context.Context, meetingID string, n int) (MinutesVersion, bool, error) {
	v := MinutesVersion{MeetingID: meetingID, N: n}
	var at int64
	err := s.conn().QueryRowContext(ctx, s.q(`SELECT hash, status, body, first_seen, changes FROM minutes_versions
		WHERE meeting_id = ? AND n = ?`), meetingID, n).Scan(&v.Hash, &v.Status, &v.Body, &at, &v.Changes)
	if errors.Is(err, sql.ErrNoRows) {
		return MinutesVersion{}, false, nil
	}
	if err != nil {
		return MinutesVersion{}, false, s.wrap("read minutes version", err)
	}
	v.FirstSeen = fromMS(at)
	return v, true, nil
}

// MinutesVersionsOf lists the versions of each meeting named, oldest
// first, without their text, in one read. Errors: ErrUnavailable when the
// store is down.
func (s *Store) MinutesVersionsOf(ctx context.Context, meetingIDs []string) (map[string][]MinutesVersion, error) {
	out := map[string][]MinutesVersion{}
	if len(meetingIDs) == 0 {
		return out, nil
	}
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT meeting_id, n, hash, status, first_seen, changes
		FROM minutes_versions WHERE meeting_id IN (`+s.d.jsonStrings+`) ORDER BY meeting_id, n`), jsonArray(meetingIDs))
	if err != nil {
		return nil, s.wrap("read minutes versions", err)
	}
	vs, err := scanVersions(rows)
	if err != nil {
		return nil, s.wrap("read minutes versions", err)
	}
	for _, v := range vs {
		out[v.MeetingID] = append(out[v.MeetingID], v)
	}
	return out, nil
}
