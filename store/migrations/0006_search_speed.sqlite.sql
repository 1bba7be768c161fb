-- Nothing changes on SQLite: 0006 is PostgreSQL's faster minutes search
-- (0006_search_speed.postgres.sql). SQLite compares committee prefixes
-- with substr() on the same (committee_key, meeting_date) index.
SELECT 1;
