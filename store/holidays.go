package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"
)

// urlKey is how a REMIND_HOLIDAYS URL is kept: its hash, so a token in
// it is never written to the database.
func urlKey(url string) string {
	h := sha256.Sum256([]byte(url))
	return hex.EncodeToString(h[:])
}

// HolidayFile returns the last good copy of url's iCalendar file
// (PutHolidayFile) and when it was fetched; found is false when there is
// none. It is workdays.Cache's. Errors: ErrUnavailable.
func (s *Store) HolidayFile(ctx context.Context, url string) (body []byte, at time.Time, found bool, err error) {
	var text string
	var fetched int64
	err = s.conn().QueryRowContext(ctx, s.q("SELECT body, fetched_at FROM holiday_files WHERE url_hash = ?"), urlKey(url)).Scan(&text, &fetched)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, s.wrap("read holiday file", err)
	}
	return []byte(text), fromMS(fetched), true, nil
}

// PutHolidayFile keeps body as url's last good copy, fetched now.
// Errors: ErrUnavailable.
func (s *Store) PutHolidayFile(ctx context.Context, url string, body []byte) error {
	_, err := s.conn().ExecContext(ctx, s.q(`INSERT INTO holiday_files (url_hash, body, fetched_at) VALUES (?, ?, ?)
		ON CONFLICT (url_hash) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`),
		urlKey(url), string(body), ms(s.now()))
	return s.wrap("keep holiday file", err)
}
