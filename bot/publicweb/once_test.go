package publicweb_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules of this package are made nowhere else: no other non-test Go
// file negotiates a reader's language, writes a max-age, sends bytes
// through http.ServeContent (which answers Range and says Accept-Ranges)
// or writes the headers every public answer carries.
func TestPublicHTTPRulesAreMadeOnce(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	own, err := filepath.Abs(".")
	require.NoError(t, err)
	restated := []string{"lang.Negotiate(", "http.ServeContent(", "max-age=", `"X-Content-Type-Options", "`, `"Referrer-Policy", "`}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || path == own) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range restated {
			assert.NotContains(t, string(b), s, "%s: ask bot/publicweb", strings.TrimPrefix(path, root+"/"))
		}
		return nil
	})
	require.NoError(t, err)
}
