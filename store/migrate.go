package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// The migrations are embedded, so a binary carries the schema it needs.
// NNNN_name.sql applies to both engines; NNNN_name.sqlite.sql or
// NNNN_name.postgres.sql, when present, replaces it for that engine. Never
// edit a released migration: add the next number.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the migrations for the engine, oldest first.
func migrations(fsys fs.FS, engine string) ([]migration, error) {
	files, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	byVersion := map[int]migration{}
	for _, f := range files {
		base := strings.TrimPrefix(f, "migrations/")
		stem := strings.TrimSuffix(base, ".sql")
		specific := false
		if e := path.Ext(stem); e == ".sqlite" || e == ".postgres" {
			if e[1:] != engine {
				continue // another engine's
			}
			stem, specific = strings.TrimSuffix(stem, e), true
		}
		num, _, ok := strings.Cut(stem, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", base)
		}
		if _, dup := byVersion[v]; dup && !specific {
			continue // the engine's own file wins over the shared one
		}
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		byVersion[v] = migration{version: v, name: base, sql: string(b)}
	}
	var out []migration
	for _, m := range byVersion {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: versions must run 1, 2, 3… without gaps", m.name)
		}
	}
	return out, nil
}

// migrate brings the schema up to date in one transaction under a lock:
// PostgreSQL takes an advisory lock, SQLite's BEGIN IMMEDIATE excludes
// every other writer. A second replica starting at the same moment waits,
// then finds nothing left to do. Both engines run DDL transactionally, so a
// failed migration leaves the schema as it was.
func (s *Store) migrate(ctx context.Context) error {
	return s.migrateFrom(ctx, migrationFS)
}

func (s *Store) migrateFrom(ctx context.Context, fsys fs.FS) error {
	all, err := migrations(fsys, s.d.name)
	if err != nil {
		return err
	}
	return s.tx(ctx, "migrate store "+s.display, func(tx *sql.Tx) error {
		if s.d.migrationLock != "" {
			if _, err := tx.ExecContext(ctx, s.d.migrationLock); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER NOT NULL PRIMARY KEY,
			name       TEXT    NOT NULL,
			applied_at BIGINT  NOT NULL)`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&have); err != nil {
			return err
		}
		if have > len(all) {
			return &SchemaTooNewError{Have: have, Know: len(all)}
		}
		for _, m := range all[have:] {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.ExecContext(ctx, s.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
				m.version, m.name, ms(s.now())); err != nil {
				return fmt.Errorf("record migration %s: %w", m.name, err)
			}
			s.log.InfoContext(ctx, "store migrated", "engine", s.d.name, "version", m.version, "name", m.name)
		}
		return nil
	})
}

// SchemaVersion returns the database's schema version and the newest this
// binary knows.
func (s *Store) SchemaVersion(ctx context.Context) (have, know int, err error) {
	all, err := migrations(migrationFS, s.d.name)
	if err != nil {
		return 0, 0, err
	}
	err = s.conn().QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&have)
	return have, len(all), s.wrap("read schema version", err)
}
