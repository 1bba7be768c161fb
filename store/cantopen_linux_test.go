package store

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The case the issue was filed for: a database directory owned by root (a
// fresh Docker volume) and a process running as uid 65532 (the image's
// user). Root passes permission bits, so as root the test runs this test
// binary again as uid 65532; as anyone else it opens the database itself.
func TestSQLiteDirectoryNotWritable(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv("RECORDSBOT_TEST_CANTOPEN_DIR"); dir != "" {
		// The re-run: report what Open says.
		_, err := Open(t.Context(), "sqlite://"+filepath.Join(dir, "recordsbot.db"))
		require.Error(t, err)
		_, _ = io.WriteString(os.Stdout, "\nOPEN ERROR: "+err.Error()+"\n")
		return
	}

	// World-readable throughout, so another uid can reach both the
	// directory and the copy of this test binary.
	base, err := os.MkdirTemp("", "recordsbot-cantopen-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	dir := filepath.Join(base, "var-lib-recordsbot")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "recordsbot.db")

	if os.Getuid() != 0 {
		require.NoError(t, os.Chmod(dir, 0o555))
		_, err := Open(t.Context(), "sqlite://"+path)
		require.Error(t, err)
		assert.Equal(t, "cannot create or open "+path+": directory "+dir+" is not writable by uid "+strconv.Itoa(os.Getuid()), err.Error())
		return
	}

	self, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(base, "store.test")
	copyFile(t, self, bin)
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^TestSQLiteDirectoryNotWritable$", "-test.count=1")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), "RECORDSBOT_TEST_CANTOPEN_DIR="+dir, "HOME="+base, "TMPDIR="+base)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65532, Gid: 65532}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "\nOPEN ERROR: cannot create or open "+path+": directory "+dir+" is not writable by uid 65532\n")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o755))
}
