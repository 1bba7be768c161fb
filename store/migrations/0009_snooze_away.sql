-- Reminders people steer (issue 31).
--
-- snoozes: an action left out of one person's reminders until a local day
-- (YYYY-MM-DD in their zone; reminded again from that day). Only the
-- assignee snoozes, for themselves; a completed or cancelled action's
-- snoozes are deleted, and one reassigned no longer matches its new
-- assignee. Ids and dates only: no action text.
CREATE TABLE snoozes (
	user_id    TEXT   NOT NULL,
	action_id  TEXT   NOT NULL,
	until_day  TEXT   NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (user_id, action_id)
);
CREATE INDEX snoozes_by_action ON snoozes (action_id);

-- away: no reminders nor assignment DMs up to and including last_day (a
-- local date); since is when it was set (ms), so the catch-up DM can say
-- what was assigned meanwhile; caught_up is 1 once that DM went out.
CREATE TABLE away (
	user_id   TEXT    NOT NULL PRIMARY KEY,
	last_day  TEXT    NOT NULL,
	since     BIGINT  NOT NULL,
	caught_up INTEGER NOT NULL DEFAULT 0
);

-- away_held: actions assigned to someone away, whose assignment DM was
-- held for the catch-up DM; deleted when it goes out.
CREATE TABLE away_held (
	user_id   TEXT   NOT NULL,
	action_id TEXT   NOT NULL,
	held_at   BIGINT NOT NULL,
	PRIMARY KEY (user_id, action_id)
);

-- A person's reminder rhythm: NULL the organisation's (REMIND_CADENCE),
-- 'daily', or a weekly slot such as 'mon 09:00'.
ALTER TABLE settings ADD COLUMN cadence TEXT;
