package slacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each tier's budget is enforced with its burst, answered 429 with
// Retry-After beyond it, refilled by the Server's clock, and reported.
func TestTiersEnforcedAndProjected(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv, api := newTestServer(t, WithTiers(), WithClock(clock.Now))

	// users.list is Tier 2: 20 a minute, a burst of 3.
	for i := range 3 {
		_, err := api.GetUsersContext(t.Context(), slack.GetUsersOptionLimit(999))
		require.NoError(t, err, "call %d within the burst", i)
	}
	p := api.GetUsersPaginated()
	_, err := p.Next(t.Context())
	var rl *slack.RateLimitedError
	require.ErrorAs(t, err, &rl, "the fourth at once is over the budget")
	assert.Equal(t, 3*time.Second, rl.RetryAfter, "one call's worth of a Tier 2 minute")

	clock.Advance(3 * time.Second)
	_, err = p.Next(t.Context())
	require.NoError(t, err, "the budget refills by the clock")

	// chat.postMessage: one a second per channel after a short burst, with
	// a post to a user ID counted against their DM.
	for i := range 3 {
		_, _, err := api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText(fmt.Sprint(i), false))
		require.NoError(t, err)
	}
	_, _, err = api.PostMessageContext(t.Context(), "DU1", slack.MsgOptionText("again", false))
	require.ErrorAs(t, err, &rl, "the DM is the same channel as the user ID")
	_, _, err = api.PostMessageContext(t.Context(), "U2", slack.MsgOptionText("other", false))
	require.NoError(t, err, "another channel has its own allowance")

	r := srv.TierReport()
	assert.Equal(t, map[string]int{"users.list": 4, "chat.postMessage": 4}, r.Calls)
	assert.Equal(t, map[string]int{"users.list": 1, "chat.postMessage": 1}, r.Limited)
	assert.Equal(t, "users.list", r.Bottleneck)
	assert.Equal(t, 12*time.Second, r.Projected, "4 calls at 20 a minute")
	assert.Equal(t, 800*time.Millisecond, r.PostFloor, "4 posts at 300 a minute")
	assert.Equal(t, 2*time.Second, r.ChannelSpacing, "three posts to one DM: two seconds apart at least")
}

// The workspace-wide ceiling on chat.postMessage binds across channels.
func TestTiersPostCeiling(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var users []User
	for i := range 20 {
		users = append(users, User{ID: fmt.Sprintf("U%02d", i)})
	}
	srv, api := newTestServer(t, WithUsers(users...), WithPostCeiling(60), WithClock(clock.Now))
	ok := 0
	for _, u := range users {
		if _, _, err := api.PostMessageContext(t.Context(), u.ID, slack.MsgOptionText("hi", false)); err == nil {
			ok++
		}
	}
	assert.Equal(t, 10, ok, "the burst of ten, then one a second at 60 a minute")
	assert.Equal(t, 10, srv.TierReport().Limited["chat.postMessage"])
}

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
	requireSlackError(t, err, "invalid_cursor")
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
	requireSlackError(t, err, "missing_scope")
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
	requireSlackError(t, err, "missing_scope")
}
