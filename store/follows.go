package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Follow is a channel following a committee.
type Follow struct {
	ChannelID    string
	Committee    string // canonical name, as shown
	CommitteeKey string // lower-case match key; with ChannelID, the identity
	By           string // Slack user ID of who followed
	At           time.Time
	// Baselined is set (MarkFollowBaselined) once the watcher has taken
	// this follow's baseline: until then it announces nothing, so that
	// following starts now rather than replaying the past.
	Baselined bool
	// Choices are what the channel chose to hear of the committee
	// (SetFollowChoice); Follow ignores them: a new follow has the
	// organisation's defaults.
	Choices FollowChoices
	// Language is the code of the language the channel's posts about the
	// committee are written in (SetFollowLanguage), "" for ORG_LANGUAGE.
	// Follow ignores it: a new follow speaks the organisation's.
	Language string
}

// Follow records that f.ChannelID follows f.CommitteeKey. Following again
// is not an error: existed is true and the first follow (its time, who,
// and baseline) is kept. Baselined in f is ignored: a new follow is never
// baselined. Errors: ErrInvalid when ChannelID or CommitteeKey is empty;
// ErrUnavailable when the store is down.
func (s *Store) Follow(ctx context.Context, f Follow) (existed bool, err error) {
	if f.ChannelID == "" || f.CommitteeKey == "" {
		return false, fmt.Errorf("follow: %w: channel and committee are required", ErrInvalid)
	}
	at := f.At
	if at.IsZero() {
		at = s.now()
	}
	res, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO follows (channel_id, committee_key, committee, followed_by, followed_at, baselined)
		VALUES (?, ?, ?, ?, ?, 0)
		ON CONFLICT (channel_id, committee_key) DO NOTHING`),
		f.ChannelID, f.CommitteeKey, f.Committee, f.By, ms(at))
	if err != nil {
		return false, s.wrap("follow", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, s.wrap("follow", err)
	}
	return n == 0, nil
}

// Unfollow removes the follow and reports whether there was one.
func (s *Store) Unfollow(ctx context.Context, channelID, committeeKey string) (existed bool, err error) {
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM follows WHERE channel_id = ? AND committee_key = ?"), channelID, committeeKey)
	if err != nil {
		return false, s.wrap("unfollow", err)
	}
	// The digest's choice and snapshot go with the follow: following
	// again starts afresh.
	if _, err := s.conn().ExecContext(ctx, s.q("DELETE FROM follow_digests WHERE channel_id = ? AND committee_key = ?"), channelID, committeeKey); err != nil {
		return false, s.wrap("unfollow", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("unfollow", err)
}

// SetFollowLanguage sets the language the follow of committeeKey in
// channelID posts in: a language code ("fr"), or "" for ORG_LANGUAGE. The
// code is kept as given; package follows checks it is shipped. It reports
// false when there is no such follow. Errors: ErrUnavailable when the
// store is down.
func (s *Store) SetFollowLanguage(ctx context.Context, channelID, committeeKey, code string) (bool, error) {
	res, err := s.conn().ExecContext(ctx, s.q("UPDATE follows SET language = ? WHERE channel_id = ? AND committee_key = ?"),
		code, channelID, committeeKey)
	if err != nil {
		return false, s.wrap("set follow language", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("set follow language", err)
}

// MarkFollowBaselined records that the watcher has taken the baseline of
// the follow. It reports false if there is no such follow (it was
// unfollowed meanwhile).
func (s *Store) MarkFollowBaselined(ctx context.Context, channelID, committeeKey string) (bool, error) {
	res, err := s.conn().ExecContext(ctx, s.q("UPDATE follows SET baselined = 1 WHERE channel_id = ? AND committee_key = ?"), channelID, committeeKey)
	if err != nil {
		return false, s.wrap("mark follow baselined", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("mark follow baselined", err)
}

// FollowsInChannel returns the channel's follows ordered by committee name.
func (s *Store) FollowsInChannel(ctx context.Context, channelID string) ([]Follow, error) {
	return s.follows(ctx, "WHERE channel_id = ? ORDER BY committee_key", channelID)
}

// AllFollows returns every follow, ordered by committee then channel, so
// the watcher reads a committee's minutes once for all its channels.
func (s *Store) AllFollows(ctx context.Context) ([]Follow, error) {
	return s.follows(ctx, "ORDER BY committee_key, channel_id")
}

func (s *Store) follows(ctx context.Context, where string, args ...any) ([]Follow, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT channel_id, committee_key, committee, followed_by, followed_at, baselined,
		hear_drafts, hear_approvals, hear_digest, hear_briefs, language FROM follows `+where), args...)
	if err != nil {
		return nil, s.wrap("list follows", err)
	}
	defer rows.Close()
	var out []Follow
	for rows.Next() {
		var f Follow
		var at, baselined int64
		var drafts, approvals, digest, briefs sql.NullInt64
		if err := rows.Scan(&f.ChannelID, &f.CommitteeKey, &f.Committee, &f.By, &at, &baselined,
			&drafts, &approvals, &digest, &briefs, &f.Language); err != nil {
			return nil, s.wrap("list follows", err)
		}
		f.At, f.Baselined = fromMS(at), baselined != 0
		f.Choices = FollowChoices{Drafts: nullBool(drafts), Approvals: nullBool(approvals), Digest: nullBool(digest), Briefs: nullBool(briefs)}
		out = append(out, f)
	}
	return out, s.wrap("list follows", rows.Err())
}

