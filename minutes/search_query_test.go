package minutes

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/store"
)

func TestParseQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, typed string
		want        store.MinutesQuery
	}{
		{"words", "insurance  renewal", store.MinutesQuery{Words: []string{"insurance", "renewal"}}},
		{"phrase", `"insurance renewal" budget`, store.MinutesQuery{Words: []string{"budget"}, Phrases: []string{"insurance renewal"}}},
		{"curly quotes", `“Mill Road”`, store.MinutesQuery{Phrases: []string{"Mill Road"}}},
		{"open quote runs to the end", `budget "parks dept`, store.MinutesQuery{Words: []string{"budget"}, Phrases: []string{"parks dept"}}},
		{"one-word phrase is a word", `"budget"`, store.MinutesQuery{Words: []string{"budget"}}},
		{"committee", "committee:fin budget", store.MinutesQuery{Words: []string{"budget"}, Committee: "fin"}},
		{"committee any case, quoted", `Committee:"parks board" trees`, store.MinutesQuery{Words: []string{"trees"}, Committee: "parks board"}},
		{"committee alone", "committee:Finance", store.MinutesQuery{Committee: "Finance"}},
		{"empty committee is nothing", "committee: budget", store.MinutesQuery{Words: []string{"budget"}}},
		{"syntax is text", `NEAR( budget* co-op OR (x) a:b`, store.MinutesQuery{Words: []string{"NEAR(", "budget*", "co-op", "OR", "(x)", "a:b"}}},
		{"exclusions", `levy -parking -"car park" -`, store.MinutesQuery{Words: []string{"levy"}, Not: []string{"parking", "car park"}}},
		{"exclusion of punctuation is nothing", `levy -* -""`, store.MinutesQuery{Words: []string{"levy"}}},
		{"punctuation alone is dropped", `* - ( ) "" ":"`, store.MinutesQuery{}},
		{"empty", "   ", store.MinutesQuery{}},
		{"unicode", "élèves 日本語", store.MinutesQuery{Words: []string{"élèves", "日本語"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, ParseQuery(c.typed), "ParseQuery(%q)", c.typed)
		})
	}
}

// FuzzParseQuery: whatever is typed, the parsed query searches a real
// FTS5 index without error, and its terms are text that was typed.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`"open`, `NEAR(a b`, `committee:"x`, `committee:`, `*`, `-x`, `a:b`, `OR AND NOT`, "\x00\xff", `((((`, `""""`, `“a ”b„`} {
		f.Add(s)
	}
	s, err := store.Open(f.Context(), "sqlite::memory:")
	require.NoError(f, err)
	f.Cleanup(func() { _ = s.Close() })
	require.NoError(f, s.IndexMinutes(f.Context(), store.MinutesDoc{MeetingID: "m1", Title: "Finance", Committee: "Finance", Body: "The budget was approved."}))
	f.Fuzz(func(t *testing.T, typed string) {
		q := ParseQuery(typed)
		for _, w := range append(append(append([]string{}, q.Words...), q.Phrases...), q.Not...) {
			if w == "" || (utf8.ValidString(typed) && !utf8.ValidString(w)) {
				t.Fatalf("ParseQuery(%q): term %q", typed, w)
			}
		}
		if _, err := s.SearchMinutes(t.Context(), q, 0, 5); err != nil {
			t.Fatalf("search %q (%+v): %v", typed, q, err)
		}
	})
}

func TestQuoteQuery(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ typed, want string }{
		"words":              {"insurance renewal", "“insurance renewal”"},
		"one phrase":         {`"renewal quotes"`, `"renewal quotes"`},
		"phrase left open":   {`"unterminated`, `"unterminated`},
		"phrase and words":   {`"renewal" quotes`, `“"renewal" quotes”`},
		"not escaped":        {"a & <b>", "“a & <b>”"},
		"spaces around kept": {` "renewal quotes" `, `"renewal quotes"`},
	} {
		assert.Equal(t, c.want, QuoteQuery(c.typed), name)
	}
}
