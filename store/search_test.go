package store

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/store/storetest"
)

func searchCases() []conformanceCase {
	return []conformanceCase{
		{"search: stemming", false, testSearchStemming},
		{"search: relevance and snippets", false, testSearchRelevance},
		{"search: phrases", false, testSearchPhrases},
		{"search: committee prefix", false, testSearchCommittee},
		{"search: removal and replacement", false, testSearchRemoval},
		{"search: pages", false, testSearchPages},
		{"search: snippets deep in long minutes", false, testSearchLongSnippets},
		{"search: hostile queries", false, testSearchHostile},
		{"search: blocks kept apart in snippets", false, testSearchSnippetSeparator},
	}
}

// searchDocs are minutes of a small town, dated a week apart.
func searchDocs() []MinutesDoc {
	day := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	docs := []MinutesDoc{
		{MeetingID: "m1", Title: "Finance Committee, March", Committee: "Finance Committee", Body: "The committee reviewed the budget for the coming year. The insurance renewal was deferred to April."},
		{MeetingID: "m2", Title: "Finance Committee, April", Committee: "Finance Committee", Body: "Present: Ana, Ben.\n\nThe insurance renewal was approved at 4% above last year. Budgets of the parks department noted."},
		{MeetingID: "m3", Title: "Parks Board, April", Committee: "Parks Board", Body: "Renewal of the playground contract. The insurance broker attended. Trees along Mill Road were discussed."},
		{MeetingID: "m4", Title: "Budget Workshop", Committee: "Finance Committee", Body: "A workshop on the budget: budget lines, budget risks, budgeting for the library.", Draft: true},
		{MeetingID: "m5", Title: "Library Trustees", Committee: "Library Trustees", Body: "Opening hours extended on Saturdays. Café des élèves reopens."},
	}
	for i := range docs {
		docs[i].Date = day.AddDate(0, 0, 7*i)
		docs[i].DateHasTime = true
		docs[i].URL = "https://records.example.org/minutes/" + docs[i].MeetingID
	}
	return docs
}

func indexAll(t *testing.T, s *Store, docs []MinutesDoc) {
	t.Helper()
	for _, d := range docs {
		require.NoError(t, s.IndexMinutes(t.Context(), d), "index %s", d.MeetingID)
	}
}

func search(t *testing.T, s *Store, q MinutesQuery) []string {
	t.Helper()
	page, err := s.SearchMinutes(t.Context(), q, 0, 50)
	require.NoError(t, err, "search %+v", q)
	return hitIDs(page.Hits)
}

func hitIDs(hits []MinutesHit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.MeetingID)
	}
	return out
}

