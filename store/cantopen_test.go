package store

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A SQLite file that cannot be created is one line an admin can act on:
// the file, what stands in the way and the uid the process runs as, not
// SQLite's "unable to open database file (14)". Tests run as root, whom
// permission bits do not stop, so the cases the file system can show here
// are a missing directory, a file where a directory should be and a
// directory where the file should be; the wording for a directory this
// uid cannot write is checked on the message itself below.
func TestSQLiteCannotOpenSaysWhy(t *testing.T) {
	t.Parallel()
	uid := "uid " + strconv.Itoa(os.Getuid())
	tmp := t.TempDir()
	blocker := filepath.Join(tmp, "blocker")
	require.NoError(t, os.WriteFile(blocker, []byte("not a directory"), 0o600))
	dirAsFile := filepath.Join(tmp, "dir.db")
	require.NoError(t, os.Mkdir(dirAsFile, 0o700))

	for _, tt := range []struct {
		name, path, want string
	}{
		{
			name: "missing directory",
			path: filepath.Join(tmp, "var", "lib", "recordsbot", "recordsbot.db"),
			want: "cannot create or open " + filepath.Join(tmp, "var", "lib", "recordsbot", "recordsbot.db") +
				": directory " + filepath.Join(tmp, "var", "lib", "recordsbot") + " does not exist (create it, writable by " + uid + ")",
		},
		{
			name: "a file where the directory should be",
			path: filepath.Join(blocker, "recordsbot.db"),
			want: "cannot create or open " + filepath.Join(blocker, "recordsbot.db") + ": " + blocker + " is a file, not a directory",
		},
		{
			name: "a directory where the file should be",
			path: dirAsFile,
			want: "cannot create or open " + dirAsFile + ": " + dirAsFile + " is a directory; name a file in it",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Open(t.Context(), "sqlite://"+tt.path)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			assert.ErrorIs(t, err, ErrUnavailable, "the store is unavailable, as every SQLITE_CANTOPEN is")
		})
	}
}

func TestCantOpenMessage(t *testing.T) {
	t.Parallel()
	const path = "/var/lib/recordsbot/recordsbot.db"
	for _, tt := range []struct {
		reason cantOpenReason
		at     string
		want   string
	}{
		{reasonDirReadOnly, "/var/lib/recordsbot",
			"cannot create or open /var/lib/recordsbot/recordsbot.db: directory /var/lib/recordsbot is not writable by uid 65532"},
		{reasonFileReadOnly, path,
			"cannot create or open /var/lib/recordsbot/recordsbot.db: file /var/lib/recordsbot/recordsbot.db is not writable by uid 65532"},
		{reasonNoDirectory, "/var/lib/recordsbot",
			"cannot create or open /var/lib/recordsbot/recordsbot.db: directory /var/lib/recordsbot does not exist (create it, writable by uid 65532)"},
		{reasonUnknown, "/var/lib/recordsbot",
			"cannot create or open /var/lib/recordsbot/recordsbot.db: SQLite could not open it as uid 65532 (unable to open database file)"},
	} {
		assert.Equal(t, tt.want, cantOpenMessage(path, tt.at, 65532, tt.reason))
	}
}
