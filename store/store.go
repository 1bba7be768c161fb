package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recordsbot/recordsbot/audit"
)

// Store is recordsbot's persistent state on one database, SQLite or
// PostgreSQL. It is safe for concurrent use, and several Stores (in one
// process or in several replicas) may share one database: every method is
// atomic on its own.
type Store struct {
	db      atomic.Pointer[sql.DB] // replaced when a SQLite file is reopened
	d       *dialect
	now     func() time.Time
	log     *slog.Logger
	display string // the URL without credentials, for messages

	// auditRetention is how long audit entries are kept (WithAuditRetention).
	auditRetention time.Duration
	// auditVerified hears the daily verify's result (WithAuditVerified).
	auditVerified func(audit.Head, error)
	// auditKey keys the audit trail's hashes (WithAuditKey).
	auditKey audit.Key

	// file and fileInfo identify the SQLite file opened, so that a file
	// removed or replaced under a running bot is noticed (writes would
	// otherwise go to an unlinked inode and vanish at the next start): a
	// replaced file is reopened, a removed one is an outage (conn).
	// fileInfo and reopening are under reopen.
	file     string
	target   *target
	reopen   sync.Mutex
	fileInfo atomic.Pointer[os.FileInfo]
	// removed is set while the file opened is gone from its path and no
	// other has taken its place (conn closed the handle).
	removed atomic.Bool
}

// Option configures Open.
type Option func(*Store)

// WithClock sets the clock every timestamp, lease and lock expiry is taken
// from. The default is time.Now. Times are passed to the database as
// parameters, never read from the database server's own clock, so one clock
// rules both engines and all replicas agree as far as their clocks do.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// WithLogger sets where Open reports the migrations it applied. The default
// discards.
func WithLogger(l *slog.Logger) Option {
	return func(s *Store) { s.log = l }
}

// WithAuditRetention sets how long PruneDaily keeps audit entries. The
// default is audit.DefaultRetentionDays; cmd checks AUDIT_RETENTION_DAYS
// against audit.MinRetentionDays before it gets here.
func WithAuditRetention(d time.Duration) Option {
	return func(s *Store) { s.auditRetention = d }
}

// WithAuditVerified sets a func told each result of PruneDaily's verify of
// the audit trail: its head, and nil or the *audit.BrokenError (serve
// makes it a metric). The default ignores it.
func WithAuditVerified(fn func(audit.Head, error)) Option {
	return func(s *Store) { s.auditVerified = fn }
}

// WithAuditKey sets the key (AUDIT_KEY) the audit trail's entries are
// sealed and verified with (audit.Key). The default, the zero Key, seals
// them with plain SHA-256 and cannot verify keyed ones: cmd requires the
// key wherever the trail is written or verified.
func WithAuditKey(k audit.Key) Option {
	return func(s *Store) { s.auditKey = k }
}

// Open connects to the database named by databaseURL, applies any pending
// migrations under a lock (so replicas starting together do not race) and
// returns the Store. It waits as long as ctx allows (a PostgreSQL host
// that drops packets is only given up on at ctx's deadline, or at
// connect_timeout in the URL), so give it a deadline.
//
// databaseURL is one of (see CheckURL):
//
//	sqlite:///absolute/path.db   sqlite://relative/path.db   sqlite::memory:
//	postgres://user:pass@host:5432/db?sslmode=…   (or postgresql://…)
//
// Errors: ErrBadURL (with a message naming DATABASE_URL) for a URL of
// another form; ErrSchemaTooNew (a *SchemaTooNewError) when the database was
// migrated by a newer recordsbot; ErrUnavailable when the database cannot be
// reached or opened. A SQLite file that cannot be created or opened is one
// line naming the file, what stands in the way (a missing directory, one
// this uid cannot write) and the process's uid.
func Open(ctx context.Context, databaseURL string, opts ...Option) (*Store, error) {
	s, err := openStore(ctx, databaseURL, opts...)
	if err != nil {
		// A driver's message may quote the DSN it was given.
		return nil, redactedError{err}
	}
	return s, nil
}

// redactedError shows err with every database password hidden (Redact),
// and still unwraps to it, so errors.Is and errors.As see the cause.
type redactedError struct{ err error }

