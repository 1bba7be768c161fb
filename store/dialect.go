package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect is everything that differs between the engines. The SQL itself is
// shared: both speak INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING,
// which is what makes Claim and TryLock one atomic statement on each.
type dialect struct {
	name string
	// dollar: placeholders are $1, $2… instead of ?.
	dollar bool
	// migrationLock is run first inside the migration transaction; it holds
	// until commit. SQLite needs none: the transaction is BEGIN IMMEDIATE,
	// which already excludes every other writer.
	migrationLock string
	// auditLock is run first inside an audit append or prune; it holds
	// the audit chain's head until commit, so two replicas never give out
	// the same seq. SQLite needs none, as for migrationLock.
	auditLock string
	// jsonStrings is a subquery yielding the strings of a JSON array passed as
	// one parameter, so bulk lookups are one query with one parameter.
	jsonStrings   string
	isUnavailable func(error) bool
}

var sqliteDialect = &dialect{
	name:          "sqlite",
	jsonStrings:   "SELECT value FROM json_each(?)",
	isUnavailable: sqliteUnavailable,
}

var postgresDialect = &dialect{
	name:   "postgres",
	dollar: true,
	// Keyed by schema so that databases shared by several schemas (the
	// tests, one schema each) do not serialise each other.
	migrationLock: "SELECT pg_advisory_xact_lock(hashtext('recordsbot migrations ' || current_schema()))",
	auditLock:     "SELECT pg_advisory_xact_lock(hashtext('recordsbot audit ' || current_schema()))",
	jsonStrings:   "SELECT jsonb_array_elements_text(CAST(? AS jsonb))",
	isUnavailable: postgresUnavailable,
}

