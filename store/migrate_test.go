package store

import (
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
