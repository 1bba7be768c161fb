-- The minutes search index (PostgreSQL). Only minutes whose status is
-- visible (approved, published_draft) are ever written here; minutes that
-- stop being visible are deleted. tsv is the English text-search vector
-- (stemmed: "budgets" finds "budget"), the title weighted above the body,
-- kept by PostgreSQL itself and searched through a GIN index.
CREATE TABLE search_minutes (
	meeting_id    TEXT    NOT NULL PRIMARY KEY,
	title         TEXT    NOT NULL,
	committee     TEXT    NOT NULL,
	committee_key TEXT    NOT NULL,
	meeting_date  BIGINT  NOT NULL,
	date_has_time INTEGER NOT NULL DEFAULT 0,
	draft         INTEGER NOT NULL DEFAULT 0,
	url           TEXT    NOT NULL DEFAULT '',
	body          TEXT    NOT NULL,
	indexed_at    BIGINT  NOT NULL,
	tsv tsvector GENERATED ALWAYS AS (
		setweight(to_tsvector('english'::regconfig, title), 'A') ||
		setweight(to_tsvector('english'::regconfig, body), 'B')) STORED
);
CREATE INDEX search_minutes_tsv ON search_minutes USING GIN (tsv);
CREATE INDEX search_minutes_committee ON search_minutes (committee_key, meeting_date);
CREATE INDEX search_minutes_date ON search_minutes (meeting_date);
