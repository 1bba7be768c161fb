-- The audit trail is append-only, enforced by the database: an entry is
-- never updated, and deleted only once a checkpoint (appended first, in
-- the same transaction) has moved the chain's start past it. audit_head
-- is the chain's head (seq, hash) and its first kept seq: appends take
-- their seq from it, so a number is never given twice even when entries
-- were cut off the end, and verify compares the trail's last entry with
-- it. It only moves forward. Someone able to drop these triggers can still
-- write the tables: the key (AUDIT_KEY) and the anchored head catch that
-- (docs/audit.md).
CREATE TABLE audit_head (
	id    INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
	seq   BIGINT  NOT NULL,
	hash  TEXT    NOT NULL,
	first BIGINT  NOT NULL
);
INSERT INTO audit_head (id, seq, hash, first)
SELECT 1, COALESCE(MAX(seq), 0),
	COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), ''),
	COALESCE(MIN(seq), 1)
FROM audit_log;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only: entries are never updated');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN OLD.seq >= (SELECT first FROM audit_head WHERE id = 1)
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only: only entries a checkpoint pruned may be deleted');
END;

CREATE TRIGGER audit_head_forward BEFORE UPDATE ON audit_head
WHEN NEW.id <> OLD.id OR NEW.seq < OLD.seq OR (NEW.seq = OLD.seq AND NEW.hash <> OLD.hash) OR NEW.first < OLD.first
BEGIN
	SELECT RAISE(ABORT, 'audit_head only moves forward');
END;

CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head
BEGIN
	SELECT RAISE(ABORT, 'audit_head is never deleted');
END;
