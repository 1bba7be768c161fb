package apiclient

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateREADME = flag.Bool("update", false, "rewrite README's list of accepted field names from the alias tables")

// The markers around README's list of accepted field names.
const (
	readmeFieldsBegin = "<!-- apiclient fields: begin (go test ./apiclient -run TestREADMEFieldNames -update) -->"
	readmeFieldsEnd   = "<!-- apiclient fields: end -->"
)

// fieldListMarkdown renders the alias tables as README's list: one line per
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

// TestREADMEFieldNames keeps the README's list of accepted names in step
// with the alias tables that the decoder runs on: a name added to a table
// and not to the README (or the reverse) fails here.
func TestREADMEFieldNames(t *testing.T) {
	const path = "../README.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, readmeFieldsBegin)
	end := strings.Index(readme, readmeFieldsEnd)
	require.True(t, start >= 0 && end > start, "README.md has the markers %q and %q", readmeFieldsBegin, readmeFieldsEnd)
	start += len(readmeFieldsBegin) + 1
	want := fieldListMarkdown()
	if *updateREADME {
		require.NoError(t, os.WriteFile(path, []byte(readme[:start]+want+readme[end:]), 0o644))
		return
	}
	got := readme[start:end]
	assert.Equal(t, want, got, "README's accepted field names differ from the alias tables; run go test ./apiclient -run TestREADMEFieldNames -update")
	// Every field a RECORDS_FIELD_MAP may name is listed.
	for _, k := range KnownFields() {
		assert.Contains(t, got, "- `"+k+"`: ", "README lists %s", k)
	}
}