func (e redactedError) Error() string { return Redact(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

func openStore(ctx context.Context, databaseURL string, opts ...Option) (*Store, error) {
	target, err := parseURL(databaseURL)
	if err != nil {
		return nil, err
	}
	s := &Store{d: target.dialect, now: time.Now, log: slog.New(slog.DiscardHandler), display: target.display,
		auditRetention: audit.DefaultRetentionDays * 24 * time.Hour, auditVerified: func(audit.Head, error) {}}
	for _, o := range opts {
		o(s)
	}
	db, err := target.open(ctx)
	if ce := (*cantOpenError)(nil); errors.As(err, &ce) {
		return nil, ce // one line that names the file, its directory and the uid
	}
	if err != nil {
		return nil, s.wrap("open store "+s.display, err)
	}
	s.db.Store(db)
	if target.file != "" {
		fi, err := os.Stat(target.file)
		if err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("open store %s: %w", s.display, unavailable(err))
		}
		s.file, s.target = target.file, target
		s.fileInfo.Store(&fi)
	}
	if err := s.migrate(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// conn is the database to use. For SQLite it first checks that the file
// at the path is still the one opened.
//
// When another file has taken its place (a backup restored with mv), it
// reopens the path, migrates it and closes the old handle: what is written
// after that lands in the file a restart would read.
//
// When the file was removed and nothing is at the path, the store is down:
// the old handle is closed, so every call fails as unavailable (Ping says
// why) rather than write into an unlinked inode nobody will read, and no
// empty database is made in its place, which would silently drop the
// follows, the settings and the exactly-once ledger while every gauge said
// the store was up. It comes back when a database is put at the path; a
// restart starts an empty one.
//
// If reopening fails, the old handle is closed all the same, so that calls
// fail as unavailable; the next call tries again.
func (s *Store) conn() *sql.DB {
	if s.file == "" || s.sameFile() {
		return s.db.Load()
	}
	s.reopen.Lock()
	defer s.reopen.Unlock()
	if s.sameFile() { // another call reopened it
		return s.db.Load()
	}
	old := s.db.Load()
	if _, err := os.Stat(s.file); errors.Is(err, fs.ErrNotExist) {
		if !s.removed.Swap(true) {
			_ = old.Close()
			s.log.Warn("store: the database file was removed; the store is down until a database is put back at its path (a restart starts an empty one)", "file", s.file)
		}
		return old
	}
	ctx, cancel := context.WithTimeout(context.Background(), sqliteBusyTimeout)
	defer cancel()
	err := s.reopenFile(ctx)
	_ = old.Close()
	if err != nil {
		s.log.Warn("store: the database file was removed or replaced, and reopening it failed", "file", s.file, "error", err)
		return old
	}
	s.log.Warn("store: the database file was replaced; reopened it", "file", s.file)
	return s.db.Load()
}

// sameFile reports whether the file at s.file is the one opened. Once it
// was removed, nothing at the path is: a file put back may be given the
// removed one's inode number.
func (s *Store) sameFile() bool {
	if s.removed.Load() {
		return false
	}
	fi, err := os.Stat(s.file)
	return err == nil && os.SameFile(fi, *s.fileInfo.Load())
}

// reopenFile opens s.file afresh and migrates it; called under reopen.
func (s *Store) reopenFile(ctx context.Context) error {
	db, err := s.target.open(ctx)
	if err != nil {
		return err
	}
	fi, err := os.Stat(s.file)
	if err != nil {
		_ = db.Close()
		return err
	}
	s.db.Store(db)
	s.fileInfo.Store(&fi)
	// Before migrate, whose calls go through conn: the file at the path
	// is now the one open.
	s.removed.Store(false)
	return s.migrate(ctx)
}

// Close closes the database. Methods called after Close return
// ErrUnavailable.
func (s *Store) Close() error {
	return s.db.Load().Close()
}

// Engine names the engine in use: "sqlite" or "postgres".
func (s *Store) Engine() string { return s.d.name }

// String is the database URL without credentials, for logs.
func (s *Store) String() string { return s.display }

// Ping checks that the database answers and still holds recordsbot's schema.
// For SQLite, a file removed or replaced is reopened first (as by every
// method). It returns nil or an error wrapping ErrUnavailable; the
// dependency check (recordsbot_dependency_up{dependency="store"}) reports
// it.
func (s *Store) Ping(ctx context.Context) error {
	db := s.conn()
	if s.removed.Load() {
		return fmt.Errorf("ping store: the database file %s was removed (put it back, or restart to start an empty one): %w", s.file, ErrUnavailable)
	}
	var v int
	// Reading the migrations table rather than SELECT 1 also notices a
	// database or schema dropped under us.
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&v); err != nil {
		// Whatever stops this query stops every other one: a Ping that
		// fails is a store that is down, whatever the driver said.
		if ctx.Err() == nil {
			return fmt.Errorf("ping store: %w", unavailable(err))
		}
		return fmt.Errorf("ping store: %w", err)
	}
	return nil
}

// wrap adds context to a database error and marks it ErrUnavailable when
// the engine says the database is down rather than that the query was
// wrong.
func (s *Store) wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	if s.d.isUnavailable(err) {
		err = unavailable(err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// q rewrites a query written with ? placeholders for the engine.
func (s *Store) q(query string) string { return s.d.rebind(query) }

// ms is the storage form of every timestamp: Unix milliseconds, an integer
// both engines compare and index the same way.
func ms(t time.Time) int64 { return t.UnixMilli() }

// fromMS is the inverse of ms, in UTC.
func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// tx runs fn in a transaction and commits it, or rolls back on error. On
// SQLite the transaction is BEGIN IMMEDIATE (the DSN's _txlock), so it
// waits for the write lock up front instead of failing on upgrade.
func (s *Store) tx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := s.conn().BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(what, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		var known *SchemaTooNewError
		if errors.As(err, &known) || errors.Is(err, ErrNotOwner) || errors.Is(err, ErrInvalid) {
			return err
		}
		return s.wrap(what, err)
	}
	return s.wrap(what, tx.Commit())
}
