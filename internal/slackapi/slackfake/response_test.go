package slackfake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResponseURL(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	blocks := []slack.Block{sectionBlock("Marked *done*")}

	_, _, err := api.PostMessageContext(t.Context(), "",
		slack.MsgOptionReplaceOriginal(srv.ResponseURL("cmd-1")),
		slack.MsgOptionText("Marked done", false),
		slack.MsgOptionBlocks(blocks...),
	)
	require.NoError(t, err)
	_, _, err = api.PostMessageContext(t.Context(), "",
		slack.MsgOptionResponseURL(srv.ResponseURL("cmd-2"), slack.ResponseTypeEphemeral),
		slack.MsgOptionText("Only you", false),
	)
	require.NoError(t, err)

	posts := srv.ResponsePosts("cmd-1")
	require.Len(t, posts, 1)
	assert.Equal(t, "cmd-1", posts[0].ID)
	var body struct {
		Text            string          `json:"text"`
		ReplaceOriginal bool            `json:"replace_original"`
		Blocks          json.RawMessage `json:"blocks"`
	}
	require.NoError(t, json.Unmarshal(posts[0].Body, &body))
	assert.Equal(t, "Marked done", body.Text)
	assert.True(t, body.ReplaceOriginal)
	assert.JSONEq(t, mustJSON(t, blocks), string(body.Blocks))

	assert.Len(t, srv.ResponsePosts(""), 2)
	require.Len(t, srv.ResponsePosts("cmd-2"), 1)
	assert.Contains(t, string(srv.ResponsePosts("cmd-2")[0].Body), `"response_type":"ephemeral"`)
	assert.Empty(t, srv.Messages(""), "response_url posts are not channel messages")
	assert.Len(t, srv.Calls(ResponseMethod), 2)
}

func TestResponseURLEscapesID(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)

	_, _, err := api.PostMessageContext(t.Context(), "",
		slack.MsgOptionDeleteOriginal(srv.ResponseURL("T1/a b?")), slack.MsgOptionText("", false))

	require.NoError(t, err)
	require.Len(t, srv.ResponsePosts("T1/a b?"), 1)
	assert.Contains(t, string(srv.ResponsePosts("T1/a b?")[0].Body), `"delete_original":true`)
}

func TestResponseURLRefusesNonJSON(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.ResponseURL("cmd-1"), strings.NewReader("text=hi"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())

	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Empty(t, srv.ResponsePosts(""))
	assert.Len(t, srv.Calls(ResponseMethod), 1)
}
