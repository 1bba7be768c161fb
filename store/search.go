package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/minutes/body"
)

// MinutesDoc is one visible minutes document as the search index keeps it.
type MinutesDoc struct {
	MeetingID   string
	Title       string // the meeting's title
	Committee   string // as the records spell it
	Date        time.Time
	DateHasTime bool
	Draft       bool   // published_draft rather than approved
	URL         string // the record's own public URL, "" when it has none
	// Body is the minutes as plain text (no Markdown or HTML). Only its
	// first MaxIndexedBody bytes are indexed.
	Body string
}

// MaxIndexedBody bounds the text indexed of one minutes document, so that
// no document can exceed PostgreSQL's 1 MB tsvector or make one write
// slow. Real minutes are a few kilobytes.
const MaxIndexedBody = 256 << 10

// MinutesQuery is a parsed search: every word and every phrase must occur
// (stemmed, in the title or the body), in minutes of a committee whose name
// starts with Committee (ignoring case). The words and phrases are text,
// never query syntax: each engine receives them only as quoted terms or
// bound parameters, so nothing typed can be an operator or an error.
// Terms with no letter or digit are ignored. A query with no terms and a
// Committee lists that committee's minutes, newest first; an empty query
// finds nothing.
type MinutesQuery struct {
	Words   []string
	Phrases []string
	// Not are words or phrases that must not occur: a minutes document
	// holding any of them is not found. They narrow a search; alone they
	// ask for nothing.
	Not       []string
	Committee string
}

// Bounds on one search, so that every query stays cheap whatever was
// typed: at most maxQueryTerms terms, a word of at most maxWordBytes and a
// phrase of at most maxPhraseBytes (longer ones are cut at a rune).
// PostgreSQL's ts_headline grows with the lexemes of the query, and a
// 2,000-byte "word" took seconds there.
const (
	maxQueryTerms  = 12
	maxWordBytes   = 60
	maxPhraseBytes = 160
)

// MinutesHit is one search result.
type MinutesHit struct {
	MeetingID   string
	Title       string
	Committee   string
	Date        time.Time
	DateHasTime bool
	Draft       bool
	URL         string
	// Snippet is text of the minutes around the matched words, the
	// matched words marked. It is the engine's plain text: escape it for
	// the place it is shown.
	Snippet []SnippetPart
}

// SnippetPart is a run of snippet text; Match marks words the query
// matched.
type SnippetPart struct {
	Text  string
	Match bool
}

// MinutesPage is one page of search results.
type MinutesPage struct {
	Hits []MinutesHit
	// More is set when results follow this page.
	More bool
}

// The snippet marks: control characters that never survive into indexed
// text (clean removes them), so a mark in a snippet is always the engine's.
const (
	markStart = "\x02"
	markEnd   = "\x03"
)

