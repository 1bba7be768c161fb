-- recordsbot's first schema. Shared by SQLite and PostgreSQL: only TEXT,
-- INTEGER and BIGINT columns; timestamps are Unix milliseconds from the
-- bot's clock; flags are 0/1. Ids, names, timestamps and statuses only: no
-- minutes bodies, no action text.

-- A channel follows a committee. baselined: the watcher has taken its
-- baseline for this follow, so only what happens after it is announced.
CREATE TABLE follows (
	channel_id    TEXT    NOT NULL,
	committee_key TEXT    NOT NULL,
	committee     TEXT    NOT NULL,
	followed_by   TEXT    NOT NULL,
	followed_at   BIGINT  NOT NULL,
	baselined     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (channel_id, committee_key)
);

-- What was announced about a meeting's minutes in a channel.
CREATE TABLE announcements (
	channel_id    TEXT    NOT NULL,
	meeting_id    TEXT    NOT NULL,
	status        TEXT    NOT NULL,
	message_ts    TEXT    NOT NULL,
	thread_posted INTEGER NOT NULL DEFAULT 0,
	updated_at    BIGINT  NOT NULL,
	PRIMARY KEY (channel_id, meeting_id)
);

-- The exactly-once work ledger. A row is claimed (owner, lease_until) and
-- then done (done_at, result), or released (owner '') for a retry.
-- prev_owner is the owner whose lease ran out when the row was taken over,
-- which is what makes a claim ClaimExpired rather than ClaimNew.
CREATE TABLE ledger (
	work_key    TEXT   NOT NULL PRIMARY KEY,
	owner       TEXT   NOT NULL,
	prev_owner  TEXT   NOT NULL DEFAULT '',
	lease_until BIGINT NOT NULL,
	claimed_at  BIGINT NOT NULL,
	done_at     BIGINT,
	result      TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX ledger_done_at ON ledger (done_at);

-- The assignee each action had when last seen, to notice new assignments.
CREATE TABLE seen_actions (
	action_id TEXT   NOT NULL PRIMARY KEY,
	assignee  TEXT   NOT NULL,
	seen_at   BIGINT NOT NULL
);

-- Small named values of the watcher: the meetings horizon, baselines taken.
CREATE TABLE watch_state (
	name       TEXT   NOT NULL PRIMARY KEY,
	value      TEXT   NOT NULL,
	updated_at BIGINT NOT NULL
);

-- Leader locks: one replica polls at a time.
CREATE TABLE locks (
	name       TEXT   NOT NULL PRIMARY KEY,
	owner      TEXT   NOT NULL,
	expires_at BIGINT NOT NULL
);

-- A person's own notification settings; NULL means the organisation's
-- default.
CREATE TABLE settings (
	user_id        TEXT    NOT NULL PRIMARY KEY,
	remind_enabled INTEGER,
	remind_at      TEXT,
	weekdays_only  INTEGER,
	assign_dms     INTEGER,
	updated_at     BIGINT  NOT NULL
);
