-- The language a follow's channel posts are written in (announcements,
-- digests, briefs): a shipped language's code ("fr"), or '' for
-- ORG_LANGUAGE. Chosen with /minutes follow <committee> language <code>.
ALTER TABLE follows ADD COLUMN language TEXT NOT NULL DEFAULT '';