// rebind turns ? placeholders into $n for PostgreSQL. Our queries have no ?
// inside string literals, so a plain scan is enough.
func (d *dialect) rebind(q string) string {
	if !d.dollar {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// target is a parsed DATABASE_URL.
type target struct {
	dialect *dialect
	display string // without credentials
	file    string // SQLite file path; "" in memory and for PostgreSQL
	open    func(context.Context) (*sql.DB, error)
}

// memoryForms are the DATABASE_URLs of a private in-memory SQLite database.
var memoryForms = map[string]bool{"sqlite::memory:": true, "sqlite://:memory:": true}

// CheckURL reports whether databaseURL is a form Open accepts, without
// connecting. The error wraps ErrBadURL and is one line naming DATABASE_URL.
// The forms:
//
//   - sqlite:///var/lib/recordsbot/recordsbot.db: an absolute path (three
//     slashes);
//   - sqlite://recordsbot.db, sqlite://data/recordsbot.db: a path relative to
//     the working directory (the default is sqlite://recordsbot.db);
//   - sqlite::memory: or sqlite://:memory:: a fresh private in-memory
//     database for each Open (the demo, tests);
//   - postgres://… or postgresql://…: a libpq-style URL, handed to pgx as is
//     (sslmode, search_path and the other parameters work).
//
// The file's directory must exist; the file is created on first Open.
func CheckURL(databaseURL string) error {
	_, err := parseURL(databaseURL)
	return err
}

// SQLiteFile is the absolute path of the file a sqlite:// databaseURL
// names, and "" for any other form (in memory, PostgreSQL, not valid). It
// lets a caller tell whether Open would create a new file.
func SQLiteFile(databaseURL string) string {
	t, err := parseURL(databaseURL)
	if err != nil {
		return ""
	}
	return t.file
}

// parseURL parses a DATABASE_URL of one of the forms CheckURL lists.
func parseURL(databaseURL string) (*target, error) {
	u := strings.TrimSpace(databaseURL)
	switch {
	case memoryForms[u]:
		return &target{dialect: sqliteDialect, display: u, open: func(context.Context) (*sql.DB, error) {
			db, err := sql.Open("sqlite", ":memory:?_txlock=immediate&_foreign_keys=1")
			if err != nil {
				return nil, err
			}
			// Each connection to :memory: is its own empty database: keep
			// exactly one, forever.
			db.SetMaxOpenConns(1)
			db.SetMaxIdleConns(1)
			db.SetConnMaxLifetime(0)
			db.SetConnMaxIdleTime(0)
			return db, nil
		}}, nil
	case strings.HasPrefix(u, "sqlite://"):
		path := strings.TrimPrefix(u, "sqlite://")
		if path == "" || path == "/" {
			return nil, badURL("sqlite:// needs a file path, as in sqlite:///var/lib/recordsbot/recordsbot.db")
		}
		if strings.ContainsAny(path, "?#\x00") {
			return nil, badURL("a SQLite path may not contain ?, # or NUL")
		}
		// Absolute from here on, so Ping's check of the file does not
		// depend on the working directory staying put.
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return &target{dialect: sqliteDialect, display: u, file: path, open: func(ctx context.Context) (*sql.DB, error) {
			// The busy timeout makes writers from other connections or
			// processes queue instead of failing with SQLITE_BUSY; every
			// transaction takes the write lock when it begins, so two
			// never deadlock upgrading a read lock.
			db, err := sql.Open("sqlite", path+"?_busy_timeout="+strconv.Itoa(int(sqliteBusyTimeout/time.Millisecond))+"&_txlock=immediate&_foreign_keys=1")
			if err != nil {
				return nil, err
			}
			db.SetMaxOpenConns(4)
			db.SetConnMaxIdleTime(5 * time.Minute)
			if err := useWAL(ctx, db); err != nil {
				_ = db.Close()
				return nil, explainCantOpen(path, err)
			}
			return db, nil
		}}, nil
	case strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"):
		cfg, err := pgx.ParseConfig(u)
		if err != nil {
			// pgx's message may quote the URL, password included: say less.
			return nil, badURL("not a valid PostgreSQL URL (postgres://user:password@host:5432/dbname?sslmode=…)")
		}
		return &target{dialect: postgresDialect, display: Redact(u), open: func(context.Context) (*sql.DB, error) {
			db := stdlib.OpenDB(*cfg)
			db.SetMaxOpenConns(8)
			db.SetConnMaxIdleTime(5 * time.Minute)
			return db, nil
		}}, nil
	case u == "":
		return nil, badURL("is empty; use sqlite://recordsbot.db, sqlite:///abs/path.db or postgres://…")
	default:
		return nil, badURL("must start with sqlite:// (sqlite:///abs/path.db, sqlite://relative.db, sqlite::memory:) or postgres://, got " + strconv.Quote(Redact(u)))
	}
}

// sqliteBusyTimeout is how long a SQLite statement waits for another
// connection's or process's write lock before giving up.
const sqliteBusyTimeout = 10 * time.Second

// useWAL puts the database file in WAL mode, so readers and the one writer
// proceed together. The mode is stored in the file, so this is done once
// here rather than by every new connection (a _journal_mode DSN parameter):
// switching a fresh file needs an exclusive lock, and SQLite answers
// SQLITE_BUSY at once, without waiting out the busy timeout, when two
// connections race to switch (it would be a deadlock: "the busy handler is
// not invoked if SQLite determines that invoking it could result in a
// deadlock", https://www.sqlite.org/c3ref/busy_handler.html). Replicas or
// a CronJob starting together on one new file did hit it, about once in a
// hundred starts; so a busy answer here is waited out, within the same
// timeout as any other statement.
func useWAL(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(sqliteBusyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 250*time.Millisecond) {
		// Where WAL is not possible (a file system without shared
		// memory), SQLite keeps its rollback journal and says so in the
		// answer; that is still correct, only less concurrent, so the
		// answer is not an error.
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil {
			return nil
		}
		var e *sqlite.Error
		if !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

func badURL(msg string) error { return &badURLError{"DATABASE_URL " + msg} }

// badURLError is a one-line message naming DATABASE_URL that matches
// ErrBadURL.
type badURLError struct{ msg string }

func (e *badURLError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrBadURL) true.
func (e *badURLError) Is(target error) bool { return target == ErrBadURL }

// errDBClosed is database/sql's unexported error for a closed *sql.DB,
// recognised by its text.
const errDBClosed = "sql: database is closed"

// commonUnavailable is what either engine's connection failing looks like
// through database/sql.
func commonUnavailable(err error) bool {
	// The caller gave up: that says nothing about the store.
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &ne) || strings.Contains(err.Error(), errDBClosed)
}

func sqliteUnavailable(err error) bool {
	if commonUnavailable(err) {
		return true
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary result code
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT,
		sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM,
		sqlite3.SQLITE_NOMEM:
		return true
	}
	return false
}

func postgresUnavailable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	if commonUnavailable(err) || pgconn.Timeout(err) {
		return true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && len(pe.Code) == 5 {
		// https://www.postgresql.org/docs/current/errcodes-appendix.html
		switch pe.Code[:2] {
		case "08", // connection exception
			"53", // insufficient resources (disk full, too many connections)
			"57", // operator intervention (shutdown, cannot connect now)
			"58", // system error (I/O)
			"3D", // invalid catalog name: the database is gone
			"3F": // invalid schema name: the schema is gone
			return true
		}
		// undefined_table: the tables were dropped under us.
		return pe.Code == "42P01"
	}
	return false
}