// marked is the snippet with its matched words in [brackets].
func marked(parts []SnippetPart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Match {
			b.WriteString("[" + p.Text + "]")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func testSearchStemming(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	assert.ElementsMatch(t, []string{"m1", "m2", "m4"}, search(t, s, MinutesQuery{Words: []string{"budgets"}}), "budgets finds budget and budgets")
	assert.ElementsMatch(t, []string{"m1", "m2", "m4"}, search(t, s, MinutesQuery{Words: []string{"Budget"}}), "letter case is ignored")
	assert.ElementsMatch(t, []string{"m1", "m2", "m3"}, search(t, s, MinutesQuery{Words: []string{"renewals", "insurance"}}), "all words must occur")
	assert.Empty(t, search(t, s, MinutesQuery{Words: []string{"budget", "playground"}}), "no minutes hold both")
	assert.Empty(t, search(t, s, MinutesQuery{Words: []string{"xylophone"}}))
	assert.Empty(t, search(t, s, MinutesQuery{}), "an empty query finds nothing")
}

func testSearchRelevance(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	page, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"budget"}}, 0, 10)
	require.NoError(t, err)
	require.NotEmpty(t, page.Hits)
	// The workshop has the word in its title and four times in its body.
	first := page.Hits[0]
	assert.Equal(t, "m4", first.MeetingID, "best match first; got %v", hitIDs(page.Hits))
	assert.Equal(t, "Budget Workshop", first.Title)
	assert.Equal(t, "Finance Committee", first.Committee)
	assert.True(t, first.Draft)
	assert.True(t, first.DateHasTime)
	assert.Equal(t, searchDocs()[3].Date, first.Date)
	assert.Equal(t, "https://records.example.org/minutes/m4", first.URL)
	snip := marked(first.Snippet)
	assert.Contains(t, strings.ToLower(snip), "[budget]", "matched words marked: %q", snip)
	assert.Contains(t, snip, "workshop on the", "the snippet is the text around the match: %q", snip)

	page, err = s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"trees"}}, 0, 10)
	require.NoError(t, err)
	require.Len(t, page.Hits, 1)
	snip = marked(page.Hits[0].Snippet)
	assert.Contains(t, snip, "[Trees] along Mill Road", "stemmed match marked as written: %q", snip)
	assert.NotContains(t, snip, "\n")

	page, err = s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"eleves"}}, 0, 10)
	require.NoError(t, err)
	if e.name != "postgres" {
		// unicode61 folds diacritics; PostgreSQL's english config keeps
		// them (unaccent is an extension the store does not require).
		require.Len(t, page.Hits, 1)
		assert.Contains(t, marked(page.Hits[0].Snippet), "[élèves]")
	}
}

func testSearchPhrases(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	assert.ElementsMatch(t, []string{"m1", "m2"}, search(t, s, MinutesQuery{Phrases: []string{"insurance renewal"}}), "the words in that order")
	assert.ElementsMatch(t, []string{"m1", "m2", "m3"}, search(t, s, MinutesQuery{Words: []string{"insurance", "renewal"}}), "the words anywhere")
	assert.ElementsMatch(t, []string{"m3"}, search(t, s, MinutesQuery{Phrases: []string{"Mill Road"}, Words: []string{"trees"}}))
	assert.Empty(t, search(t, s, MinutesQuery{Phrases: []string{"renewal insurance"}}))
}

func testSearchCommittee(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	assert.ElementsMatch(t, []string{"m1", "m2"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Committee: "fin"}), "a prefix, any case")
	assert.ElementsMatch(t, []string{"m3"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Committee: "  PARKS board "}))
	assert.Empty(t, search(t, s, MinutesQuery{Words: []string{"insurance"}, Committee: "library"}))
	assert.Empty(t, search(t, s, MinutesQuery{Words: []string{"insurance"}, Committee: "%"}), "no LIKE wildcards")
	assert.Equal(t, []string{"m4", "m2", "m1"}, search(t, s, MinutesQuery{Committee: "Finance"}), "a committee alone lists its minutes newest first")

	page, err := s.SearchMinutes(t.Context(), MinutesQuery{Committee: "library"}, 0, 5)
	require.NoError(t, err)
	require.Len(t, page.Hits, 1)
	assert.Equal(t, "Opening hours extended on Saturdays. Café des élèves reopens.", marked(page.Hits[0].Snippet), "the start of the minutes, nothing marked")
}

func testSearchRemoval(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	docs := searchDocs()
	indexAll(t, s, docs)

	st, err := s.MinutesIndexStats(t.Context())
	require.NoError(t, err)
	assert.Equal(t, len(docs), st.Docs)
	got, err := s.IndexedMinutes(t.Context(), []string{"m1", "m4", "nope"})
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"m1": false, "m4": true}, got, "indexed, with the draft flag")

	removed, err := s.RemoveMinutes(t.Context(), "m3")
	require.NoError(t, err)
	assert.True(t, removed)
	assert.ElementsMatch(t, []string{"m1", "m2"}, search(t, s, MinutesQuery{Words: []string{"insurance"}}), "removed minutes are not found")
	removed, err = s.RemoveMinutes(t.Context(), "m3")
	require.NoError(t, err)
	assert.False(t, removed, "removing twice is no error")

	// Indexing again replaces: the old words go, the new ones are found.
	d := docs[0]
	d.Body = "The harbour dredging contract was signed."
	d.Draft = true
	require.NoError(t, s.IndexMinutes(t.Context(), d))
	assert.ElementsMatch(t, []string{"m2"}, search(t, s, MinutesQuery{Words: []string{"insurance"}}))
	assert.Equal(t, []string{"m1"}, search(t, s, MinutesQuery{Words: []string{"dredging"}}))
	st, err = s.MinutesIndexStats(t.Context())
	require.NoError(t, err)
	assert.Equal(t, len(docs)-1, st.Docs, "replaced, not added")

	err = s.IndexMinutes(t.Context(), MinutesDoc{MeetingID: " "})
	assert.ErrorIs(t, err, ErrInvalid)
}