// Announcement is what was posted in a channel about a meeting's minutes.
type Announcement struct {
	ChannelID string
	MeetingID string
	// Status is the minutes status announced: "published_draft" or
	// "approved".
	Status string
	// TS is the Slack message ts of the post, for chat.update and thread
	// replies.
	TS string
	// ThreadPosted is set once the "now approved" thread reply is out.
	ThreadPosted bool
	UpdatedAt    time.Time
}

// Announcement returns what was announced about meetingID in channelID, and
// whether anything was.
func (s *Store) Announcement(ctx context.Context, channelID, meetingID string) (Announcement, bool, error) {
	a := Announcement{ChannelID: channelID, MeetingID: meetingID}
	var thread, at int64
	err := s.conn().QueryRowContext(ctx, s.q(`SELECT status, message_ts, thread_posted, updated_at FROM announcements
		WHERE channel_id = ? AND meeting_id = ?`), channelID, meetingID).Scan(&a.Status, &a.TS, &thread, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Announcement{}, false, nil
	}
	if err != nil {
		return Announcement{}, false, s.wrap("read announcement", err)
	}
	a.ThreadPosted, a.UpdatedAt = thread != 0, fromMS(at)
	return a, true, nil
}

// AnnouncementsForMeeting returns every channel's announcement of
// meetingID, ordered by channel: when a draft is approved, each post of it
// is updated, even in a channel that has unfollowed since.
func (s *Store) AnnouncementsForMeeting(ctx context.Context, meetingID string) ([]Announcement, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT channel_id, status, message_ts, thread_posted, updated_at FROM announcements
		WHERE meeting_id = ? ORDER BY channel_id`), meetingID)
	if err != nil {
		return nil, s.wrap("list announcements", err)
	}
	defer rows.Close()
	var out []Announcement
	for rows.Next() {
		a := Announcement{MeetingID: meetingID}
		var thread, at int64
		if err := rows.Scan(&a.ChannelID, &a.Status, &a.TS, &thread, &at); err != nil {
			return nil, s.wrap("list announcements", err)
		}
		a.ThreadPosted, a.UpdatedAt = thread != 0, fromMS(at)
		out = append(out, a)
	}
	return out, s.wrap("list announcements", rows.Err())
}

// PutAnnouncement records a (replacing what was there). UpdatedAt is set
// from the store's clock. Errors: ErrInvalid for an empty channel, meeting
// or status.
func (s *Store) PutAnnouncement(ctx context.Context, a Announcement) error {
	if a.ChannelID == "" || a.MeetingID == "" || a.Status == "" {
		return fmt.Errorf("put announcement: %w: channel, meeting and status are required", ErrInvalid)
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO announcements (channel_id, meeting_id, status, message_ts, thread_posted, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (channel_id, meeting_id) DO UPDATE SET
			status = excluded.status, message_ts = excluded.message_ts,
			thread_posted = excluded.thread_posted, updated_at = excluded.updated_at`),
		a.ChannelID, a.MeetingID, a.Status, a.TS, boolInt(a.ThreadPosted), ms(s.now()))
	return s.wrap("put announcement", err)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
