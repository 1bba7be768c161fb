-- The last good copy of each REMIND_HOLIDAYS URL's iCalendar file, so a
-- calendar host that is down or slow at start-up does not lose the
-- organisation's closure days (internal/workdays). url_hash is the hex
-- SHA-256 of the URL: a token in the URL never lands in the database.
-- fetched_at is Unix milliseconds.
CREATE TABLE holiday_files (
	url_hash   TEXT   NOT NULL PRIMARY KEY,
	body       TEXT   NOT NULL,
	fetched_at BIGINT NOT NULL
);
