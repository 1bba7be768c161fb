package slackfake

import (
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

func TestAuthTest(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opts     []Option
		wantUser string
	}{
		"default bot user": {wantUser: DefaultBotUserID},
		"custom bot user":  {opts: []Option{WithBotUser("U0CUSTOM")}, wantUser: "U0CUSTOM"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, api := newTestServer(t, tt.opts...)

			got, err := api.AuthTestContext(t.Context())

			require.NoError(t, err)
			assert.Equal(t, tt.wantUser, got.UserID)
			assert.Equal(t, TeamID, got.TeamID)
			assert.Equal(t, BotID, got.BotID)
			assert.Equal(t, "recordsbot", got.User)
			assert.NotEmpty(t, got.URL)
		})
	}
}

func TestUsersInfo(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t)

	got, err := api.GetUserInfoContext(t.Context(), "U1")
	require.NoError(t, err)
	assert.Equal(t, "U1", got.ID)
	assert.Equal(t, "alice", got.Name)
	assert.Equal(t, "Alice Martin", got.RealName)
	assert.Equal(t, "Europe/Paris", got.TZ)
	assert.Equal(t, "alice@example.com", got.Profile.Email)
	assert.Equal(t, "Alice Martin", got.Profile.RealName)
	assert.Equal(t, "alice", got.Profile.DisplayName)
	assert.False(t, got.IsBot)

	bot, err := api.GetUserInfoContext(t.Context(), DefaultBotUserID)
	require.NoError(t, err, "the bot user is in the workspace without being added")
	assert.True(t, bot.IsBot)

	_, err = api.GetUserInfoContext(t.Context(), "U404")
	slackclienttest.RequireSlackError(t, err, "user_not_found")
}

// TestUsersInfoGuests holds the fake to Slack's user object: both guest
// flags on every user, is_restricted alone for a multi-channel guest, both
// for a single-channel one (https://api.slack.com/types/user).
func TestUsersInfoGuests(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	srv.AddUser(User{ID: "U0MULTI", Name: "multi", Guest: MultiChannelGuest})
	srv.AddUser(User{ID: "U0SINGLE", Name: "single", Guest: SingleChannelGuest})
	tests := map[string]struct {
		id                          string
		restricted, ultraRestricted bool
	}{
		"full member":          {id: "U1"},
		"multi-channel guest":  {id: "U0MULTI", restricted: true},
		"single-channel guest": {id: "U0SINGLE", restricted: true, ultraRestricted: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			status, got := rawCall(t, srv, http.MethodGet, "users.info?user="+tt.id, "", "")
			require.Equal(t, http.StatusOK, status)
			u := got["user"].(map[string]any)
			assert.Equal(t, tt.restricted, u["is_restricted"], "is_restricted")
			assert.Equal(t, tt.ultraRestricted, u["is_ultra_restricted"], "is_ultra_restricted")
		})
	}
}

func TestAddUser(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	_, err := api.GetUserInfoContext(t.Context(), "U3")
	slackclienttest.RequireSlackError(t, err, "user_not_found")

	srv.AddUser(User{ID: "U3", Name: "carol", Email: "carol@example.com"})

	got, err := api.GetUserInfoContext(t.Context(), "U3")
	require.NoError(t, err)
	assert.Equal(t, "carol", got.Name)
}

func TestUsersLookupByEmail(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t)
	tests := map[string]struct {
		email  string
		wantID string
		want   string // error code; "" for success
	}{
		"exact":          {email: "bob@example.com", wantID: "U2"},
		"different case": {email: "Alice@EXAMPLE.com", wantID: "U1"},
		"unknown":        {email: "nobody@example.com", want: "users_not_found"},
		"empty":          {email: "", want: "users_not_found"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := api.GetUserByEmailContext(t.Context(), tt.email)
			if tt.want != "" {
				slackclienttest.RequireSlackError(t, err, tt.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantID, got.ID)
		})
	}
}

func TestOpenConversation(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t)
	params := &slack.OpenConversationParameters{Users: []string{"U1"}}

	ch, noOp, alreadyOpen, err := api.OpenConversationContext(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "DU1", ch.ID)
	assert.True(t, ch.IsIM)
	assert.False(t, noOp)
	assert.False(t, alreadyOpen)

	ch, _, alreadyOpen, err = api.OpenConversationContext(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "DU1", ch.ID, "the DM keeps its ID")
	assert.True(t, alreadyOpen)

	_, _, _, err = api.OpenConversationContext(t.Context(), &slack.OpenConversationParameters{Users: []string{"U404"}})
	slackclienttest.RequireSlackError(t, err, "user_not_found")
}

