package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleSearch() SearchView {
	return SearchView{
		Query: `insurance "renewal" <b>`,
		Results: []SearchResult{
			{MeetingID: "M-7", Title: "Finance Committee, March", Committee: "Finance", Date: time.Date(2026, 2, 26, 18, 0, 0, 0, time.UTC), DateHasTime: true,
				URL:     "https://records.example.org/minutes/M-7",
				Snippet: []SearchPart{{Text: "… the "}, {Text: "insurance", Match: true}, {Text: " "}, {Text: "renewal", Match: true}, {Text: " was deferred (A&B <Ltd>) …"}}},
			{MeetingID: "M-9", Title: "Parks Board", Committee: "Parks", Date: day(2026, 2, 12), Draft: true,
				Snippet: []SearchPart{{Text: "The *broker* attended; "}, {Text: "Insurance", Match: true}, {Text: " renewal next month."}}},
		},
		More: true,
	}
}

func TestSearchResultsGolden(t *testing.T) {
	t.Parallel()
	more := sampleSearch()
	more.Offset, more.More = 5, false
	for name, v := range map[string]SearchView{
		"minutes_search_results": sampleSearch(),
		"minutes_search_more":    more,
		"minutes_search_none":    {Query: "xylophone & <drums>"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := SearchResults(v)
			require.NoError(t, CheckMessage(m))
			assertGolden(t, name, payload(m))
		})
	}
}

func TestSearchResultsSayWhatTheyShow(t *testing.T) {
	t.Parallel()
	text := string(readableJSON(t, payload(SearchResults(sampleSearch()))))
	assert.Contains(t, text, "> … the *insurance* *renewal* was deferred (A&amp;B &lt;Ltd&gt;) …", "escaped once, matches bold")
	assert.Contains(t, text, `"value": "2|insurance \"renewal\" <b>"`, "More carries the next offset and the query")
	assert.Contains(t, text, "Share in channel")
	assert.Contains(t, text, `"url": "https://records.example.org/minutes/M-7"`)
	assert.Contains(t, text, ":warning: *Draft*")

	none := string(readableJSON(t, payload(SearchResults(SearchView{Query: "a &amp; b"}))))
	assert.Contains(t, none, "No minutes mention “a ＆amp; b”.", "the query as typed, its entity not read as one")
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "the *budget* &amp; *cuts*", Snippet([]SearchPart{{Text: "the "}, {Text: "budget", Match: true}, {Text: " & "}, {Text: "cuts", Match: true}}, 100))
	assert.Equal(t, "a *b* c", Snippet([]SearchPart{{Text: "a"}, {Text: " b ", Match: true}, {Text: "c"}}, 100), "spaces outside the marks")
	assert.Equal(t, "line one line two", Snippet([]SearchPart{{Text: "line one\nline two"}}, 100))
	long := Snippet([]SearchPart{{Text: strings.Repeat("word ", 200)}}, 100)
	assert.LessOrEqual(t, runes(long), 100)
	for _, p := range []string{"x", "budget", "a&b"} {
		for _, s := range []string{Snippet([]SearchPart{{Text: p, Match: true}}, 100)} {
			assert.NotContains(t, s, "&amp;amp;", "escaped once")
		}
	}
}

func TestSearchModalGolden(t *testing.T) {
	t.Parallel()
	results := sampleSearch()
	for name, v := range map[string]SearchModalView{
		"modal_search_empty":   {},
		"modal_search_results": {Query: results.Query, Results: &results},
		"modal_search_none":    {Query: "xylophone & <drums>", Results: &SearchView{Query: "xylophone & <drums>"}},
		"modal_search_failed":  {Query: "budget", Note: ":warning: I can't reach my database right now. Please try again in a few minutes."},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := SearchModal(v)
			require.NoError(t, CheckModal(m))
			assertGolden(t, name, m)
		})
	}
}

func TestSearchModalSaysWhatItShows(t *testing.T) {
	t.Parallel()
	results := sampleSearch()
	text := string(readableJSON(t, SearchModal(SearchModalView{Query: results.Query, Results: &results})))
	assert.Contains(t, text, `"block_id": "search:query"`, "the input keeps its block ID, so Slack keeps what was typed")
	assert.Contains(t, text, `"initial_value": "insurance \"renewal\" <b>"`)
	assert.Contains(t, text, "> … the *insurance* *renewal* was deferred (A&amp;B &lt;Ltd&gt;) …", "escaped once, matches bold")
	assert.Contains(t, text, `"url": "https://records.example.org/minutes/M-7"`)
	assert.Contains(t, text, `"value": "2|insurance \"renewal\" <b>"`, "More carries the next offset and the query")
	assert.NotContains(t, text, "Share in channel", "a modal from the Home tab is in no channel")
	assert.Contains(t, text, "run `/minutes search` there")
}

func TestCheckModal(t *testing.T) {
	t.Parallel()
	ok := SearchModal(SearchModalView{})
	require.NoError(t, CheckModal(ok))
	long := ok
	long.Title = plain("Search the minutes of every committee")
	assert.ErrorContains(t, CheckModal(long), "view.title")
	noSubmit := ok
	noSubmit.Submit = nil
	assert.ErrorContains(t, CheckModal(noSubmit), "view.submit: missing", "an input needs a submit button")
	home := ok
	home.Type = "home"
	assert.ErrorContains(t, CheckModal(home), "want \"modal\"")
}
