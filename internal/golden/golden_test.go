package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Goldens are written as a person reads them: slack-go's own escaping of
// <, > and & is undone, and the file is indented.
func TestJSONIsReadable(t *testing.T) {
	b := slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "a &amp; <b>", false, false), nil, nil)
	got := string(JSON(t, b))
	assert.Contains(t, got, `"text": "a &amp; <b>"`)
	assert.NotContains(t, got, `\u003c`)
}

// -update writes the file; without it, the file is compared by meaning.
func TestAssertJSONWritesThenCompares(t *testing.T) {
	t.Chdir(t.TempDir())
	AssertJSON(t, "x", map[string]any{"a": 1, "b": []int{2}}, true)
	raw, err := os.ReadFile(filepath.Join("testdata", "x.golden.json"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"b":[2],"a":1}`, string(raw))
	AssertJSON(t, "x", map[string]any{"b": []int{2}, "a": 1}, false)
}