func TestPostMessageRoundTrip(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	srv, api := newTestServer(t, WithClock(clock.Now))
	blocks := []slack.Block{sectionBlock("*Send the budget* due Friday")}
	metadata := slack.SlackMetadata{
		EventType:    "action_reminder",
		EventPayload: map[string]any{"action_id": "A-17"},
	}

	channel, ts, msg, err := api.PostMessageWithResponseContext(t.Context(), "C1",
		slack.MsgOptionText("Send the budget due Friday", false),
		slack.MsgOptionBlocks(blocks...),
		slack.MsgOptionMetadata(metadata),
	)

	require.NoError(t, err)
	assert.Equal(t, "C1", channel)
	assert.Equal(t, "1700000000.000100", ts, "timestamps come from the clock")
	assert.Equal(t, ts, msg.Timestamp)
	assert.Equal(t, DefaultBotUserID, msg.User)
	assert.Equal(t, "Send the budget due Friday", msg.Text)
	require.Len(t, msg.Blocks.BlockSet, 1)

	stored := srv.Messages("C1")
	require.Len(t, stored, 1)
	assert.Equal(t, ts, stored[0].TS)
	assert.Equal(t, DefaultBotUserID, stored[0].User)
	// Slack gives a block without a block_id one of its own.
	assert.JSONEq(t, `[{"type":"section","block_id":"g1","text":{"type":"mrkdwn","text":"*Send the budget* due Friday"}}]`, string(stored[0].Blocks))
	assert.JSONEq(t, `{"event_type":"action_reminder","event_payload":{"action_id":"A-17"}}`, string(stored[0].Metadata))
	assert.False(t, stored[0].Edited)
	assert.False(t, stored[0].Ephemeral)

	t.Run("history with metadata", func(t *testing.T) {
		t.Parallel()
		hist, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{
			ChannelID: "C1", IncludeAllMetadata: true,
		})
		require.NoError(t, err)
		require.Len(t, hist.Messages, 1)
		got := hist.Messages[0]
		assert.Equal(t, ts, got.Timestamp)
		assert.Equal(t, "message", got.Type)
		assert.Equal(t, BotID, got.BotID)
		assert.Equal(t, metadata.EventType, got.Metadata.EventType)
		assert.Equal(t, "A-17", got.Metadata.EventPayload["action_id"])
		require.Len(t, got.Blocks.BlockSet, 1)
		section, ok := got.Blocks.BlockSet[0].(*slack.SectionBlock)
		require.Truef(t, ok, "got block %T, want *slack.SectionBlock", got.Blocks.BlockSet[0])
		assert.Equal(t, "*Send the budget* due Friday", section.Text.Text)
		assert.False(t, hist.HasMore)
	})
	t.Run("history without metadata", func(t *testing.T) {
		t.Parallel()
		hist, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C1"})
		require.NoError(t, err)
		require.Len(t, hist.Messages, 1)
		assert.Empty(t, hist.Messages[0].Metadata.EventType, "Slack leaves metadata out unless asked")
	})
	t.Run("history of another channel", func(t *testing.T) {
		t.Parallel()
		hist, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C2"})
		require.NoError(t, err)
		assert.Empty(t, hist.Messages)
	})
}

func TestPostMessageTimestampsIncrease(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	_, api := newTestServer(t, WithClock(clock.Now))
	post := func() string {
		t.Helper()
		_, ts, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false))
		require.NoError(t, err)
		return ts
	}

	var got []string
	got = append(got, post(), post()) // the clock stands still
	clock.Advance(time.Second)
	got = append(got, post())
	clock.Advance(-5 * time.Second) // and now it steps back
	got = append(got, post())

	assert.Equal(t, []string{
		"1700000000.000100",
		"1700000000.000101",
		"1700000001.000100",
		"1700000001.000101",
	}, got)
}

