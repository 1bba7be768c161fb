package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/store/storetest"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	good := []struct {
		url, engine, file, display string
	}{
		{"sqlite:///var/lib/recordsbot/recordsbot.db", "sqlite", "/var/lib/recordsbot/recordsbot.db", ""},
		{"sqlite://recordsbot.db", "sqlite", "recordsbot.db", ""},
		{"sqlite://data/recordsbot.db", "sqlite", "data/recordsbot.db", ""},
		{"  sqlite://recordsbot.db\n", "sqlite", "recordsbot.db", "sqlite://recordsbot.db"},
		{"sqlite::memory:", "sqlite", "", ""},
		{"sqlite://:memory:", "sqlite", "", ""},
		{"postgres://bot:s3cret-pw@db.internal:5432/recordsbot?sslmode=require", "postgres", "", "postgres://bot:xxxxx@db.internal:5432/recordsbot?sslmode=require"},
		{"postgresql://bot@/recordsbot?host=/run/postgresql", "postgres", "", ""},
		{"postgres://bot@db/recordsbot?password=s3cret-pw", "postgres", "", "postgres://bot@db/recordsbot?password=xxxxx"},
	}
	for _, c := range good {
		t.Run(c.url, func(t *testing.T) {
			require.NoError(t, CheckURL(c.url))
			tg, err := parseURL(c.url)
			require.NoError(t, err)
			assert.Equal(t, c.engine, tg.dialect.name)
			if c.file != "" && !filepath.IsAbs(c.file) {
				wd, err := os.Getwd()
				require.NoError(t, err)
				c.file = filepath.Join(wd, c.file)
			}
			assert.Equal(t, c.file, tg.file, "relative paths are taken from the working directory")
			if c.display != "" {
				assert.Equal(t, c.display, tg.display)
			}
		})
	}

	bad := map[string]string{
		"empty":                 "",
		"another engine":        "mysql://bot:s3cret-pw@db/recordsbot",
		"a bare path":           "/var/lib/recordsbot/recordsbot.db",
		"sqlite without path":   "sqlite://",
		"sqlite root":           "sqlite:///",
		"sqlite one colon":      "sqlite:recordsbot.db",
		"sqlite with a query":   "sqlite://recordsbot.db?mode=ro",
		"postgres bad port":     "postgres://bot:s3cret-pw@db:notaport/recordsbot",
		"postgres bad sslmode":  "postgres://bot:s3cret-pw@db/recordsbot?sslmode=sometimes",
		"credentials elsewhere": "redis://bot:s3cret-pw@cache:6379",
		"no scheme":             "//bot:s3cret-pw@db/recordsbot",
		"no slashes":            "bot:s3cret-pw@db/recordsbot",
	}
	for name, u := range bad {
		t.Run(name, func(t *testing.T) {
			err := CheckURL(u)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrBadURL)
			assert.Contains(t, err.Error(), "DATABASE_URL")
			assert.NotContains(t, err.Error(), "s3cret-pw", "the password stays out of the message")
			assert.NotContains(t, err.Error(), "\n")
			_, err = Open(t.Context(), u)
			assert.ErrorIs(t, err, ErrBadURL, "Open refuses it too")
		})
	}
}

// Whatever the input, CheckURL answers with nil or one line naming
// DATABASE_URL that never repeats a password.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"sqlite:///var/lib/recordsbot/recordsbot.db", "sqlite://recordsbot.db", "sqlite::memory:",
		"postgres://bot:pw@db:5432/recordsbot?sslmode=disable", "postgresql://bot@/db?host=/tmp",
		"mysql://a:b@c/d", "", "sqlite://?", "postgres://a:b@[::1:5432/x", "postgres://%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckURL(s)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrBadURL) || !strings.Contains(err.Error(), "DATABASE_URL") {
			t.Fatalf("CheckURL(%q) = %v, want an ErrBadURL naming DATABASE_URL", s, err)
		}
		if strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("CheckURL(%q): message is not one line: %q", s, err)
		}
		if u, perr := url.Parse(strings.TrimSpace(s)); perr == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok && len(pw) >= 4 && strings.Contains(err.Error(), ":"+pw+"@") {
				t.Fatalf("CheckURL(%q) repeats the password: %v", s, err)
			}
		}
	})
}

func TestSQLiteFileCreatedAtItsPath(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state", "recordsbot.db")
	_, err := Open(t.Context(), "sqlite://"+path)
	require.Error(t, err, "the directory does not exist")
	assert.ErrorIs(t, err, ErrUnavailable)
	assert.Contains(t, err.Error(), path)

	require.NoError(t, os.Mkdir(filepath.Dir(path), 0o700))
	s := open(t, "sqlite://"+path)
	assert.Equal(t, "sqlite", s.Engine())
	_, err = os.Stat(path)
	assert.NoError(t, err, "the database file is where the URL says")
}

