-- The minutes search index (SQLite). Only minutes whose status is visible
-- (approved, published_draft) are ever written here; minutes that stop being
-- visible are deleted. search_minutes holds what a result shows; the FTS5
-- table search_minutes_fts holds the text, its rowid being doc_id. The
-- porter tokenizer stems English words ("budgets" finds "budget") over
-- unicode61, which folds case and diacritics.
CREATE TABLE search_minutes (
	doc_id        INTEGER PRIMARY KEY,
	meeting_id    TEXT    NOT NULL UNIQUE,
	title         TEXT    NOT NULL,
	committee     TEXT    NOT NULL,
	committee_key TEXT    NOT NULL,
	meeting_date  BIGINT  NOT NULL,
	date_has_time INTEGER NOT NULL DEFAULT 0,
	draft         INTEGER NOT NULL DEFAULT 0,
	url           TEXT    NOT NULL DEFAULT '',
	indexed_at    BIGINT  NOT NULL
);
CREATE INDEX search_minutes_committee ON search_minutes (committee_key, meeting_date);
CREATE INDEX search_minutes_date ON search_minutes (meeting_date);

CREATE VIRTUAL TABLE search_minutes_fts USING fts5(
	title, body,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
