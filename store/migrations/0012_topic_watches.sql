-- Topic watches: a person (user_id) or a channel (channel_id) told when
-- words they follow appear in a new agenda or newly visible minutes of any
-- committee. query is what was typed, parsed again where it is matched.
CREATE TABLE topic_watches (
	id         TEXT   PRIMARY KEY,
	user_id    TEXT   NOT NULL DEFAULT '',
	channel_id TEXT   NOT NULL DEFAULT '',
	query      TEXT   NOT NULL,
	created_by TEXT   NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX topic_watches_user ON topic_watches (user_id);
CREATE INDEX topic_watches_channel ON topic_watches (channel_id);

-- When the index first held a meeting's minutes in their present status
-- (new, or a draft approved): the watcher matches topic watches against
-- minutes newly visible since its last pass, whoever read them first.
ALTER TABLE search_minutes ADD COLUMN visible_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX search_minutes_visible ON search_minutes (visible_at);