// IndexMinutes adds doc to the search index, or replaces what the index
// held for its meeting. Call it only for minutes whose status is visible.
// Errors: ErrInvalid for an empty MeetingID; ErrUnavailable when the store
// is down.
func (s *Store) IndexMinutes(ctx context.Context, doc MinutesDoc) error {
	if strings.TrimSpace(doc.MeetingID) == "" {
		return fmt.Errorf("index minutes: %w: no meeting ID", ErrInvalid)
	}
	body := clean(doc.Body)
	if len(body) > MaxIndexedBody {
		body = strings.ToValidUTF8(body[:MaxIndexedBody], "")
	}
	title, committee := clean(doc.Title), clean(doc.Committee)
	now := ms(s.now())
	args := []any{doc.MeetingID, title, committee, CommitteeKey(committee), ms(doc.Date), boolInt(doc.DateHasTime), boolInt(doc.Draft), clean(doc.URL), now, now}
	what := "index minutes " + doc.MeetingID
	if s.d.name == postgresDialect.name {
		_, err := s.conn().ExecContext(ctx, s.q(`
			INSERT INTO search_minutes (meeting_id, title, committee, committee_key, meeting_date, date_has_time, draft, url, indexed_at, visible_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (meeting_id) DO UPDATE SET title = excluded.title, committee = excluded.committee,
				committee_key = excluded.committee_key, meeting_date = excluded.meeting_date,
				date_has_time = excluded.date_has_time, draft = excluded.draft, url = excluded.url,
				indexed_at = excluded.indexed_at, body = excluded.body, `+visibleSince), append(args, body)...)
		return s.wrap(what, err)
	}
	return s.tx(ctx, what, func(tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO search_minutes (meeting_id, title, committee, committee_key, meeting_date, date_has_time, draft, url, indexed_at, visible_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (meeting_id) DO UPDATE SET title = excluded.title, committee = excluded.committee,
				committee_key = excluded.committee_key, meeting_date = excluded.meeting_date,
				date_has_time = excluded.date_has_time, draft = excluded.draft, url = excluded.url,
				indexed_at = excluded.indexed_at, `+visibleSince+`
			RETURNING doc_id`, args...).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM search_minutes_fts WHERE rowid = ?", id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO search_minutes_fts (rowid, title, body) VALUES (?, ?, ?)", id, title, body)
		return err
	})
}

// visibleSince keeps a document's visible_at while its status stays: it
// moves only when a draft is approved (or an approval goes back to
// draft), the moments topic watches hear of. The expression is the same
// on both engines (an upsert names the stored row by its table).
const visibleSince = `visible_at = CASE WHEN search_minutes.draft = excluded.draft
	THEN search_minutes.visible_at ELSE excluded.visible_at END`

// RemoveMinutes takes a meeting's minutes out of the search index (they
// are gone or no longer visible) and reports whether they were there.
// Errors: ErrUnavailable when the store is down.
func (s *Store) RemoveMinutes(ctx context.Context, meetingID string) (bool, error) {
	what := "remove minutes " + meetingID
	if s.d.name == postgresDialect.name {
		res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM search_minutes WHERE meeting_id = ?"), meetingID)
		if err != nil {
			return false, s.wrap(what, err)
		}
		n, err := res.RowsAffected()
		return n > 0, s.wrap(what, err)
	}
	removed := false
	err := s.tx(ctx, what, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, "DELETE FROM search_minutes WHERE meeting_id = ? RETURNING doc_id", meetingID).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		removed = true
		_, err = tx.ExecContext(ctx, "DELETE FROM search_minutes_fts WHERE rowid = ?", id)
		return err
	})
	return removed, err
}

// IndexedMinutes returns, of the meetings named, those whose minutes the
// index holds, each with whether they were indexed as a draft. The watcher
// uses it to read again only minutes that may have changed.
// Errors: ErrUnavailable when the store is down.
func (s *Store) IndexedMinutes(ctx context.Context, meetingIDs []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(meetingIDs) == 0 {
		return out, nil
	}
	rows, err := s.conn().QueryContext(ctx, s.q("SELECT meeting_id, draft FROM search_minutes WHERE meeting_id IN ("+s.d.jsonStrings+")"), jsonArray(meetingIDs))
	if err != nil {
		return nil, s.wrap("read indexed minutes", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var draft int
		if err := rows.Scan(&id, &draft); err != nil {
			return nil, s.wrap("read indexed minutes", err)
		}
		out[id] = draft != 0
	}
	return out, s.wrap("read indexed minutes", rows.Err())
}

// MinutesIndexStats describes the search index.
type MinutesIndexStats struct {
	Docs int // minutes documents indexed
}

// MinutesIndexStats counts the search index. Errors: ErrUnavailable when
// the store is down.
func (s *Store) MinutesIndexStats(ctx context.Context) (MinutesIndexStats, error) {
	var st MinutesIndexStats
	err := s.conn().QueryRowContext(ctx, "SELECT COUNT(*) FROM search_minutes").Scan(&st.Docs)
	return st, s.wrap("count indexed minutes", err)
}

// SearchMinutes returns the page of results of q starting at offset,
// limit at most (default 5, at most 50), best first: by the engine's
// relevance (bm25 on SQLite, ts_rank on PostgreSQL, title words weighing
// more), then newest first. Whatever the words hold, they are matched as
// text: SearchMinutes never fails on what was typed.
// Errors: ErrUnavailable when the store is down.
func (s *Store) SearchMinutes(ctx context.Context, q MinutesQuery, offset, limit int) (MinutesPage, error) {
	if limit <= 0 {
		limit = 5
	}
	limit = min(limit, 50)
	offset = max(offset, 0)
	words, phrases, not := queryTerms(q)
	committee := CommitteeKey(clean(q.Committee))
	if len(words)+len(phrases) == 0 && committee == "" {
		return MinutesPage{}, nil
	}
	var (
		query string
		args  []any
	)
	if s.d.name == postgresDialect.name {
		query, args = postgresSearch(words, phrases, not, committee, limit+1, offset)
	} else {
		query, args = sqliteSearch(words, phrases, not, committee, limit+1, offset)
	}
	var page MinutesPage
	scan := func(rows *sql.Rows) error { return scanHits(rows, &page, limit, len(words)+len(phrases) == 0) }
	if s.d.name == postgresDialect.name {
		return page, s.searchPostgres(ctx, s.q(query), args, len(words) > 0 && len(phrases) == 0, scan)
	}
	rows, err := s.conn().QueryContext(ctx, query, args...)
	if err != nil {
		return MinutesPage{}, s.wrap("search minutes", err)
	}
	defer rows.Close()
	return page, s.wrap("search minutes", scan(rows))
}

// scanHits reads a search's rows into page: at most limit hits, More when
// a row follows. noWords: none were searched for, the snippet is the body's
// start.
func scanHits(rows *sql.Rows, page *MinutesPage, limit int, noWords bool) error {
	for rows.Next() {
		var (
			h             MinutesHit
			date          int64
			hasTime, drft int
			snippet       string
		)
		if err := rows.Scan(&h.MeetingID, &h.Title, &h.Committee, &date, &hasTime, &drft, &h.URL, &snippet); err != nil {
			return err
		}
		if len(page.Hits) == limit {
			page.More = true
			break
		}
		h.Date, h.DateHasTime, h.Draft = time.UnixMilli(date).UTC(), hasTime != 0, drft != 0
		if noWords {
			snippet = lead(snippet, snippetLeadBytes)
		}
		h.Snippet = splitSnippet(snippet)
		page.Hits = append(page.Hits, h)
	}
	return rows.Err()
}

// snippetLeadBytes is how much of the body a result shows when no word
// was searched for (a committee's list).
const snippetLeadBytes = 240

// queryTerms cleans the query's words, phrases and exclusions: invalid
// UTF-8, NUL and control characters become spaces, terms with no letter or
// digit go (an engine would find no token in them), and at most
// maxQueryTerms stay. Exclusions count only beside a word or a phrase.
func queryTerms(q MinutesQuery) (words, phrases, not []string) {
	n := 0
	keep := func(in []string, max int) []string {
		var out []string
		for _, t := range in {
			t = strings.Join(strings.Fields(clean(t)), " ")
			if len(t) > max {
				t = strings.ToValidUTF8(t[:max], "")
			}
			if n < maxQueryTerms && strings.IndexFunc(t, isTokenRune) >= 0 {
				out = append(out, t)
				n++
			}
		}
		return out
	}
	words = keep(q.Words, maxWordBytes)
	phrases = keep(q.Phrases, maxPhraseBytes)
	if len(words)+len(phrases) > 0 {
		not = keep(q.Not, maxPhraseBytes)
	}
	return words, phrases, not
}

// isTokenRune is a rune both engines index: a letter or a digit.
func isTokenRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// clean makes text safe to store and search on both engines: valid UTF-8,
// no NUL (PostgreSQL refuses it in text) and no other control character
// but newline and tab (so the snippet marks are always ours).
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// CommitteeKey is how the index compares committee names: trimmed and
// lower case.
func CommitteeKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// lead is the start of body, cut at a word boundary with "…" when longer
// than max bytes.
func lead(text string, max int) string {
	s := body.OneLine(text)
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], ' ')
	if cut <= 0 {
		cut = max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut] + " …"
}

// splitSnippet turns the engine's marked snippet into parts, on one line
// as body.OneLine folds it (a block's end kept as a separator).
func splitSnippet(s string) []SnippetPart {
	s = body.OneLine(s)
	var out []SnippetPart
	for s != "" {
		i := strings.Index(s, markStart)
		if i < 0 {
			out = appendPart(out, SnippetPart{Text: s})
			break
		}
		out = appendPart(out, SnippetPart{Text: s[:i]})
		s = s[i+len(markStart):]
		j := strings.Index(s, markEnd)
		if j < 0 {
			j = len(s)
		}
		out = appendPart(out, SnippetPart{Text: s[:j], Match: true})
		s = strings.TrimPrefix(s[j:], markEnd)
	}
	return out
}

// appendPart adds p, stray marks taken out, merging it with the last part
// when both are matches or both are not.
func appendPart(parts []SnippetPart, p SnippetPart) []SnippetPart {
	p.Text = strings.NewReplacer(markStart, "", markEnd, "").Replace(p.Text)
	if p.Text == "" {
		return parts
	}
	if n := len(parts); n > 0 && parts[n-1].Match == p.Match {
		parts[n-1].Text += p.Text
		return parts
	}
	return append(parts, p)
}
