package slackfake

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStandardMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		flagged    bool
	}{
		{"heading", "# Finance Committee", true},
		{"second-level heading after a line", "Minutes\n## 1. Welcome", true},
		{"quoted heading", "&gt; ## Draft", true},
		{"double-asterisk bold", "**Present:** A. Jones", true},
		{"Markdown link", "see [the report](https://example.org/r)", true},
		{"quote escaped twice", "&amp;gt; Draft minutes", true},
		{"mrkdwn bold", "*Present:* A. Jones", false},
		{"mrkdwn link", "<https://example.org/r|the report>", false},
		{"mrkdwn quote", "> Draft minutes\n&gt; too", false},
		{"hash inside a line", "item #3 and C# code", false},
		{"channel-like hashtag", "#general", false},
		{"Markdown in code", "`**not bold**` and ```\n# not a heading\n```", false},
		{"brackets without a URL", "[sic] (see below)", false},
		{"lone double asterisks", "2 ** 8 = 256", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := StandardMarkdown(tt.text)
			if tt.flagged {
				assert.NotEmpty(t, got, "StandardMarkdown(%q)", tt.text)
			} else {
				assert.Empty(t, got, "StandardMarkdown(%q)", tt.text)
			}
		})
	}
}

// The fake notes standard Markdown in what an app posts (text, blocks,
// attachments), not in plain_text or in a message sent with mrkdwn off.
func TestMarkdownInMrkdwnIsNoted(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	_, _, err := api.PostMessageContext(t.Context(), "C1",
		slack.MsgOptionText("**Minutes**", false),
		slack.MsgOptionBlocks(
			slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, "# plain text is shown as written", false, false)),
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "# Finance", false, false), nil, nil)),
	)
	require.NoError(t, err)
	got := srv.MarkdownInMrkdwn()
	require.Len(t, got, 2)
	assert.Contains(t, got[0], "chat.postMessage: text: **bold**")
	assert.Contains(t, got[1], "a # heading line")
}
