package apiclient

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateDoc = flag.Bool("update", false, "rewrite docs/records-client.md's list of accepted field names from the alias tables")

// The markers around docs/records-client.md's list of accepted field names.
const (
	docFieldsBegin = "<!-- apiclient fields: begin (go test ./apiclient -run TestDocFieldNames -update) -->"
	docFieldsEnd   = "<!-- apiclient fields: end -->"
)

// fieldListMarkdown renders the alias tables as the doc's list: one line per
// field, its accepted names in priority order.
func fieldListMarkdown() string {
	var b strings.Builder
	for _, ft := range fieldTables() {
		for _, f := range ft.fields {
			b.WriteString("- `" + ft.record + "." + f.name + "`: ")
			for i, a := range f.aliases {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("`" + a + "`")
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestDocFieldNames keeps docs/records-client.md's list of accepted names
// in step with the alias tables that the decoder runs on: a name added to a
// table and not to the doc (or the reverse) fails here.
func TestDocFieldNames(t *testing.T) {
	const path = "../docs/records-client.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	start := strings.Index(doc, docFieldsBegin)
	end := strings.Index(doc, docFieldsEnd)
	require.True(t, start >= 0 && end > start, "%s has the markers %q and %q", path, docFieldsBegin, docFieldsEnd)
	start += len(docFieldsBegin) + 1
	want := fieldListMarkdown()
	if *updateDoc {
		require.NoError(t, os.WriteFile(path, []byte(doc[:start]+want+doc[end:]), 0o644))
		return
	}
	got := doc[start:end]
	assert.Equal(t, want, got, "%s's accepted field names differ from the alias tables; run go test ./apiclient -run TestDocFieldNames -update", path)
	// Every field a RECORDS_FIELD_MAP may name is listed.
	for _, k := range KnownFields() {
		assert.Contains(t, got, "- `"+k+"`: ", "%s lists %s", path, k)
	}
}
