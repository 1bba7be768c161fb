package slackfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

// users.list pages with limit and cursor, carries tz and the profile email,
// and ends with an empty next_cursor, as Slack's does.
func TestUsersListPaging(t *testing.T) {
	t.Parallel()
	var users []User
	for i := range 5 {
		users = append(users, User{ID: fmt.Sprintf("U%d", i), Name: fmt.Sprint(i), Email: fmt.Sprintf("u%d@example.org", i), TZ: "Pacific/Auckland"})
	}
	srv, api := newTestServer(t, WithUsers(users...))
	p := api.GetUsersPaginated(slack.GetUsersOptionLimit(3))
	var pages [][]string
	for {
		var err error
		p, err = p.Next(t.Context())
		if p.Done(err) {
			break
		}
		require.NoError(t, err)
		var ids []string
		for _, u := range p.Users {
			ids = append(ids, u.ID)
			if strings.HasPrefix(u.ID, "U") && u.ID != DefaultBotUserID && u.ID != "U1" && u.ID != "U2" {
				assert.Equal(t, "Pacific/Auckland", u.TZ)
				assert.Equal(t, "u"+u.ID[1:]+"@example.org", u.Profile.Email)
			}
		}
		pages = append(pages, ids)
	}
	// alice (U1) and bob (U2) are replaced by the numbered users with
	// their IDs; the bot is a member too.
	assert.Equal(t, [][]string{{"U0", "U0BOT", "U1"}, {"U2", "U3", "U4"}}, pages)
	calls := srv.Calls("users.list")
	require.Len(t, calls, 2)
	assert.Empty(t, calls[0].Params.Get("cursor"))
	assert.NotEmpty(t, calls[1].Params.Get("cursor"))

	_, err := api.GetUsersPaginated(slack.GetUsersOptionCursor("bm9wZQ==")).Next(t.Context())
	slackclienttest.RequireSlackError(t, err, "invalid_cursor")
}

// A post to a user ID lands in the bot's DM with them, and the answer names
// the DM.
func TestPostToUserIDLandsInTheDM(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	ch, _, err := api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText("hi", false))
	require.NoError(t, err)
	assert.Equal(t, "DU1", ch)
	assert.Len(t, srv.Messages("DU1"), 1)
}

// Metadata that breaks Slack's schema is dropped with a warning; valid
// metadata, arrays of objects included, is kept.
func TestMetadataSchema(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	tests := []struct {
		name     string
		metadata string
		kept     bool
	}{
		{"strings, numbers, booleans", `{"event_type":"action_reminder","event_payload":{"key":"k","n":3,"ok":true}}`, true},
		{"objects and arrays of objects", `{"event_type":"a-b_c","event_payload":{"o":{"x":"y"},"list":[{"id":"A-1"},{"id":"A-2"}]}}`, true},
		{"array of strings", `{"event_type":"action_reminder","event_payload":{"action_ids":["A-1","A-2"]}}`, false},
		{"null value", `{"event_type":"action_reminder","event_payload":{"x":null}}`, false},
		{"a period in the event type", `{"event_type":"action.reminder","event_payload":{}}`, false},
	}
	for i, tc := range tests {
		body := postForm(t, srv, "chat.postMessage", url.Values{"channel": {"U1"}, "text": {fmt.Sprint(i)}, "metadata": {tc.metadata}})
		var answer struct {
			OK               bool   `json:"ok"`
			Warning          string `json:"warning"`
			ResponseMetadata struct {
				Warnings []string `json:"warnings"`
			} `json:"response_metadata"`
		}
		require.NoError(t, json.Unmarshal(body, &answer), tc.name)
		assert.True(t, answer.OK, tc.name)
		msgs := srv.Messages("DU1")
		stored := msgs[len(msgs)-1]
		if tc.kept {
			assert.Empty(t, answer.Warning, tc.name)
			assert.JSONEq(t, tc.metadata, string(stored.Metadata), tc.name)
		} else {
			assert.Equal(t, InvalidMetadataSchema, answer.Warning, tc.name)
			assert.Equal(t, []string{InvalidMetadataSchema}, answer.ResponseMetadata.Warnings, tc.name)
			assert.Empty(t, stored.Metadata, tc.name)
		}
	}
}

