package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every action ID blocks gives a control is answered by a click route
// (clickRoutes, or a prefix of clickPrefixes), and every route answers an
// ID blocks gives: the routes are the one list, and a control added to
// blocks without its route, or a route left behind, fails here.
func TestEveryActionIDHasOneRoute(t *testing.T) {
	t.Parallel()
	// Inputs of modals, read from view submissions, not clicks.
	inputs := map[string]bool{"ActionSearchQuery": true, "ActionTopicWords": true}
	ids := blocksActionIDs(t)
	require.NotEmpty(t, ids)
	given := map[string]bool{}
	for name, id := range ids {
		given[id] = true
		if inputs[name] || strings.HasSuffix(name, "Prefix") {
			continue
		}
		_, prefixed := prefixRoute(id)
		assert.True(t, prefixed || clickRoutes[id] != nil, "blocks.%s (%q) has no click route", name, id)
	}
	for id := range clickRoutes {
		assert.True(t, given[id], "clickRoutes answers %q, which no blocks control has", id)
	}
	for _, p := range clickPrefixes {
		assert.True(t, given[p.prefix], "clickPrefixes answers %q, which is no blocks prefix", p.prefix)
	}
}

// blocksActionIDs are package blocks' Action… string constants, by name.
func blocksActionIDs(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "blocks", "*.go"))
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Action") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, err := strconv.Unquote(lit.Value)
						require.NoError(t, err)
						out[n.Name] = v
					}
				}
			}
		}
	}
	return out
}
