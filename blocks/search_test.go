package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

func sampleSearch() SearchView {
	return SearchView{
		Query: `insurance "renewal" <b>`, Quoted: `“insurance "renewal" <b>”`,
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
		"minutes_search_none":    {Query: "xylophone & <drums>", Quoted: "“xylophone & <drums>”"},
		"minutes_search_hostile": hostileSearch(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := SearchResults(v)
			require.NoError(t, CheckMessage(m))
			assertGolden(t, name, func(l lang.Lang) any { v := v; v.Lang = l; return payload(SearchResults(v)) })
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

	none := string(readableJSON(t, payload(SearchResults(SearchView{Query: "a &amp; b", Quoted: "“a &amp; b”"}))))
	assert.Contains(t, none, "No minutes mention “a ＆amp; b”.", "the query as typed, its entity not read as one")

	phrase := SearchView{Query: `"renewal quotes"`, Quoted: `"renewal quotes"`, Results: sampleSearch().Results[:1]}
	assert.Contains(t, string(readableJSON(t, payload(SearchResults(phrase)))), `Minutes mentioning \"renewal quotes\"`,
		"a phrase in its own quotes, not “\"renewal quotes\"”")
	open := string(readableJSON(t, payload(SearchResults(SearchView{Query: `"unterminated`, Quoted: `"unterminated`}))))
	assert.Contains(t, open, `No minutes mention \"unterminated.`)
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

// hostileSearch is a page of results whose snippets hold what record text
// may: mentions, entities, mrkdwn's style characters, Markdown spelled out.
func hostileSearch() SearchView {
	part := func(text string, match bool) SearchPart { return SearchPart{Text: text, Match: match} }
	return SearchView{
		Query: "budget", Quoted: "“budget”",
		Results: []SearchResult{
			{MeetingID: "H-1", Title: "Finance", Committee: "Finance", Date: day(2026, 3, 5), Snippet: []SearchPart{
				part("# Minutes <!channel> <@U0BOSS> & the ", false), part("budget", true), part(" (**final**, see [the report](https://evil.example/x)).", false)}},
			{MeetingID: "H-2", Title: "Parks", Committee: "Parks", Date: day(2026, 3, 4), Snippet: []SearchPart{
				part("*Note:* the _draft_ ", false), part("budget", true), part("* ~was~ `cut` by 5 * 3 &amp; &lt;b&gt;; file_name.pdf", false)}},
		},
	}
}

// TestSnippetHostile: record text in a snippet reaches Slack escaped once,
// its mentions and links inert, no standard Markdown, and the only style
// marks ours around the matched words.
func TestSnippetHostile(t *testing.T) {
	t.Parallel()
	part := func(text string, match bool) SearchPart { return SearchPart{Text: text, Match: match} }
	for _, tt := range []struct {
		name  string
		parts []SearchPart
		want  string
	}{
		{"a mention", []SearchPart{part("tell <!channel> and <@U1> about the ", false), part("budget", true)},
			"tell &lt;!channel&gt; and &lt;@U1&gt; about the *budget*"},
		{"an ampersand and an entity as written", []SearchPart{part("A & B &amp; C", false), part("x&y", true)},
			"A &amp; B ＆amp; C*x&amp;y*"},
		{"the record's asterisks", []SearchPart{part("*Note:* ", false), part("budget", true), part(" 5 * 3", false)},
			"∗Note:∗ *budget* 5 ∗ 3"},
		{"an asterisk in a match", []SearchPart{part("a*b", true)}, "*a∗b*"},
		{"underscores at word edges, not inside", []SearchPart{part("_draft_ file_name _", false)}, "ˍdraftˍ file_name ˍ"},
		{"tildes and backticks", []SearchPart{part("~struck~ `code`", false)}, "∼struck∼ ˋcodeˋ"},
		{"Markdown bold", []SearchPart{part("**final** ", false), part("budget", true)}, "∗∗final∗∗ *budget*"},
		{"a Markdown heading", []SearchPart{part("# Minutes of the ", false), part("budget", true)}, "\u200b# Minutes of the *budget*"},
		{"a Markdown link", []SearchPart{part("see [the report](https://evil.example/x)", false)}, "see [the report]\u200b(https://evil.example/x)"},
		{"a heading mark inside", []SearchPart{part("item ", false), part("# 4", true)}, "item *# 4*"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Snippet(tt.parts, 600)
			assert.Equal(t, tt.want, got)
			assert.Empty(t, slacktest.StandardMarkdown("> "+got), "no standard Markdown in %q", got)
			assert.NotContains(t, got, "&amp;amp;", "escaped once")
		})
	}
}

func TestSearchModalGolden(t *testing.T) {
	t.Parallel()
	results := sampleSearch()
	for name, v := range map[string]SearchModalView{
		"modal_search_empty":   {},
		"modal_search_results": {Query: results.Query, Results: &results},
		"modal_search_none":    {Query: "xylophone & <drums>", Results: &SearchView{Query: "xylophone & <drums>", Quoted: "“xylophone & <drums>”"}},
		"modal_search_failed":  {Query: "budget", Note: lang.English.T("err.store_down")},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := SearchModal(v)
			require.NoError(t, CheckModal(m))
			assertGolden(t, name, func(l lang.Lang) any {
				v := v
				v.Lang = l
				if v.Note != "" {
					v.Note = l.T("err.store_down") // as the bot writes it, in the reader's language
				}
				return SearchModal(v)
			})
		})
	}
}

func TestSnippetCutsBetweenWords(t *testing.T) {
	t.Parallel()
	parts := []SearchPart{{Text: "the "}, {Text: "budget", Match: true}, {Text: " " + strings.Repeat("renewal ", 100)}}
	got := Snippet(parts, 60)
	assert.LessOrEqual(t, runes(got)-2, 60, "at most 60 characters of text, besides our two marks")
	assert.True(t, strings.HasSuffix(got, "renewal …"), "cut after a whole word: %q", got)
	assert.Equal(t, "the *budget* …", Snippet([]SearchPart{{Text: "the "}, {Text: "budget", Match: true}, {Text: " " + strings.Repeat("x", 80)}}, 20), "a word too long to fit is left out")
	assert.Equal(t, "the …", Snippet([]SearchPart{{Text: "the "}, {Text: strings.Repeat("budget ", 20), Match: true}}, 20), "a match is whole or left out")
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
