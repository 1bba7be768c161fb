package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

// Digest is a follow's weekly digest: the channel's choice and what the
// last digest saw.
type Digest struct {
	// Schedule is the channel's own day and time; nil for the
	// organisation's default (DIGEST_DEFAULT). An off Weekly is how
	// `digest off` was kept before it became the Weekly digest box. A
	// stored schedule that does not parse (the store writes none, but a
	// hand-edited row could hold one) reads as nil.
	Schedule *clocktime.Weekly
	// Mentions pings the assignees; off by default.
	Mentions bool
	// LastSlot is the local date (YYYY-MM-DD) of the slot the last digest
	// was posted for; "" before the first.
	LastSlot string
	// LastAt is when the last digest was posted; zero before the first.
	LastAt time.Time
	// Snapshot is what the last digest saw of the committee's actions
	// (JSON, the watcher's to read); "" before the first.
	Snapshot string
	// ResumedAt is when the channel last turned its digest on in
	// /minutes following or chose its schedule; zero for never. No
	// digest is posted for a slot before it: a choice takes effect at
	// the next slot, never with a back-dated digest.
	ResumedAt time.Time
}

// Digest returns the digest of the follow of committeeKey in channelID,
// the zero Digest (the default schedule, never posted) when none was
// chosen or posted. Errors: ErrUnavailable when the store is down.
func (s *Store) Digest(ctx context.Context, channelID, committeeKey string) (Digest, error) {
	var d Digest
	var mentions, at, resumed int64
	var schedule string
	err := s.conn().QueryRowContext(ctx, s.q(`SELECT schedule, mentions, last_slot, last_at, snapshot, resumed_at FROM follow_digests
		WHERE channel_id = ? AND committee_key = ?`), channelID, committeeKey).Scan(&schedule, &mentions, &d.LastSlot, &at, &d.Snapshot, &resumed)
	if errors.Is(err, sql.ErrNoRows) {
		return Digest{}, nil
	}
	if err != nil {
		return Digest{}, s.wrap("read digest", err)
	}
	d.Mentions = mentions != 0
	if w, err := clocktime.ParseWeekly(schedule); schedule != "" && err == nil {
		d.Schedule = &w
	}
	if at != 0 {
		d.LastAt = fromMS(at)
	}
	if resumed != 0 {
		d.ResumedAt = fromMS(resumed)
	}
	return d, nil
}

// SetDigestChoice records the channel's choice for the follow's digest
// (schedule as in Digest.Schedule, and mentions), keeping what the last
// digest saw, and marks the digest resumed now (Digest.ResumedAt). Errors: ErrInvalid when channelID or committeeKey is empty;
// ErrUnavailable when the store is down.
func (s *Store) SetDigestChoice(ctx context.Context, channelID, committeeKey string, schedule *clocktime.Weekly, mentions bool) error {
	if channelID == "" || committeeKey == "" {
		return fmt.Errorf("set digest choice: %w: channel and committee are required", ErrInvalid)
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO follow_digests (channel_id, committee_key, schedule, mentions, resumed_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (channel_id, committee_key) DO UPDATE SET
			schedule = excluded.schedule, mentions = excluded.mentions, resumed_at = excluded.resumed_at`),
		channelID, committeeKey, weeklyParam(schedule), boolInt(mentions), ms(s.now()))
	return s.wrap("set digest choice", err)
}

// weeklyParam stores a digest schedule as ParseWeekly reads it, nil as
// "" (the default).
func weeklyParam(w *clocktime.Weekly) string {
	if w == nil {
		return ""
	}
	return w.String()
}

// resumeDigest marks the digest of the follow resumed now
// (Digest.ResumedAt); nothing when there is no such follow, so no row
// outlives an unfollow.
func (s *Store) resumeDigest(ctx context.Context, channelID, committeeKey string) error {
	// The WHERE keeps SQLite from reading ON CONFLICT as a join's ON
	// (https://sqlite.org/lang_upsert.html, "Parsing Ambiguity").
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO follow_digests (channel_id, committee_key, resumed_at)
		SELECT channel_id, committee_key, ? FROM follows WHERE channel_id = ? AND committee_key = ?
		ON CONFLICT (channel_id, committee_key) DO UPDATE SET resumed_at = excluded.resumed_at`),
		ms(s.now()), channelID, committeeKey)
	return s.wrap("resume digest", err)
}

// RecordDigest records the digest posted for slot (a local date) at at,
// and the snapshot it saw, keeping the channel's choice. Errors:
// ErrInvalid when channelID, committeeKey or slot is empty;
// ErrUnavailable when the store is down.
func (s *Store) RecordDigest(ctx context.Context, channelID, committeeKey, slot string, at time.Time, snapshot string) error {
	if channelID == "" || committeeKey == "" || slot == "" {
		return fmt.Errorf("record digest: %w: channel, committee and slot are required", ErrInvalid)
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO follow_digests (channel_id, committee_key, last_slot, last_at, snapshot) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (channel_id, committee_key) DO UPDATE SET
			last_slot = excluded.last_slot, last_at = excluded.last_at, snapshot = excluded.snapshot`),
		channelID, committeeKey, slot, ms(at), snapshot)
	return s.wrap("record digest", err)
}

// AnnouncedSince returns the announcements posted (or updated, on
// approval) in channelID after since, oldest first: the minutes a digest
// lists as published since the last one. Baselined minutes (never posted)
// are left out.
func (s *Store) AnnouncedSince(ctx context.Context, channelID string, since time.Time) ([]Announcement, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT meeting_id, status, message_ts, thread_posted, updated_at FROM announcements
		WHERE channel_id = ? AND message_ts <> '' AND updated_at > ? ORDER BY updated_at, meeting_id`), channelID, ms(since))
	if err != nil {
		return nil, s.wrap("list announcements since", err)
	}
	defer rows.Close()
	var out []Announcement
	for rows.Next() {
		a := Announcement{ChannelID: channelID}
		var thread, at int64
		if err := rows.Scan(&a.MeetingID, &a.Status, &a.TS, &thread, &at); err != nil {
			return nil, s.wrap("list announcements since", err)
		}
		a.ThreadPosted, a.UpdatedAt = thread != 0, fromMS(at)
		out = append(out, a)
	}
	return out, s.wrap("list announcements since", rows.Err())
}