func TestPostMessageErrors(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	srv.SetBotInChannel("C9", false)
	tests := map[string]struct {
		channel string
		opts    []slack.MsgOption
		want    string
	}{
		"empty channel":      {channel: "", opts: []slack.MsgOption{slack.MsgOptionText("hi", false)}, want: "channel_not_found"},
		"unknown user":       {channel: "U404", opts: []slack.MsgOption{slack.MsgOptionText("hi", false)}, want: "channel_not_found"},
		"bot not in channel": {channel: "C9", opts: []slack.MsgOption{slack.MsgOptionText("hi", false)}, want: "not_in_channel"},
		"nothing to show":    {channel: "C1", want: "no_text"},
		"bad thread ts": {
			channel: "C1",
			opts:    []slack.MsgOption{slack.MsgOptionText("hi", false), slack.MsgOptionTS("yesterday")},
			want:    "invalid_thread_ts",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, _, err := api.PostMessageContext(t.Context(), tt.channel, tt.opts...)
			slackclienttest.RequireSlackError(t, err, tt.want)
		})
	}
	t.Cleanup(func() {
		assert.Empty(t, srv.Messages(""), "refused posts store nothing")
	})
}

func TestPostMessageToUserGoesToDM(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)

	channel, _, err := api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText("your actions", false))

	require.NoError(t, err)
	assert.Equal(t, "DU1", channel)
	require.Len(t, srv.Messages("DU1"), 1)
	_, _, alreadyOpen, err := api.OpenConversationContext(t.Context(), &slack.OpenConversationParameters{Users: []string{"U1"}})
	require.NoError(t, err)
	assert.True(t, alreadyOpen, "posting to a user opens the DM")
}

func TestSetBotInChannel(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	history := &slack.GetConversationHistoryParameters{ChannelID: "C2"}

	srv.SetBotInChannel("C2", false)
	_, _, err := api.PostMessageContext(t.Context(), "C2", slack.MsgOptionText("hi", false))
	slackclienttest.RequireSlackError(t, err, "not_in_channel")
	_, err = api.GetConversationHistoryContext(t.Context(), history)
	slackclienttest.RequireSlackError(t, err, "not_in_channel")
	_, err = api.PostEphemeralContext(t.Context(), "C2", "U1", slack.MsgOptionText("hi", false))
	slackclienttest.RequireSlackError(t, err, "not_in_channel")
	_, _, err = api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false))
	require.NoError(t, err, "other channels are unaffected")

	srv.SetBotInChannel("C2", true)
	_, _, err = api.PostMessageContext(t.Context(), "C2", slack.MsgOptionText("hi", false))
	require.NoError(t, err)
	_, err = api.GetConversationHistoryContext(t.Context(), history)
	require.NoError(t, err)
}

func TestConversationsHistory(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t, WithClock(slackclienttest.Clock().Now))
	var ts []string
	for _, text := range []string{"one", "two", "three"} {
		_, stamp, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText(text, false))
		require.NoError(t, err)
		ts = append(ts, stamp)
	}
	// Neither a thread reply nor an ephemeral message is in the history.
	_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("reply", false), slack.MsgOptionTS(ts[0]))
	require.NoError(t, err)
	_, err = api.PostEphemeralContext(t.Context(), "C1", "U1", slack.MsgOptionText("psst", false))
	require.NoError(t, err)
	require.Len(t, srv.Messages("C1"), 5)

	textsOf := func(h *slack.GetConversationHistoryResponse) []string {
		var out []string
		for _, m := range h.Messages {
			out = append(out, m.Text)
		}
		return out
	}
	tests := map[string]struct {
		params      slack.GetConversationHistoryParameters
		want        []string
		wantHasMore bool
	}{
		"newest first": {
			params: slack.GetConversationHistoryParameters{},
			want:   []string{"three", "two", "one"},
		},
		"limit": {
			params:      slack.GetConversationHistoryParameters{Limit: 2},
			want:        []string{"three", "two"},
			wantHasMore: true,
		},
		"between oldest and latest": {
			params: slack.GetConversationHistoryParameters{Oldest: ts[0], Latest: ts[2]},
			want:   []string{"two"},
		},
		"inclusive bounds": {
			params: slack.GetConversationHistoryParameters{Oldest: ts[0], Latest: ts[2], Inclusive: true},
			want:   []string{"three", "two", "one"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tt.params.ChannelID = "C1"
			got, err := api.GetConversationHistoryContext(t.Context(), &tt.params)
			require.NoError(t, err)
			assert.Equal(t, tt.want, textsOf(got))
			assert.Equal(t, tt.wantHasMore, got.HasMore)
		})
	}

	t.Run("pages with the cursor", func(t *testing.T) {
		t.Parallel()
		first, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C1", Limit: 2})
		require.NoError(t, err)
		require.NotEmpty(t, first.ResponseMetaData.NextCursor)

		second, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{
			ChannelID: "C1", Limit: 2, Cursor: first.ResponseMetaData.NextCursor,
		})

		require.NoError(t, err)
		assert.Equal(t, []string{"one"}, textsOf(second))
		assert.False(t, second.HasMore)
		assert.Empty(t, second.ResponseMetaData.NextCursor)
	})
	t.Run("bad cursor", func(t *testing.T) {
		t.Parallel()
		_, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C1", Cursor: "nope"})
		slackclienttest.RequireSlackError(t, err, "invalid_cursor")
	})
}