// WithScopes refuses a call the token lacks a scope for, naming what was
// needed and what was granted; history keeps its metadata only with
// metadata.message:read.
func TestScopes(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t, WithScopes("chat:write", "im:history"))
	_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "e", EventPayload: map[string]any{"k": "v"}}))
	require.NoError(t, err)

	body := postForm(t, srv, "conversations.history", url.Values{"channel": {"C1"}})
	assert.JSONEq(t, `{"ok":false,"error":"missing_scope","needed":"channels:history","provided":"chat:write,im:history"}`, string(body))
	body = postForm(t, srv, "conversations.history", url.Values{"channel": {"G1"}})
	assert.Contains(t, string(body), `"needed":"groups:history"`)

	_, _, err = api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText("hi", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "e", EventPayload: map[string]any{"k": "v"}}))
	require.NoError(t, err)
	h, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "DU1", IncludeAllMetadata: true})
	require.NoError(t, err, "im:history is granted")
	require.Len(t, h.Messages, 1)
	assert.Empty(t, h.Messages[0].Metadata.EventType, "no metadata without metadata.message:read")

	_, err = api.GetUsersContext(t.Context())
	slackclienttest.RequireSlackError(t, err, "missing_scope")
}

// postForm calls method with form arguments and returns the raw answer.
func postForm(t *testing.T, srv *Server, method string, args url.Values) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.APIURL()+method, strings.NewReader(args.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return body
}

// FuzzMetadataSchema: whatever metadata a post carries, the message is
// either refused as malformed or stored with metadata that meets the
// schema, or with none and the warning.
func FuzzMetadataSchema(f *testing.F) {
	f.Add(`{"event_type":"a","event_payload":{"ids":["x"]}}`)
	f.Add(`{"event_type":"a","event_payload":{"o":[{"k":1}],"b":true}}`)
	f.Add(`{"event_type":"a.b","event_payload":{}}`)
	f.Fuzz(func(t *testing.T, metadata string) {
		m := Message{}
		ws := newWorkspace()
		warning, err := ws.applyContent(&m, url.Values{"metadata": {metadata}})
		switch {
		case err != nil:
			assert.Empty(t, m.Metadata)
		case warning != "":
			assert.Equal(t, InvalidMetadataSchema, warning)
			assert.Empty(t, m.Metadata)
		case m.Metadata != nil:
			assert.True(t, validMetadata(m.Metadata), "stored metadata meets the schema")
		}
	})
}

// users.conversations with types=im lists the bot's DMs, paged, each with
// its user; it needs im:read.
func TestUsersConversationsListsDMs(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	_, _, err := api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText("hi", false))
	require.NoError(t, err)
	_, _, _, err = api.OpenConversationContext(t.Context(), &slack.OpenConversationParameters{Users: []string{"U2"}})
	require.NoError(t, err)
	chans, cursor, err := api.GetConversationsForUserContext(t.Context(), &slack.GetConversationsForUserParameters{Types: []string{"im"}, Limit: 1})
	require.NoError(t, err)
	require.Len(t, chans, 1)
	assert.Equal(t, "DU1", chans[0].ID)
	assert.Equal(t, "U1", chans[0].User)
	require.NotEmpty(t, cursor)
	chans, cursor, err = api.GetConversationsForUserContext(t.Context(), &slack.GetConversationsForUserParameters{Types: []string{"im"}, Limit: 1, Cursor: cursor})
	require.NoError(t, err)
	require.Len(t, chans, 1)
	assert.Equal(t, "U2", chans[0].User)
	assert.Empty(t, cursor)
	assert.Len(t, srv.Calls("users.conversations"), 2)

	_, scoped := newTestServer(t, WithScopes("chat:write"))
	_, _, err = scoped.GetConversationsForUserContext(t.Context(), &slack.GetConversationsForUserParameters{Types: []string{"im"}})
	slackclienttest.RequireSlackError(t, err, "missing_scope")
}
