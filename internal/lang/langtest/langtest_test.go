package langtest

import (
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
)

func words(es []Escape) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Word)
	}
	return out
}

// Catalogue text in the pseudo-language and Slack's syntax pass; an English
// literal beside them does not, unless it is known record text.
func TestText(t *testing.T) {
	t.Parallel()
	known := Words("Finance Committee", "A-101")
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"catalogue", lang.Pseudo.F("row.due", "date", "<!date^1^{date_short_pretty}|"+lang.Pseudo.Date(time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC))+">"), []string{}},
		{"an escaped literal", lang.Pseudo.T("row.overdue") + " Due soon", []string{"Due", "soon"}},
		{"record text", lang.Pseudo.F("announce.header", "title", "Finance Committee"), []string{}},
		{"a link's label is read", "<https://x.example/a|the minutes> <@U0ALICE> <#C1|general>", []string{"the", "minutes"}},
		{"emoji, entities, urls, code", ":white_check_mark: &amp; https://x.example/path?q=word `/actions overdue` sam@example.org A-101", []string{}},
		{"a zone is not a word", "15:04 UTC", []string{}},
		{"a record word with accents is one word", "Prüfung", []string{"Prüfung"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, words(Text("x", tt.in, known)))
		})
	}
}

func TestBlockKitReadsWhatPeopleRead(t *testing.T) {
	t.Parallel()
	msg := map[string]any{
		"text": "Fallback words",
		"blocks": []slack.Block{
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, lang.Pseudo.T("row.overdue")+" Overdue", false, false), nil, nil),
			slack.NewActionBlock("block_id_words", slack.NewButtonBlockElement("action_id_words", "value words", slack.NewTextBlockObject(slack.PlainTextType, "Start", false, false))),
		},
		"metadata": slack.SlackMetadata{EventType: "event_words"},
	}
	got, err := BlockKit(msg, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Fallback", "words", "Overdue", "Start"}, words(got))
}

func TestHTML(t *testing.T) {
	t.Parallel()
	page := `<!doctype html><html lang="en-XA"><head><title>` + lang.Pseudo.T("minutes.untitled") + ` Archive</title>
<style>body{color:red}</style><script>var words = 1</script></head>
<body><nav aria-label="Pages"><a href="/minutes?page=2">` + lang.Pseudo.T("meetings.next") + `</a></nav>
<img alt="Logo" src="x.png"><p>Finance Committee</p><pre>Record text</pre></body></html>`
	got, err := HTML(page, Words("Finance Committee"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Archive", "Pages", "Logo"}, words(got))
}
