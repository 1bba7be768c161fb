package blocks

import (
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/topics"
)

func TestTopicMatchGolden(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	assertGolden(t, "topic_minutes", func(l lang.Lang) any {
		return payload(TopicMatchMessage(TopicMatch{Lang: l, Query: `"library levy" <b>`, Committee: "Finance & Audit", Meeting: "Finance, March *extra*",
			Date: day, DateHasTime: true, Minutes: true, Draft: true,
			Snippet:    []SearchPart{{Text: "… the "}, {Text: "library", Match: true}, {Text: " "}, {Text: "levies", Match: true}, {Text: " were set <here> …"}},
			MinutesURL: "https://records-bot.example.org/minutes/mtg_1"}))
	})
	assertGolden(t, "topic_agenda", func(l lang.Lang) any {
		return payload(TopicMatchMessage(TopicMatch{Lang: l, Query: "levy", Committee: "Finance", Meeting: "Finance, June", Date: day,
			Items:       []TopicItem{{Number: "4", Title: "Library levy: the 2027 rate"}, {Title: "Levies & <reserves>"}},
			CalendarURL: "https://records-bot.example.org/calendar/meeting/mtg_2.ics"}))
	})
	assertGolden(t, "topic_list", func(l lang.Lang) any {
		return payload(TopicListMessage(TopicList{Lang: l, Channel: true, Watches: []TopicWatch{{ID: "tabc", Query: "library levy"}, {ID: "tdef", Query: `"school transport" -parking`}}}))
	})
	assertGolden(t, "modal_topic", func(l lang.Lang) any { return TopicModal(l) })
}

// A watch's words are quoted as each language quotes, as the answers that
// name them are ("« levy »" in French).
func TestTopicListQuotesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]string{"en": "“levy”", "fr": "« levy »", "de": "„levy“", "es": "«levy»"} {
		l, err := lang.Parse(code)
		require.NoError(t, err)
		m := TopicListMessage(TopicList{Lang: l, Watches: []TopicWatch{{ID: "tabc", Query: "levy"}}})
		sec, ok := m.Blocks[1].(*slack.SectionBlock)
		require.True(t, ok, code)
		assert.Equal(t, want, sec.Text.Text, code)
	}
}

func TestTopicStopValue(t *testing.T) {
	t.Parallel()
	for channel, value := range map[bool]func(string) string{true: ChannelTopicStopValue, false: TopicStopValue} {
		id, ch, ok := ParseTopicStopValue(value("tabc"))
		assert.True(t, ok)
		assert.Equal(t, "tabc", id)
		assert.Equal(t, channel, ch)
	}
	for _, bad := range []string{"", "tabc", "x:tabc", "c:", "u"} {
		_, _, ok := ParseTopicStopValue(bad)
		assert.False(t, ok, bad)
	}
}

func TestMinutesEditGolden(t *testing.T) {
	t.Parallel()
	assertGolden(t, "edited_minutes", func(l lang.Lang) any {
		return payload(MinutesEditMessage(MinutesEdit{Lang: l, Title: "Finance, levy", Committee: "Finance & Audit", Changes: 2,
			Paragraphs: [][]ChangeRun{{{Text: "The levy is set at"}, {Removed: true, Text: "4%"}, {Added: true, Text: "5% <b>"}, {Text: "for next year."}}},
			URL:        "https://records-bot.example.org/minutes/mtg_v?changes=3-4", Admin: true}))
	})
}

// The topic modal keeps Slack's modal limits in every language (a long
// translation of its title is cut, not refused by views.open), and its
// input takes no more words than the topic domain accepts.
func TestTopicModalKeepsItsLimits(t *testing.T) {
	t.Parallel()
	for _, l := range append(lang.Shipped(), lang.Pseudo) {
		m := TopicModal(l)
		require.NoError(t, CheckModal(m), l.Code())
		in, ok := m.Blocks.BlockSet[0].(*slack.InputBlock)
		require.True(t, ok, "the modal's first block is its input")
		words, ok := in.Element.(*slack.PlainTextInputBlockElement)
		require.True(t, ok)
		assert.Equal(t, topics.MaxQueryRunes, words.MaxLength, "the input's limit is the domain's")
	}
}
