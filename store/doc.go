// Package store is recordsbot's persistent state: which channels follow
// which committees, what was announced where, the exactly-once work ledger,
// the assignees last seen, the watcher's small state, leader locks and
// people's notification settings, and the audit trail (audit.go: an
// append-only hash chain of every change made through Slack).
//
// # What is stored, and what is not
//
// Ids, names, timestamps and statuses only: Slack channel and user IDs,
// committee names, meeting and action IDs, a hash of the assignee an action
// had (how the records name them, an email among them, is not kept), the
// minutes status announced and the Slack message ts, ledger keys with
// their owner, lease and result (a message ts), lock names, "HH:MM"
// reminder times and on/off choices, calendar event versions (a hash, a
// number) and private calendar tokens' salts and hashes. No minutes bodies, no action text, no
// tokens. A pending DM is re-read from the records service when it is
// sent, so nothing of its content waits here.
//
// # Engines
//
// One Store type over database/sql, with the differences between engines
// kept in one small dialect table (dialect.go); the SQL itself is shared,
// since both engines speak INSERT … ON CONFLICT … DO UPDATE … WHERE …
// RETURNING.
//
//   - SQLite, the default, through modernc.org/sqlite (pure Go: no cgo, so
//     the static, distroless image stays). DATABASE_URL=sqlite:///var/lib/recordsbot/recordsbot.db
//     (absolute), sqlite://recordsbot.db (relative to the working directory,
//     the default), sqlite::memory: (a fresh private database per Open, for
//     the demo and tests). The file runs in WAL mode with a busy timeout, and
//     every transaction is BEGIN IMMEDIATE. Several processes on one host may
//     share the file; replicas on several hosts need PostgreSQL (SQLite's
//     locking is not safe over network file systems).
//   - PostgreSQL through pgx v5 (its database/sql adapter):
//     DATABASE_URL=postgres://user:password@host:5432/db?sslmode=require.
//     Any libpq URL parameter works, search_path included.
//
// Every time the store writes (leases, lock expiry, timestamps) comes from
// the Go clock (WithClock), passed as a parameter, never the database
// server's now(): one clock rules both engines and every replica.
//
// # Migrations
//
// Versioned SQL files embedded in the binary (migrations/NNNN_name.sql,
// shared by both engines unless NNNN_name.sqlite.sql or .postgres.sql
// overrides one), applied by Open in one transaction under a lock: a
// PostgreSQL advisory lock, SQLite's write lock. Two replicas starting
// together both succeed and the migrations run once; a failed migration
// rolls back whole. A database whose schema is newer than the binary stops
// start-up with one line (ErrSchemaTooNew): "database schema is version N,
// newer than this recordsbot (knows up to M): upgrade recordsbot or restore
// a backup". Released migrations are never edited; the next change is the
// next number.
//
// # The exactly-once ledger
//
// Claim(key, owner, lease) is one atomic statement on both engines: of any
// number of workers (goroutines, pools, replicas) claiming a key, exactly
// one gets ClaimNew; the others get ClaimBusy while its lease runs, and
// ClaimDone once Done was called. Keys name the work and its occasion, so
// the same work gets the same key on every replica and every run, e.g.
// "announce/C123/mtg_42/approved", "assign/act_7/U123",
// "remind/U123/2026-11-23".
//
// Slack cannot take part in a transaction, so "exactly once" is built from
// two records, the ledger row and the message itself:
//
//  1. Claim. ClaimDone or ClaimBusy: skip.
//  2. ClaimNew: post, carrying the key in the message's metadata
//     (chat.postMessage's metadata: event_type and event_payload,
//     https://docs.slack.dev/messaging/message-metadata).
//  3. Done(key, owner, ts). If the post failed, Release so that the next
//     run tries again: nothing is lost.
//  4. ClaimExpired means an earlier worker claimed the key and stopped
//     before Done, perhaps after posting. Look for the key in the channel or
//     DM first (conversations.history with include_all_metadata, see
//     https://docs.slack.dev/tools/node-slack-sdk/reference/web-api/interfaces/ConversationsHistoryArguments);
//     if the message is there, Done with its ts, else post as in 2.
//
// The lease must comfortably exceed the time the work takes (Slack's
// retries included): a worker that outlives its lease may find its Done
// refused with ErrNotOwner, and its work then may be done twice. Prune
// deletes done rows once their occasion cannot come round again.
//
// # Retention
//
// PruneDaily, called by the watcher's polls and the reminder job, deletes
// once a day (claimed in the ledger, so on one replica) the done ledger
// entries, seen actions and announcements older than RETENTION_DAYS
// (DefaultRetention, 90 days; at least MinRetention, longer than the
// watcher's 60-day lookback, so nothing pruned is announced or sent again).
//
// # Failure
//
// Errors that mean the store is down (cannot connect, connection lost,
// database, schema or file gone, disk full, locked too long, closed) wrap
// ErrUnavailable; IsUnavailable tests for it. Ping reads the schema table
// (and, for SQLite, checks that the file at the path is still the one
// opened): /readyz should fail on its error, and commands that need the
// store answer "the store is down" rather than nothing.
//
// # Backup
//
// SQLite: `sqlite3 recordsbot.db ".backup backup.db"` while running (an
// online, consistent copy), or copy recordsbot.db together with its -wal
// and -shm files while recordsbot is stopped. PostgreSQL: pg_dump, or the
// provider's snapshots. Restoring an older backup forgets what was done
// since: those keys are ClaimNew again, so announcements and DMs sent after
// the backup can go out twice unless the caller also checks Slack (as the
// daily reminder's metadata rule does).
//
// # Moving from SQLite to PostgreSQL
//
// Stop recordsbot, start it once against the new DATABASE_URL (that
// creates the schema), stop it, and copy the rows of follows,
// announcements, seen_actions, watch_state and settings (the tables have
// the same columns on both engines, e.g. `sqlite3 -csv recordsbot.db
// "SELECT * FROM follows"` into psql's `\copy follows FROM 'follows.csv'
// CSV`). Copy the ledger too if the move happens mid-day; leave out locks
// and schema_migrations. Then start the replicas on PostgreSQL. There is no
// built-in export/import command.
package store
