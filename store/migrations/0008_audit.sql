-- The audit trail (package audit): every change people make through
-- Slack, append-only, a hash chain in seq order (each row's prev is the
-- hash of the row before; hash is the SHA-256 of the row's canonical
-- encoding). seq is given under a lock on the chain's head, so replicas
-- appending at once never fork it; the primary key refuses a fork all the
-- same. at is Unix milliseconds. Pruned after AUDIT_RETENTION_DAYS, with a
-- checkpoint row saying where the chain then starts.
CREATE TABLE audit_log (
	seq           BIGINT  NOT NULL PRIMARY KEY,
	at            BIGINT  NOT NULL,
	actor         TEXT    NOT NULL DEFAULT '',
	actor_records TEXT    NOT NULL DEFAULT '',
	surface       TEXT    NOT NULL DEFAULT '',
	kind          TEXT    NOT NULL,
	target        TEXT    NOT NULL DEFAULT '',
	from_value    TEXT    NOT NULL DEFAULT '',
	to_value      TEXT    NOT NULL DEFAULT '',
	outcome       TEXT    NOT NULL DEFAULT '',
	request_id    TEXT    NOT NULL DEFAULT '',
	prev          TEXT    NOT NULL DEFAULT '',
	hash          TEXT    NOT NULL
);
CREATE INDEX audit_log_target ON audit_log (target, seq);
CREATE INDEX audit_log_at ON audit_log (at);