func TestUpdateMessage(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	_, ts, err := api.PostMessageContext(t.Context(), "C1",
		slack.MsgOptionText("Action open", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "action", EventPayload: map[string]any{"id": "A-1"}}),
	)
	require.NoError(t, err)
	_, _, err = api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("later", false))
	require.NoError(t, err)
	newBlocks := []slack.Block{sectionBlock("~Action open~ done")}

	channel, gotTS, text, err := api.UpdateMessageContext(t.Context(), "C1", ts,
		slack.MsgOptionText("Action done", false),
		slack.MsgOptionBlocks(newBlocks...),
	)

	require.NoError(t, err)
	assert.Equal(t, "C1", channel)
	assert.Equal(t, ts, gotTS)
	assert.Equal(t, "Action done", text)
	stored := srv.Messages("C1")
	require.Len(t, stored, 2, "the update changes the message in place")
	assert.Equal(t, ts, stored[0].TS)
	assert.Equal(t, "Action done", stored[0].Text)
	assert.True(t, stored[0].Edited)
	assert.Contains(t, string(stored[0].Blocks), "~Action open~ done")
	assert.Contains(t, string(stored[0].Blocks), `"block_id":"g`, "Slack names a block sent without an ID")
	assert.JSONEq(t, `{"event_type":"action","event_payload":{"id":"A-1"}}`, string(stored[0].Metadata),
		"what the update does not send is kept")
	assert.False(t, stored[1].Edited)

	hist, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C1"})
	require.NoError(t, err)
	require.Len(t, hist.Messages, 2)
	assert.Equal(t, "Action done", hist.Messages[1].Text)
	require.NotNil(t, hist.Messages[1].Edited)
	assert.Equal(t, DefaultBotUserID, hist.Messages[1].Edited.User)

	_, _, _, err = api.UpdateMessageContext(t.Context(), "C1", "1.000001", slack.MsgOptionText("x", false))
	slackclienttest.RequireSlackError(t, err, "message_not_found")
	_, _, _, err = api.UpdateMessageContext(t.Context(), "C2", ts, slack.MsgOptionText("x", false))
	slackclienttest.RequireSlackError(t, err, "message_not_found")
}

func TestPostEphemeral(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)

	ts, err := api.PostEphemeralContext(t.Context(), "C1", "U1", slack.MsgOptionText("Only you can see this", false))

	require.NoError(t, err)
	assert.NotEmpty(t, ts)
	assert.Equal(t, []Message{{
		Channel:   "C1",
		TS:        ts,
		Text:      "Only you can see this",
		User:      DefaultBotUserID,
		Ephemeral: true,
		ForUser:   "U1",
	}}, srv.Messages("C1"))
	hist, err := api.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: "C1"})
	require.NoError(t, err)
	assert.Empty(t, hist.Messages, "ephemeral messages are not in the history")
	_, _, _, err = api.UpdateMessageContext(t.Context(), "C1", ts, slack.MsgOptionText("x", false))
	slackclienttest.RequireSlackError(t, err, "message_not_found")

	_, err = api.PostEphemeralContext(t.Context(), "C1", "U404", slack.MsgOptionText("hi", false))
	slackclienttest.RequireSlackError(t, err, "user_not_in_channel")
}

