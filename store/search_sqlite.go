package store

import (
	"strings"
	"unicode/utf8"
)

// sqliteSearch is the FTS5 query. Each term becomes an FTS5 string, in
// double quotes with inner quotes doubled: a string is always a phrase of
// the words the tokenizer finds in it, never an operator
// (https://www.sqlite.org/fts5.html#fts5_strings). Strings side by side
// must all match.
//
// As on PostgreSQL, the newest rankWindow matches are ranked: bm25 reads
// each ranked document's statistics, and for a word in two minutes of
// three that was most of a search's time (15 of 25 ms at 10,000 minutes).
// The window is the matches dated on or after the rankWindow-th newest
// match's date; FTS5 cannot be asked about a given list of rows cheaply
// (a MATCH per row took 50 ms for 200 rows), so the matches are listed
// twice, which costs less than ranking them all. A committee's matches
// are all ranked.
func sqliteSearch(words, phrases, not []string, committee string, limit, offset int) (string, []any) {
	var cargs []any
	where := []string{"1 = 1"}
	if committee != "" {
		where = append(where, "substr(m.committee_key, 1, ?) = ?")
		cargs = append(cargs, utf8.RuneCountInString(committee), committee)
	}
	if len(words)+len(phrases) == 0 {
		// The text comes from a subquery per row shown: joined, the
		// planner read the FTS5 table whole (90 ms for committee:fin at
		// 10,000 minutes, against 1 ms).
		return `SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url,
				(SELECT substr(f.body, 1, 400) FROM search_minutes_fts f WHERE f.rowid = m.doc_id)
			FROM search_minutes m
			WHERE ` + strings.Join(where, " AND ") + `
			ORDER BY m.meeting_date DESC, m.meeting_id LIMIT ? OFFSET ?`, append(cargs, limit, offset)
	}
	match := sqliteMatch(words, phrases, not)
	args := []any{markStart, markEnd, match}
	args = append(args, cargs...)
	cond := strings.Join(where, " AND ")
	// Within a committee the matches to rank are the committee's at most,
	// and listing every match a second time cost more than ranking them
	// (20 against 11 ms for committee:fin budget at 10,000 minutes).
	if committee == "" {
		cond += ` AND m.meeting_date >= coalesce((SELECT m.meeting_date
				FROM search_minutes_fts f JOIN search_minutes m ON m.doc_id = f.rowid
				WHERE search_minutes_fts MATCH ?
				ORDER BY m.meeting_date DESC LIMIT 1 OFFSET ?), -9223372036854775808)`
		args = append(args, match, max(rankWindow, offset+limit)-1)
	}
	args = append(args, limit, offset)
	// snippet(): the body column (1), up to 24 tokens around the matches,
	// "…" where the text was cut.
	return `SELECT m.meeting_id, m.title, m.committee, m.meeting_date, m.date_has_time, m.draft, m.url,
			snippet(search_minutes_fts, 1, ?, ?, '…', 24)
		FROM search_minutes_fts f JOIN search_minutes m ON m.doc_id = f.rowid
		WHERE search_minutes_fts MATCH ? AND ` + cond + `
		ORDER BY bm25(search_minutes_fts, 4.0, 1.0), m.meeting_date DESC, m.meeting_id
		LIMIT ? OFFSET ?`, args
}

// sqliteMatch is the FTS5 query of words and phrases, each an FTS5
// string side by side (all must match), then NOT each exclusion
// (https://www.sqlite.org/fts5.html#fts5_boolean_operators).
func sqliteMatch(words, phrases, not []string) string {
	str := func(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }
	var terms []string
	for _, t := range append(append([]string(nil), words...), phrases...) {
		terms = append(terms, str(t))
	}
	match := strings.Join(terms, " ")
	if len(not) > 0 {
		match = "(" + match + ")"
		for _, t := range not {
			match += " NOT " + str(t)
		}
	}
	return match
}
