-- When a follow's digest was last turned back on in /minutes following
-- (milliseconds, 0 for never): the watcher posts no digest for a slot
-- before it, so ticking the box resumes the digest at the next slot
-- instead of posting the one the channel chose not to hear.
ALTER TABLE follow_digests ADD COLUMN resumed_at BIGINT NOT NULL DEFAULT 0;