func testSearchPages(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	day := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	for i := range 7 {
		require.NoError(t, s.IndexMinutes(t.Context(), MinutesDoc{
			MeetingID: fmt.Sprintf("p%d", i), Title: "Planning", Committee: "Planning",
			Date: day.AddDate(0, 0, i), Body: "The zoning map was discussed.",
		}))
	}
	var all []string
	for offset := 0; ; offset += 3 {
		page, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"zoning"}}, offset, 3)
		require.NoError(t, err)
		all = append(all, hitIDs(page.Hits)...)
		if !page.More {
			assert.Len(t, page.Hits, 1, "the last page")
			break
		}
		assert.Len(t, page.Hits, 3)
	}
	// Equal relevance: newest first, every result once.
	assert.Equal(t, []string{"p6", "p5", "p4", "p3", "p2", "p1", "p0"}, all)
}

// hostileTerms are things people type that are query syntax in one
// engine or the other.
var hostileTerms = []string{
	`"`, `""`, `"open quote`, `NEAR(`, `NEAR(a b, 2)`, `*`, `budget*`, `-budget`, `a:b`, `title:budget`,
	`OR`, `AND`, `NOT`, `(`, `)`, `()`, `^budget`, `{title body}: x`, `+`, `'`, `''`, `\`, `!`, `&`, `|`, `<->`,
	`!budget`, `budget:*`, `a & b | !c`, `a<2>b`, "\x00", "bud\x00get", "\xff\xfe", "\x02budget\x03", `%`, `_`,
	`;DROP TABLE search_minutes;--`, `🙂`, `日本語`, `é`, strings.Repeat("budget ", 300), strings.Repeat("(", 1000),
}

func testSearchHostile(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	for _, term := range hostileTerms {
		for _, q := range []MinutesQuery{{Words: []string{term}}, {Phrases: []string{term}}, {Words: []string{"budget", term}}, {Committee: term}, {Words: []string{term}, Committee: term}} {
			_, err := s.SearchMinutes(t.Context(), q, 0, 5)
			require.NoError(t, err, "query %+v", q)
		}
	}
	// Syntax is matched as the words in it.
	assert.ElementsMatch(t, []string{"m1", "m2", "m4"}, search(t, s, MinutesQuery{Words: []string{"budget*"}}))
	assert.ElementsMatch(t, []string{"m1", "m2", "m4"}, search(t, s, MinutesQuery{Words: []string{"-budget"}}), "- is not NOT")
	assert.ElementsMatch(t, []string{"m1", "m2", "m4"}, search(t, s, MinutesQuery{Words: []string{"\x02budget\x03"}}))
	// Text with the snippet marks in it is stored without them.
	require.NoError(t, s.IndexMinutes(t.Context(), MinutesDoc{MeetingID: "x", Title: "X", Committee: "X", Body: "zebra \x02crossing\x03 \x00 here"}))
	page, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"zebra"}}, 0, 5)
	require.NoError(t, err)
	require.Len(t, page.Hits, 1)
	assert.Equal(t, "[zebra] crossing here", marked(page.Hits[0].Snippet))
}

// FuzzSearchMinutes: whatever the terms, a search on a real FTS5 table
// (and on PostgreSQL when RECORDSBOT_TEST_POSTGRES is set) succeeds.
func FuzzSearchMinutes(f *testing.F) {
	for _, term := range hostileTerms {
		f.Add(term, term, "fin")
	}
	f.Add("budget", "insurance renewal", "")
	urls := []string{"sqlite::memory:"}
	if os.Getenv(storetest.PostgresEnv) != "" {
		urls = append(urls, newPostgresSchema(f))
	}
	var stores []*Store
	for _, u := range urls {
		s, err := Open(f.Context(), u)
		require.NoError(f, err)
		f.Cleanup(func() { _ = s.Close() })
		for _, d := range searchDocs() {
			require.NoError(f, s.IndexMinutes(f.Context(), d))
		}
		stores = append(stores, s)
	}
	f.Fuzz(func(t *testing.T, word, phrase, committee string) {
		for _, s := range stores {
			_, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: strings.Fields(word), Phrases: []string{phrase}, Committee: committee}, 0, 5)
			if err != nil {
				t.Fatalf("%s: search %q %q %q: %v", s.Engine(), word, phrase, committee, err)
			}
		}
	})
}

// testSearchLongSnippets: the snippet is around the match wherever it is
// in the text, in a document near the 256 kB the index keeps, on both
// engines: PostgreSQL cuts a window around the first place a searched
// word occurs, or, when neither the stem nor the word as typed is in the
// text ("studi" and "studies" for a text saying "study"), reads the whole
// text.
func testSearchLongSnippets(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	filler := strings.Repeat("The committee noted the report of the previous meeting. ", 3000)
	indexAll(t, s, []MinutesDoc{
		{MeetingID: "deep", Title: "Planning", Committee: "Planning", Date: time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC),
			Body: filler + "The Quinquennial review was adopted. " + filler},
		{MeetingID: "stem", Title: "Transport", Committee: "Transport", Date: time.Date(2026, 1, 6, 0, 0, 0, 0, time.UTC),
			Body: strings.Repeat("The committee noted the report. ", 40) + "A parking study of Mill Road was commissioned."},
	})
	for _, c := range []struct {
		id, typed, marked string
	}{
		{"deep", "quinquennial", "Quinquennial"},
		{"stem", "studies", "study"},
	} {
		page, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{c.typed}}, 0, 5)
		require.NoError(t, err)
		require.Equal(t, []string{c.id}, hitIDs(page.Hits), c.typed)
		var marked []string
		text := ""
		for _, p := range page.Hits[0].Snippet {
			text += p.Text
			if p.Match {
				marked = append(marked, p.Text)
			}
		}
		assert.Contains(t, marked, c.marked, "%s: the match marked in %q", c.typed, text)
		assert.Less(t, len(text), 1000, "%s: a snippet, not the text", c.typed)
	}
}

// testSearchSnippetSeparator: a snippet spanning two blocks keeps a
// separator between them (body.BlockSeparator), so a heading or a line
// such as "Present: Ana, Ben." does not run into the next paragraph.
func testSearchSnippetSeparator(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	page, err := s.SearchMinutes(t.Context(), MinutesQuery{Words: []string{"ben"}}, 0, 10)
	require.NoError(t, err)
	var snip string
	for _, h := range page.Hits {
		if h.MeetingID == "m2" {
			snip = marked(h.Snippet)
		}
	}
	assert.Contains(t, snip, "[Ben]. · The insurance", "the paragraph break kept as a separator: %q", snip)

	page, err = s.SearchMinutes(t.Context(), MinutesQuery{Committee: "finance"}, 0, 10)
	require.NoError(t, err)
	for _, h := range page.Hits {
		if h.MeetingID == "m2" {
			assert.True(t, strings.HasPrefix(marked(h.Snippet), "Present: Ana, Ben. · The insurance"), "a committee's list shows each body's start, blocks apart: %q", marked(h.Snippet))
		}
	}
}
