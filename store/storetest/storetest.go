// Package storetest gives tests a PostgreSQL database of their own: a
// schema on the server RECORDSBOT_TEST_POSTGRES names (.ci/run starts a
// throw-away one), dropped when the test ends. Without the variable the
// test is skipped with one line saying how to run it. SQLite needs no
// help: a file in t.TempDir() is a database of the test's own.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// PostgresEnv names the variable holding the test server's URL.
const PostgresEnv = "RECORDSBOT_TEST_POSTGRES"

// SkipMessage is what a PostgreSQL test says when it cannot run.
const SkipMessage = "PostgreSQL tests need " + PostgresEnv + "=postgres://…; .ci/run starts a throw-away server and sets it"

// PostgresURL returns a DATABASE_URL for a fresh schema of the test's own
// (its search_path), dropped at the end, or skips the test when no server
// is configured.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skip(SkipMessage)
	}
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
