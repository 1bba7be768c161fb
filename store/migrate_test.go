package store

import (
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMigrationFiles(t *testing.T) {
	t.Parallel()
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	fsys := fstest.MapFS{
		"migrations/0001_init.sql":            file("shared 1"),
		"migrations/0002_index.postgres.sql":  file("postgres 2"),
		"migrations/0002_index.sql":           file("shared 2"),
		"migrations/0003_tidy.sqlite.sql":     file("sqlite 3"),
		"migrations/0003_tidy.postgres.sql":   file("postgres 3"),
		"migrations/README.txt":               file("not a migration"),
		"migrations/0002_index.mysql.sql.bak": file("not a migration"),
	}
	names := func(engine string) []string {
		all, err := migrations(fsys, engine)
		require.NoError(t, err)
		var out []string
		for _, m := range all {
			out = append(out, m.sql)
		}
		return out
	}
	assert.Equal(t, []string{"shared 1", "shared 2", "sqlite 3"}, names("sqlite"))
	assert.Equal(t, []string{"shared 1", "postgres 2", "postgres 3"}, names("postgres"), "an engine's own file wins")

	gap := fstest.MapFS{"migrations/0001_init.sql": file("1"), "migrations/0003_x.sql": file("3")}
	_, err := migrations(gap, "sqlite")
	assert.ErrorContains(t, err, "without gaps")
	badName := fstest.MapFS{"migrations/init.sql": file("1")}
	_, err = migrations(badName, "sqlite")
	assert.ErrorContains(t, err, "NNNN_name.sql")

	// The embedded set is well formed for both engines.
	for _, e := range []string{"sqlite", "postgres"} {
		all, err := migrations(migrationFS, e)
		require.NoError(t, err)
		assert.NotEmpty(t, all, e)
	}
}

// Replicas (or serve and a CronJob) starting together on a new SQLite file:
// switching the file to WAL races, and SQLite answers that race with
// SQLITE_BUSY at once, without waiting out the busy timeout. It showed in
// about one start in a hundred with four openers, so this starts eight at a
// time, many times over: without useWAL it failed on two runs in three.
func TestSQLiteNewFileOpenedTogether(t *testing.T) {
	t.Parallel()
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for range rounds {
		url := "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db")
		const replicas = 8
		errs := make([]error, replicas)
		stores := make([]*Store, replicas)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range replicas {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = Open(t.Context(), url)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			require.NoError(t, err, "replica %d", i)
			defer stores[i].Close()
		}
		var mode string
		require.NoError(t, stores[0].conn().QueryRowContext(t.Context(), "PRAGMA journal_mode").Scan(&mode))
		require.Equal(t, "wal", mode, "the file is in WAL mode, so readers and the writer proceed together")
	}
}
