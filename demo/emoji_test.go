package demo

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmojiKnowsEveryShortcodeTheBotSends: a shortcode the bot writes that
// the console does not know is shown as typed (":red_circle:" in a digest),
// where Slack shows the emoji. The string literals of the packages whose
// messages the demo shows are the list to keep up with.
func TestEmojiKnowsEveryShortcodeTheBotSends(t *testing.T) {
	t.Parallel()
	shortcode := regexp.MustCompile(`:([a-z0-9_+-]+):`)
	seen := map[string]string{}
	for _, dir := range []string{"../blocks", "../bot", "../watch", "../remind", "../actions", "../minutes", "../internal/lang"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(gotoken.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != gotoken.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || strings.Contains(s, "sqlite") { // sqlite::memory: is no emoji
					return true
				}
				for _, m := range shortcode.FindAllStringSubmatch(s, -1) {
					seen[m[1]] = path
				}
				return true
			})
			return nil
		})
		require.NoError(t, err)
	}
	require.NotEmpty(t, seen)
	for name, path := range seen {
		assert.Contains(t, emoji, name, "%s sends :%s:, which the console would show as typed", path, name)
	}
}
