// Package storetest gives tests a database of their own on each engine: a
// SQLite file in t.TempDir(), or a schema on the PostgreSQL server
// RECORDSBOT_TEST_POSTGRES names, dropped when the test ends (.ci/test
// starts a throw-away server for a local run on both engines, as .ci/run
// does in CI). Without the variable the PostgreSQL half is skipped, and
// the first skip of a `go test` run says so on the terminal (see notice).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// PostgresEnv names the variable holding the test server's URL.
const PostgresEnv = "RECORDSBOT_TEST_POSTGRES"

// SkipMessage is what a PostgreSQL test says when it cannot run.
const SkipMessage = "PostgreSQL tests need " + PostgresEnv + "=postgres://…; .ci/test runs the tests on both engines with a throw-away server"

// Engine gives a test a fresh database of its own that several Stores may
// open at once.
type Engine struct {
	Name string
	// NewURL returns the DATABASE_URL of the database, removed when the
	// test ends; the PostgreSQL engine skips the test without a server.
	NewURL func(t testing.TB) string
}

// Engines are the store's two engines: SQLite (a file) and PostgreSQL.
var Engines = []Engine{
	{"sqlite", func(t testing.TB) string { return "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db") }},
	{"postgres", PostgresURL},
}

// EachEngine runs f as a parallel subtest per engine.
func EachEngine(t *testing.T, f func(t *testing.T, e Engine)) {
	for _, e := range Engines {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			f(t, e)
		})
	}
}

// Skip skips t when no PostgreSQL server is configured.
func Skip(t testing.TB) {
	t.Helper()
	if os.Getenv(PostgresEnv) == "" {
		notice()
		t.Skip(SkipMessage)
	}
}

// notice says, once per `go test` run, that the PostgreSQL half of the
// store tests is skipped. go test shows a passing package's output only
// with -v, so a skip alone goes unseen: the line goes to the terminal
// (/dev/tty) when there is one, and to stderr for -v and failures. "Once"
// is per go command: every test binary of a run is its child, so the
// parent's process ID names the run.
func notice() {
	msg := "note: " + SkipMessage + "; SQLite only in this run\n"
	mark := filepath.Join(os.TempDir(), fmt.Sprintf("recordsbot-postgres-notice-%d", os.Getppid()))
	f, err := os.OpenFile(mark, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return
	}
	if err == nil {
		_ = f.Close()
	}
	fmt.Fprint(os.Stderr, msg)
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		fmt.Fprint(tty, msg)
		_ = tty.Close()
	}
}

// PostgresURL returns a DATABASE_URL for a fresh schema of the test's own
// (its search_path), dropped at the end, or skips the test when no server
// is configured.
func PostgresURL(t testing.TB) string {
	t.Helper()
	Skip(t)
	base := os.Getenv(PostgresEnv)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresEnv, err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create a schema on the test server: %v", err)
	}
	t.Cleanup(func() { _, _ = admin.ExecContext(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE") })
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
