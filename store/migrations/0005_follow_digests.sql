-- The weekly digest of a follow (watch/digest.go). schedule is '' for the
-- organisation's DIGEST_DEFAULT, 'off', or a day and time such as
-- 'mon 09:00'; mentions 1 pings the assignees. last_slot is the date
-- (YYYY-MM-DD, local) of the slot the last digest was for, last_at when it
-- was posted; snapshot is JSON of the committee's actions then, which the
-- next digest compares against ("what changed"). Ids, statuses and dates
-- only: no action text.
CREATE TABLE follow_digests (
	channel_id    TEXT    NOT NULL,
	committee_key TEXT    NOT NULL,
	schedule      TEXT    NOT NULL DEFAULT '',
	mentions      INTEGER NOT NULL DEFAULT 0,
	last_slot     TEXT    NOT NULL DEFAULT '',
	last_at       BIGINT  NOT NULL DEFAULT 0,
	snapshot      TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (channel_id, committee_key)
);