// A SQLite file removed or replaced under a running bot would swallow every
// later write (into an unlinked inode). Replaced (a backup restored with
// mv): the store reopens the path and the write lands in the file a
// restart reads. Removed: the store is down (Ping says why, every call is
// unavailable) and makes no empty file in its place, until a database is
// put back at the path.
func TestSQLiteFileGone(t *testing.T) {
	t.Parallel()
	for _, replace := range []bool{false, true} {
		name := map[bool]string{false: "removed", true: "replaced"}[replace]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "recordsbot.db")
			s := open(t, "sqlite://"+path)
			_, err := s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "before"})
			require.NoError(t, err)
			require.NoError(t, os.Remove(path))
			_ = os.Remove(path + "-wal")
			_ = os.Remove(path + "-shm")
			putBack := func() {
				other := open(t, "sqlite://"+filepath.Join(t.TempDir(), "other.db"))
				require.NoError(t, other.Close())
				require.NoError(t, os.Rename(filepath.Join(filepath.Dir(other.file), "other.db"), path))
			}
			if !replace {
				err := s.Ping(t.Context())
				require.ErrorIs(t, err, ErrUnavailable)
				assert.Contains(t, err.Error(), "was removed")
				_, err = s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "lost"})
				require.ErrorIs(t, err, ErrUnavailable, "a write while the file is gone")
				_, err = os.Stat(path)
				assert.ErrorIs(t, err, fs.ErrNotExist, "no empty database made in its place")
			}
			putBack()

			_, err = s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "after"})
			require.NoError(t, err, "the write after the file was %s and a database put at its path", name)
			require.NoError(t, s.Ping(t.Context()))

			fresh := open(t, "sqlite://"+path)
			follows, err := fresh.FollowsInChannel(t.Context(), "C1")
			require.NoError(t, err)
			require.Len(t, follows, 1, "the write is in the file at the path")
			assert.Equal(t, "after", follows[0].CommitteeKey)
		})
	}
}

// A PostgreSQL server that is not there: Open fails as unavailable, in
// good time. Needs no server.
func TestPostgresDown(t *testing.T) {
	t.Parallel()
	u := "postgres://recordsbot@/recordsbot?host=" + t.TempDir() + "&sslmode=disable&connect_timeout=2"
	start := time.Now()
	_, err := Open(t.Context(), u)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrUnavailable, "%v", err)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// The database or the schema dropped under a running bot: Ping and every
// method say the store is down.
func TestPostgresGone(t *testing.T) {
	t.Parallel()
	storetest.Skip(t)
	t.Run("schema dropped", func(t *testing.T) {
		t.Parallel()
		u := newPostgresSchema(t)
		s := open(t, u)
		require.NoError(t, s.Ping(t.Context()))
		schema := u[strings.LastIndex(u, "search_path=")+len("search_path="):]
		_, err := s.conn().ExecContext(t.Context(), "DROP SCHEMA "+schema+" CASCADE")
		require.NoError(t, err)
		_, err = s.conn().ExecContext(t.Context(), "CREATE SCHEMA "+schema) // for the cleanup's DROP
		require.NoError(t, err)
		assert.ErrorIs(t, s.Ping(t.Context()), ErrUnavailable)
		_, err = s.Claim(t.Context(), "k", "w", time.Minute)
		assert.ErrorIs(t, err, ErrUnavailable, "%v", err)
	})
	t.Run("database dropped", func(t *testing.T) {
		t.Parallel()
		base := os.Getenv(storetest.PostgresEnv)
		admin, err := sql.Open("pgx", base)
		require.NoError(t, err)
		defer admin.Close()
		db := "recordsbot_gone_test_" + itoa(int(time.Now().UnixNano()%1e9))
		_, err = admin.ExecContext(t.Context(), "CREATE DATABASE "+db)
		require.NoError(t, err)
		t.Cleanup(func() { _, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)") })
		pu, err := url.Parse(base)
		require.NoError(t, err)
		pu.Path = "/" + db
		s := open(t, pu.String())
		require.NoError(t, s.Ping(t.Context()))
		_, err = admin.ExecContext(t.Context(), "DROP DATABASE "+db+" WITH (FORCE)")
		require.NoError(t, err)
		err = s.Ping(t.Context())
		assert.ErrorIs(t, err, ErrUnavailable, "%v", err)
		_, err = s.Follow(t.Context(), Follow{ChannelID: "C1", CommitteeKey: "finance"})
		assert.ErrorIs(t, err, ErrUnavailable, "%v", err)
	})
}
