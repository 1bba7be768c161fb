package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// TopicWatch is a person or a channel following words across every
// committee's agendas and minutes. Exactly one of UserID and ChannelID is
// set: a person's watch is told in their DM with the bot, a channel's in
// the channel.
type TopicWatch struct {
	ID        string
	UserID    string
	ChannelID string
	// Query is the words as typed (the search's query language); the
	// topics package parses them where they are matched.
	Query     string
	CreatedBy string
	CreatedAt time.Time
}

// ErrTopicLimit is returned by AddTopicWatch when the person or channel
// already has as many watches as the limit allows.
var ErrTopicLimit = errors.New("too many topic watches")

// AddTopicWatch records w (its ID and CreatedAt are set here) unless its
// owner already watches the same words (compared in any case and spacing:
// existed is true and the first watch is returned) or already has limit
// watches (ErrTopicLimit). The count and the insert are one transaction.
// Errors: ErrInvalid without an owner or a query; ErrTopicLimit;
// ErrUnavailable when the store is down.
func (s *Store) AddTopicWatch(ctx context.Context, w TopicWatch, limit int) (TopicWatch, bool, error) {
	if (w.UserID == "") == (w.ChannelID == "") || strings.TrimSpace(w.Query) == "" {
		return TopicWatch{}, false, fmt.Errorf("add topic watch: %w: one owner and a query are required", ErrInvalid)
	}
	w.Query = clean(w.Query)
	w.ID = "t" + strings.ToLower(rand.Text()[:12])
	w.CreatedAt = fromMS(ms(s.now()))
	var existed bool
	err := s.tx(ctx, "add topic watch", func(tx *sql.Tx) error {
		have, err := s.topicWatches(ctx, tx, w.UserID, w.ChannelID)
		if err != nil {
			return err
		}
		for _, h := range have {
			if sameQuery(h.Query, w.Query) {
				w, existed = h, true
				return nil
			}
		}
		if len(have) >= limit {
			return ErrTopicLimit
		}
		_, err = tx.ExecContext(ctx, s.q(`INSERT INTO topic_watches (id, user_id, channel_id, query, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`), w.ID, w.UserID, w.ChannelID, w.Query, w.CreatedBy, ms(w.CreatedAt))
		return err
	})
	if errors.Is(err, ErrTopicLimit) {
		return TopicWatch{}, false, err
	}
	return w, existed, err
}

// sameQuery reports whether two queries are the same words, ignoring case
// and spacing.
func sameQuery(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// TopicWatchesOf lists the watches of a person (userID) or a channel
// (channelID, userID empty), oldest first. Errors: ErrUnavailable when the
// store is down.
func (s *Store) TopicWatchesOf(ctx context.Context, userID, channelID string) ([]TopicWatch, error) {
	out, err := s.topicWatches(ctx, s.conn(), userID, channelID)
	return out, s.wrap("read topic watches", err)
}

// AllTopicWatches lists every watch, oldest first: what a poll matches.
// Errors: ErrUnavailable when the store is down.
func (s *Store) AllTopicWatches(ctx context.Context) ([]TopicWatch, error) {
	rows, err := s.conn().QueryContext(ctx, `SELECT id, user_id, channel_id, query, created_by, created_at
		FROM topic_watches ORDER BY created_at, id`)
	if err != nil {
		return nil, s.wrap("read topic watches", err)
	}
	out, err := scanTopicWatches(rows)
	return out, s.wrap("read topic watches", err)
}

// queryer is what both *sql.DB and *sql.Tx answer.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) topicWatches(ctx context.Context, db queryer, userID, channelID string) ([]TopicWatch, error) {
	rows, err := db.QueryContext(ctx, s.q(`SELECT id, user_id, channel_id, query, created_by, created_at
		FROM topic_watches WHERE user_id = ? AND channel_id = ? ORDER BY created_at, id`), userID, channelID)
	if err != nil {
		return nil, err
	}
	return scanTopicWatches(rows)
}

func scanTopicWatches(rows *sql.Rows) ([]TopicWatch, error) {
	defer rows.Close()
	var out []TopicWatch
	for rows.Next() {
		var w TopicWatch
		var at int64
		if err := rows.Scan(&w.ID, &w.UserID, &w.ChannelID, &w.Query, &w.CreatedBy, &at); err != nil {
			return nil, err
		}
		w.CreatedAt = fromMS(at)
		out = append(out, w)
	}
	return out, rows.Err()
}

// StopTopicWatch removes watch id of its owner (userID for a person's,
// channelID for a channel's: nobody stops another's watch by its ID) and
// returns what was removed, or ok false when there was no such watch.
// Errors: ErrUnavailable when the store is down.
func (s *Store) StopTopicWatch(ctx context.Context, id, userID, channelID string) (TopicWatch, bool, error) {
	var w TopicWatch
	var at int64
	err := s.conn().QueryRowContext(ctx, s.q(`DELETE FROM topic_watches WHERE id = ? AND user_id = ? AND channel_id = ?
		RETURNING id, user_id, channel_id, query, created_by, created_at`), clean(id), userID, channelID).
		Scan(&w.ID, &w.UserID, &w.ChannelID, &w.Query, &w.CreatedBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return TopicWatch{}, false, nil
	}
	if err != nil {
		return TopicWatch{}, false, s.wrap("stop topic watch", err)
	}
	w.CreatedAt = fromMS(at)
	return w, true, nil
}

