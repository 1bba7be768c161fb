-- The calendar feeds (package calendar, docs/calendar.md).
--
-- calendar_events: one row per event UID a feed has shown (a meeting, an
-- action's deadline). fingerprint is a hash of what, when it changes, a
-- calendar application must be told of (the date, the title); sequence is
-- the event's SEQUENCE, raised each time it does, and changed_at its
-- DTSTAMP. No titles, no dates: hashes and numbers only. seen_at lets
-- Prune forget events no feed has shown for the retention.
CREATE TABLE calendar_events (
	uid         TEXT    NOT NULL PRIMARY KEY,
	fingerprint TEXT    NOT NULL,
	sequence    INTEGER NOT NULL,
	changed_at  BIGINT  NOT NULL,
	seen_at     BIGINT  NOT NULL
);
CREATE INDEX calendar_events_seen ON calendar_events (seen_at);

-- calendar_tokens: a person's private deadline feed. The feed's token is
-- never stored: salt (random) with the bot's key makes it, and token_hash
-- (SHA-256 of it) finds the person when the feed is asked for. A reset is
-- a new salt, so the old token's hash matches nothing. used_at (updated at
-- most daily) lets Prune forget tokens nobody polls.
CREATE TABLE calendar_tokens (
	user_id    TEXT   NOT NULL PRIMARY KEY,
	salt       TEXT   NOT NULL,
	token_hash TEXT   NOT NULL UNIQUE,
	created_at BIGINT NOT NULL,
	used_at    BIGINT NOT NULL
);
