-- What a channel hears of a committee it follows, per follow: NULL is the
-- organisation's default (FOLLOW_DEFAULTS), 0 off, 1 on.
ALTER TABLE follows ADD COLUMN hear_drafts INTEGER;
ALTER TABLE follows ADD COLUMN hear_approvals INTEGER;
ALTER TABLE follows ADD COLUMN hear_digest INTEGER;
ALTER TABLE follows ADD COLUMN hear_briefs INTEGER;
