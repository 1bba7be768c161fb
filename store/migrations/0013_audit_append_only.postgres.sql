-- The audit trail is append-only, enforced by the database: an entry is
-- never updated, and deleted only once a checkpoint (appended first, in
-- the same transaction) has moved the chain's start past it; neither
-- table can be truncated. audit_head is the chain's head (seq, hash) and
-- its first kept seq: appends take their seq from it, so a number is
-- never given twice even when entries were cut off the end, and verify
-- compares the trail's last entry with it. It only moves forward. The
-- bot's role owns these tables and could disable the triggers: the key
-- (AUDIT_KEY) and the anchored head catch that (docs/audit.md).
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

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND OLD.seq < (SELECT first FROM audit_head WHERE id = 1) THEN
		RETURN OLD;
	END IF;
	IF TG_OP = 'DELETE' THEN
		RAISE EXCEPTION 'audit_log is append-only: only entries a checkpoint pruned may be deleted' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RAISE EXCEPTION 'audit_log is append-only: entries are never updated or truncated' USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE FUNCTION audit_head_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.seq >= OLD.seq
		AND NOT (NEW.seq = OLD.seq AND NEW.hash <> OLD.hash) AND NEW.first >= OLD.first THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'audit_head only moves forward' USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
	FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
	FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_head_forward BEFORE UPDATE OR DELETE ON audit_head
	FOR EACH ROW EXECUTE FUNCTION audit_head_forward();
CREATE TRIGGER audit_head_no_truncate BEFORE TRUNCATE ON audit_head
	FOR EACH STATEMENT EXECUTE FUNCTION audit_head_forward();