func TestUnfurl(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	unfurls := map[string]slack.Attachment{
		"https://records.example/actions/17": {Title: "Send the budget", Text: "Due Friday"},
	}

	_, _, _, err := api.UnfurlMessageContext(t.Context(), "C1", "1700000000.000100", unfurls)

	require.NoError(t, err)
	got := srv.Unfurls()
	require.Len(t, got, 1)
	assert.Equal(t, "C1", got[0].Channel)
	assert.Equal(t, "1700000000.000100", got[0].TS)
	assert.JSONEq(t, mustJSON(t, unfurls), string(got[0].Unfurls))

	_, _, _, err = api.UnfurlMessageContext(t.Context(), "", "1700000000.000100", unfurls)
	slackclienttest.RequireSlackError(t, err, "channel_not_found")
	assert.Len(t, srv.Unfurls(), 1, "refused unfurls are not recorded")
}

func TestPublishView(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	view := slack.HomeTabViewRequest{
		Type:   slack.VTHomeTab,
		Blocks: slack.Blocks{BlockSet: []slack.Block{sectionBlock("*Your actions*")}},
	}
	publish := func(hash *string) (*slack.ViewResponse, error) {
		return api.PublishViewContext(t.Context(), slack.PublishViewContextRequest{UserID: "U1", View: view, Hash: hash})
	}

	first, err := publish(nil)
	require.NoError(t, err)
	assert.NotEmpty(t, first.ID)
	assert.NotEmpty(t, first.Hash)
	assert.Equal(t, slack.VTHomeTab, first.Type)
	assert.Equal(t, TeamID, first.TeamID)
	assert.Len(t, first.Blocks.BlockSet, 1)
	got, ok := srv.HomeView("U1")
	require.True(t, ok)
	assert.JSONEq(t, mustJSON(t, view), string(got))

	second, err := publish(&first.Hash)
	require.NoError(t, err, "the current hash is accepted")
	assert.Equal(t, first.ID, second.ID, "a Home tab keeps its view ID")
	assert.NotEqual(t, first.Hash, second.Hash)

	_, err = publish(&first.Hash)
	slackclienttest.RequireSlackError(t, err, "hash_conflict")
	stale := "not-a-hash"
	_, err = publish(&stale)
	slackclienttest.RequireSlackError(t, err, "hash_conflict")

	views := srv.Views("U1")
	require.Len(t, views, 2, "refused publishes are not recorded")
	assert.Equal(t, second.Hash, views[1].Hash)
	_, ok = srv.HomeView("U2")
	assert.False(t, ok)

	_, err = api.PublishViewContext(t.Context(), slack.PublishViewContextRequest{UserID: "U404", View: view})
	slackclienttest.RequireSlackError(t, err, "user_not_found")
	_, err = api.PublishViewContext(t.Context(), slack.PublishViewContextRequest{UserID: "U2", View: slack.HomeTabViewRequest{Type: "modal"}})
	slackclienttest.RequireSlackError(t, err, "invalid_arguments")
}

func TestPublishViewHashForNewUserConflicts(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t)
	hash := "1700000000.00000001"

	_, err := api.PublishViewContext(t.Context(), slack.PublishViewContextRequest{
		UserID: "U2", View: slack.HomeTabViewRequest{Type: slack.VTHomeTab}, Hash: &hash,
	})

	slackclienttest.RequireSlackError(t, err, "hash_conflict")
}

func TestAccessorsReturnCopies(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	_, _, err := api.PostMessageContext(t.Context(), "C1",
		slack.MsgOptionBlocks(sectionBlock("hi")),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "e", EventPayload: map[string]any{}}))
	require.NoError(t, err)
	msg := srv.Messages("C1")[0]
	wantBlocks, wantMetadata := string(msg.Blocks), string(msg.Metadata)
	call := srv.Calls("chat.postMessage")[0]
	wantBody := string(call.Body)

	msg.Blocks[0], msg.Metadata[0] = 'x', 'x'
	call.Params.Set("channel", "C2")
	call.Body[0] = 'x'

	msg = srv.Messages("C1")[0]
	assert.Equal(t, wantBlocks, string(msg.Blocks))
	assert.Equal(t, wantMetadata, string(msg.Metadata))
	call = srv.Calls("chat.postMessage")[0]
	assert.Equal(t, "C1", call.Params.Get("channel"))
	assert.Equal(t, wantBody, string(call.Body))
}
