// Package golden is the golden-file convention the tests share: what a test
// produced is compared, by meaning, with testdata/<name>.golden.json, and
// `go test -update` in the package rewrites the file first. Block Kit
// goldens are also what tools/slackcheck validates against Slack's own
// definitions, so they are written as a person reads them.
package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// JSON marshals v indented, with <, > and & left readable. slack-go escapes
// them inside its own MarshalJSON, so v makes a round trip through generic
// JSON first.
func JSON(t testing.TB, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var generic any
	require.NoError(t, json.Unmarshal(raw, &generic))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(generic))
	return buf.Bytes()
}

// AssertJSON compares v, marshalled by JSON, with
// testdata/<name>.golden.json by meaning; with update it writes the file
// first. The package's test passes its own -update flag.
func AssertJSON(t testing.TB, name string, v any, update bool) {
	t.Helper()
	got := JSON(t, v)
	path := filepath.Join("testdata", name+".golden.json")
	if update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing; run this package's tests with -update")
	assert.JSONEq(t, string(want), string(got))
}

// AssertText compares got with testdata/<file> byte for byte (a page's
// HTML, where meaning is the text itself); with update it writes the file
// first. file names its own extension: "archive_fr.golden.html".
func AssertText(t testing.TB, file, got string, update bool) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing; run this package's tests with -update")
	assert.Equal(t, string(want), got)
}
