-- The versions of minutes the bot has read while they were visible
-- (published as a draft, approved): per meeting, numbered from 1, each its
-- plain text's hash, status, text and when first seen, and how many places
-- changed since the version before (-1 for the first). A version is one
-- (hash, status): approval as drafted is a version with 0 changes. At most
-- 20 are kept per meeting (store.MaxMinutesVersions).
CREATE TABLE minutes_versions (
	meeting_id TEXT    NOT NULL,
	n          INTEGER NOT NULL,
	hash       TEXT    NOT NULL,
	status     TEXT    NOT NULL,
	body       TEXT    NOT NULL,
	first_seen BIGINT  NOT NULL,
	changes    INTEGER NOT NULL,
	PRIMARY KEY (meeting_id, n)
);
CREATE UNIQUE INDEX minutes_versions_seen ON minutes_versions (meeting_id, hash, status);
CREATE INDEX minutes_versions_first_seen ON minutes_versions (first_seen);
