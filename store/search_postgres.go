package store

import (
	"context"
	"database/sql"
	"strings"
)

// searchPostgres runs a search in a read-only transaction with settings
// for this transaction only (set_config's is_local). plan_cache_mode: pgx
// prepares and caches statements, and after five runs PostgreSQL may plan
// a cached one once for any words; that generic plan cannot tell a rare
// word from a common one, and walked the table newest first for a rare
// word (70 ms at 10,000 minutes) where the GIN index takes 1 ms.
// enable_seqscan, for words without a phrase (bitmap): the matches then
// come from the GIN index alone, which needs no tsvector (see
// postgresSearch); the planner, which counts reading a tsvector as nearly
// free, would rather walk the table or its date index and read one per
// row (12-20 ms for two common words, against 2 through the index).
func (s *Store) searchPostgres(ctx context.Context, query string, args []any, bitmap bool, scan func(*sql.Rows) error) error {
	tx, err := s.conn().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.wrap("search minutes", err)
	}
	defer func() { _ = tx.Rollback() }()
	settings := "SELECT set_config('plan_cache_mode', 'force_custom_plan', true)"
	if bitmap {
		settings += ", set_config('enable_seqscan', 'off', true)"
	}
	if _, err := tx.ExecContext(ctx, settings); err != nil {
		return s.wrap("search minutes", err)
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return s.wrap("search minutes", err)
	}
	defer rows.Close()
	return s.wrap("search minutes", scan(rows))
}

// rankWindow is how many matches, newest first, a search ranks on either
// engine. Ranking reads each match's tsvector on PostgreSQL (97 ms at
// 10,000 minutes of 5 kB for a word in most of them, docs/search.md) and
// each match's statistics on SQLite; the window keeps a search within the
// 50 ms target at any size, at the cost that a word in more than this
// many minutes is ranked among the newest of them only.
const rankWindow = 200

// Snippet windows: ts_headline parses and stems all the text it is given,
// and its time grows faster than the text (about 3 ms for 6 kB of minutes
// against 0.15 ms for 500 characters, and seconds for the 256 kB a
// document may hold), so each page row gets the text around the first
// place a searched word occurs: headlineBefore characters before it and
// headlineWindow characters in all. A headline of 35 words fits.
const (
	headlineBefore = 80
	headlineWindow = 480
)

// postgresSearch is the PostgreSQL query: plainto_tsquery for each word
// and phraseto_tsquery for each phrase, joined with &&. Both functions
// read their text as words, ignoring any tsquery syntax in it
// (https://www.postgresql.org/docs/current/textsearch-controls.html), and
// the text is only ever a bound parameter. The newest rankWindow
// matches are ranked with ts_rank; ts_headline runs on the page's rows
// only (not on the one that tells whether more follow), over a window of
// each body around its first match.
func postgresSearch(words, phrases, not []string, committee string, limit, offset int) (string, []any) {
	if len(words)+len(phrases) == 0 {
		return `SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url, substr(m.body, 1, 400)
			FROM search_minutes m
			WHERE ` + committeeLike + `
			ORDER BY m.meeting_date DESC, m.meeting_id LIMIT ? OFFSET ?`, []any{likePrefix(committee), limit, offset}
	}
	// The tsquery is written out wherever it is used, not taken from a
	// CTE: only an expression of constants lets the planner match it
	// against the GIN index (from a CTE it scanned the table, 140 ms for a
	// rare word at 10,000 minutes). qargs are its parameters, bound again
	// at each place.
	tsq, qargs := postgresTSQuery(words, phrases, not)
	matches, args := postgresMatches(tsq, qargs, committee, phrases, max(rankWindow, offset+limit))
	args = append(args, qargs...) // ts_rank
	args = append(args, limit, offset)
	args = append(args, snippetArgs(words, phrases, qargs, limit)...)
	// The window starts headlineBefore characters before the first place
	// found (dropping the word cut there), or at the start. strpos stops
	// at the first occurrence, where lower(body) would copy a whole body.
	return `WITH c AS MATERIALIZED (` + matches + `),
		r AS MATERIALIZED (SELECT c.meeting_id, c.meeting_date, ts_rank(c.tsv, ` + tsq + `) AS rank FROM c
			ORDER BY rank DESC, c.meeting_date DESC, c.meeting_id LIMIT ? OFFSET ?),
		lx AS MATERIALIZED (SELECT DISTINCT v FROM unnest(
				tsvector_to_array(to_tsvector('english', CAST(? AS text))) ||
				regexp_split_to_array(lower(CAST(? AS text)), '\s+') ||
				string_to_array(lower(CAST(? AS text)), E'\n')) AS l
			CROSS JOIN LATERAL unnest(ARRAY[l, upper(left(l, 1)) || substr(l, 2), upper(l)]) AS v
			WHERE l <> '')
		SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url,
			CASE WHEN p.n > CAST(? AS integer) THEN '' ELSE (
				SELECT CASE WHEN strpos(x.h, CAST(? AS text)) > 0 THEN x.h
					ELSE ts_headline('english', m.body, ` + tsq + `, CAST(? AS text)) END
				FROM (SELECT ts_headline('english',
						CASE WHEN a.at > CAST(? AS integer)
							THEN regexp_replace(substr(m.body, a.at - CAST(? AS integer), CAST(? AS integer)), '^\S*\s+', '')
							ELSE substr(m.body, 1, CAST(? AS integer)) END,
						` + tsq + `, CAST(? AS text)) AS h) x)
			END
		FROM (SELECT r.meeting_id, r.rank, r.meeting_date,
				row_number() OVER (ORDER BY r.rank DESC, r.meeting_date DESC, r.meeting_id) AS n FROM r) p
		JOIN search_minutes m ON m.meeting_id = p.meeting_id
		CROSS JOIN LATERAL (SELECT coalesce(min(nullif(strpos(m.body, lx.v), 0)), 1) AS at FROM lx) a
		ORDER BY p.n`, args
}