// VisibleMinutes is a minutes document the index came to hold in its
// present status (new, or approved after a draft) at VisibleAt.
type VisibleMinutes struct {
	MinutesDoc
	VisibleAt time.Time
}

// NewlyVisibleMinutes lists, oldest first, at most limit documents that
// became visible after since (their VisibleAt), with their text: what the
// topic watches are matched against. Errors: ErrUnavailable when the store
// is down.
func (s *Store) NewlyVisibleMinutes(ctx context.Context, since time.Time, limit int) ([]VisibleMinutes, error) {
	text := "(SELECT f.body FROM search_minutes_fts f WHERE f.rowid = m.doc_id)"
	if s.d.name == postgresDialect.name {
		text = "m.body"
	}
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time,
			m.draft, m.url, m.visible_at, `+text+`
		FROM search_minutes m WHERE m.visible_at > ? ORDER BY m.visible_at, m.meeting_id LIMIT ?`), ms(since), limit)
	if err != nil {
		return nil, s.wrap("read newly visible minutes", err)
	}
	defer rows.Close()
	var out []VisibleMinutes
	for rows.Next() {
		var v VisibleMinutes
		var date, at int64
		var hasTime, draft int
		if err := rows.Scan(&v.MeetingID, &v.Title, &v.Committee, &date, &hasTime, &draft, &v.URL, &at, &v.Body); err != nil {
			return nil, s.wrap("read newly visible minutes", err)
		}
		v.Date, v.DateHasTime, v.Draft, v.VisibleAt = fromMS(date), hasTime != 0, draft != 0, fromMS(at)
		out = append(out, v)
	}
	return out, s.wrap("read newly visible minutes", rows.Err())
}

// MatchMinutes reports whether meeting meetingID's indexed minutes match
// q (its words, phrases and exclusions, as SearchMinutes reads them; the
// committee is not tested here), with the hit and its snippet when they
// do. One indexed document is looked at, by its key: the cost of a topic
// watch's match does not grow with the index. Errors: ErrUnavailable when
// the store is down.
func (s *Store) MatchMinutes(ctx context.Context, meetingID string, q MinutesQuery) (*MinutesHit, error) {
	words, phrases, not := queryTerms(q)
	if len(words)+len(phrases) == 0 {
		return nil, nil
	}
	var query string
	var args []any
	if s.d.name == postgresDialect.name {
		tsq, qargs := postgresTSQuery(words, phrases, not)
		query = `SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url,
				ts_headline('english', substr(m.body, 1, 20000), ` + tsq + `, CAST(? AS text))
			FROM search_minutes m WHERE m.meeting_id = CAST(? AS text) AND m.tsv @@ ` + tsq
		args = append(append(append(args, qargs...), "StartSel="+markStart+", StopSel="+markEnd+", MaxWords=35, MinWords=15, ShortWord=2", meetingID), qargs...)
	} else {
		query = `SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url,
				snippet(search_minutes_fts, 1, ?, ?, '…', 24)
			FROM search_minutes_fts f JOIN search_minutes m ON m.doc_id = f.rowid
			WHERE f.rowid = (SELECT doc_id FROM search_minutes WHERE meeting_id = ?) AND search_minutes_fts MATCH ?`
		args = []any{markStart, markEnd, meetingID, sqliteMatch(words, phrases, not)}
	}
	rows, err := s.conn().QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, s.wrap("match minutes", err)
	}
	defer rows.Close()
	var page MinutesPage
	if err := scanHits(rows, &page, 1, false); err != nil {
		return nil, s.wrap("match minutes", err)
	}
	if len(page.Hits) == 0 {
		return nil, nil
	}
	return &page.Hits[0], nil
}

// CountMinutesMatches counts the indexed minutes q matches (words,
// phrases, exclusions and committee), counting at most limit: how broad a
// topic watch's words are. Errors: ErrUnavailable when the store is down.
func (s *Store) CountMinutesMatches(ctx context.Context, q MinutesQuery, limit int) (int, error) {
	words, phrases, not := queryTerms(q)
	if len(words)+len(phrases) == 0 {
		return 0, nil
	}
	committee := CommitteeKey(clean(q.Committee))
	var query string
	var args []any
	if s.d.name == postgresDialect.name {
		tsq, qargs := postgresTSQuery(words, phrases, not)
		where := "m.tsv @@ " + tsq
		if committee != "" {
			where = committeeLike + " AND " + where
			args = append(args, likePrefix(committee))
		}
		query = `SELECT count(*) FROM (SELECT 1 FROM search_minutes m WHERE ` + where + ` LIMIT ?) x`
		args = append(append(args, qargs...), limit)
	} else {
		query = `SELECT count(*) FROM (SELECT 1 FROM search_minutes_fts f JOIN search_minutes m ON m.doc_id = f.rowid
			WHERE search_minutes_fts MATCH ? AND substr(m.committee_key, 1, ?) = ? LIMIT ?)`
		args = []any{sqliteMatch(words, phrases, not), utf8.RuneCountInString(committee), committee, limit}
	}
	var n int
	err := s.conn().QueryRowContext(ctx, s.q(query), args...).Scan(&n)
	return n, s.wrap("count minutes matches", err)
}
