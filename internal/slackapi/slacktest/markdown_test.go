package slacktest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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

// What a user is shown without a Web API call is checked too: the ack of
// a slash command and a post to its response_url.
func TestMarkdownInAckAndResponseURLIsNoted(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"text": "[the report](https://example.org/r)"}`)
	}))
	t.Cleanup(app.Close)
	send := &Sender{URL: app.URL, Secret: "s", Slack: srv}
	_, err := send.SlashCommand(t.Context(), Command{User: alice, Command: "/minutes"})
	require.NoError(t, err)
	resp, err := http.Post(srv.ResponseURL("r1"), "application/json", strings.NewReader(`{"text": "**Present:** Alice"}`))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode)

	got := srv.MarkdownInMrkdwn()
	require.Len(t, got, 2, "%q", got)
	assert.Contains(t, got[0], "ack: text: a [text](url) link")
	assert.Contains(t, got[1], ResponseMethod+": text: **bold**")
}