// postgresTSQuery is the tsquery of words and phrases, plainto_tsquery
// for each word and phraseto_tsquery for each phrase joined with &&, then
// && !! each exclusion's, and its parameters.
func postgresTSQuery(words, phrases, not []string) (string, []any) {
	var parts []string
	var qargs []any
	for _, w := range words {
		parts = append(parts, "plainto_tsquery('english', CAST(? AS text))")
		qargs = append(qargs, w)
	}
	for _, p := range phrases {
		parts = append(parts, "phraseto_tsquery('english', CAST(? AS text))")
		qargs = append(qargs, p)
	}
	for _, n := range not {
		parts = append(parts, "!! phraseto_tsquery('english', CAST(? AS text))")
		qargs = append(qargs, n)
	}
	return "(" + strings.Join(parts, " && ") + ")", qargs
}

// postgresMatches is the query of the newest window minutes that match
// tsq (with its parameters qargs) in committee, and its parameters. The
// newest window matches are ranked. Words alone are found through the GIN
// index, which answers them exactly without reading a tsvector: sorting
// by meeting_date + 0 takes the date index's order away, and
// searchPostgres the table scan. A phrase needs each candidate's tsvector
// for the word positions, so there the plan walks the matches newest
// first and stops at the window.
func postgresMatches(tsq string, qargs []any, committee string, phrases []string, window int) (string, []any) {
	// The committee is tested first: quals of the same cost keep their
	// written order, and the committee is read from the row while the
	// tsvector is read from TOAST. Testing the words first read five times
	// the tsvectors on the newest-first walk (292 ms at 10,000 minutes,
	// docs/search.md).
	// With words alone, the committee is tested on the GIN index's
	// matches: through its own index as well (the planner's choice), the
	// rows of the committee were found first, then each one's tsvector
	// read (35 ms for "committee:fin budget").
	var args []any
	where := "m.tsv @@ " + tsq
	date := "m.meeting_date"
	if len(phrases) == 0 {
		date += " + 0"
	}
	if committee != "" {
		like := committeeLike
		if len(phrases) == 0 {
			like = strings.Replace(like, "m.committee_key", "(m.committee_key || '')", 1)
		}
		where = like + " AND " + where
		args = append(args, likePrefix(committee))
	}
	matches := `SELECT m.meeting_id, m.meeting_date, m.tsv FROM search_minutes m
			WHERE ` + where + `
			ORDER BY ` + date + ` DESC, m.meeting_id LIMIT ?`
	return matches, append(append(args, qargs...), window)
}

// snippetArgs are the parameters of the snippets of a page of limit rows
// found with words and phrases (whose tsquery's parameters are qargs).
func snippetArgs(words, phrases []string, qargs []any, limit int) []any {
	// What a snippet's window looks for: the query's lexemes (the stems:
	// "budget" for "budgets"), its words and phrases as typed, each in
	// lower case, with a capital and in capitals; the window is around the
	// first place one of them occurs. A stem is not always in the text
	// ("polici" for "policy"), hence the words too; when the window's
	// headline marks no match, the whole body is used.
	all := strings.Join(append(append([]string(nil), words...), phrases...), " ")
	args := []any{all, all, strings.Join(phrases, "\n")}
	opts := "StartSel=" + markStart + ", StopSel=" + markEnd + ", MaxWords=35, MinWords=15, ShortWord=2"
	// limit counts the row that only tells whether more follow: it needs
	// no snippet.
	args = append(args, limit-1, markStart)
	args = append(append(args, qargs...), opts)
	args = append(args, headlineBefore, headlineBefore, headlineWindow, headlineWindow)
	return append(append(args, qargs...), opts)
}

// committeeLike matches committee keys starting with a prefix that
// likePrefix wrote, through the text_pattern_ops index.
const committeeLike = `m.committee_key LIKE CAST(? AS text) ESCAPE '\'`

// likePrefix is a LIKE pattern for keys starting with prefix: its
// wildcards and the escape character escaped, then %.
func likePrefix(prefix string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
}
