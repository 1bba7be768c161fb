-- Minutes search within its 50 ms target on PostgreSQL (docs/search.md,
-- "Cost, measured").
--
-- The GIN index without a pending list: with fastupdate, new entries wait
-- in an unsorted list (up to 4 MB) until a vacuum, and every search reads
-- all of it; after a backfill that made a rare word take 65 ms instead of
-- 1. Each write now updates the index itself, which one document at a
-- time (the watcher, the backfill) can afford. The list already there is
-- emptied now rather than at the next vacuum.
ALTER INDEX search_minutes_tsv SET (fastupdate = off);
SELECT gin_clean_pending_list('search_minutes_tsv'::regclass);

-- committee:<prefix> as LIKE 'prefix%', which only a text_pattern_ops
-- index serves whatever the database's collation; still in date order
-- within a committee for the newest-first walk.
DROP INDEX search_minutes_committee;
CREATE INDEX search_minutes_committee ON search_minutes (committee_key text_pattern_ops, meeting_date);
