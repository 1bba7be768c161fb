package slackfake

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConversationsInfoMembership(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t, WithUsers(User{ID: "U0ALICE", Name: "alice"}))
	srv.SetBotInChannel("C0OUT", false)
	srv.AddChannel(Channel{ID: "C0PRIVIN", Name: "board", Kind: ChannelPrivate, BotMember: true})
	srv.AddChannel(Channel{ID: "C0PRIVOUT", Name: "hr", Kind: ChannelPrivate})
	srv.AddChannel(Channel{ID: "C0PUBOUT", Name: "random", Kind: ChannelPublic})
	srv.AddChannel(Channel{ID: "G0MPIM", Name: "mpdm-alice--bob-1", Kind: ChannelMPIM})
	srv.AddChannel(Channel{ID: "D0PEOPLE", Kind: ChannelIM})
	_, _, err := api.PostMessageContext(t.Context(), "U0ALICE", slack.MsgOptionText("hi", false))
	require.NoError(t, err)

	tests := map[string]struct {
		channel  string
		member   bool
		private  bool
		im       bool
		wantCode string
	}{
		"public, bot in":            {channel: "C0GENERAL", member: true},
		"public, bot taken out":     {channel: "C0OUT"},
		"public described, bot out": {channel: "C0PUBOUT"},
		"private, bot in":           {channel: "C0PRIVIN", member: true, private: true},
		"private, bot out":          {channel: "C0PRIVOUT", wantCode: "channel_not_found"},
		"group DM without the bot":  {channel: "G0MPIM", wantCode: "channel_not_found"},
		"DM between people":         {channel: "D0PEOPLE", wantCode: "channel_not_found"},
		"the bot's own DM":          {channel: "DU0ALICE", im: true, private: true},
		"a DM never opened":         {channel: "DU0NOBODY", wantCode: "channel_not_found"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ch, err := api.GetConversationInfoContext(t.Context(), &slack.GetConversationInfoInput{ChannelID: tt.channel})
			if tt.wantCode != "" {
				var se slack.SlackErrorResponse
				require.ErrorAs(t, err, &se)
				assert.Equal(t, tt.wantCode, se.Err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.channel, ch.ID)
			assert.Equal(t, tt.member, ch.IsMember, "is_member")
			assert.Equal(t, tt.private, ch.IsPrivate, "is_private")
			assert.Equal(t, tt.im, ch.IsIM, "is_im")
		})
	}
}

func TestConversationsInfoScopes(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, WithScopes("chat:write"))
	for ch, want := range map[string]string{"C0GENERAL": "channels:read", "G0SECRET": "groups:read", "D0BOT": "im:read"} {
		body := postForm(t, srv, "conversations.info", map[string][]string{"channel": {ch}})
		assert.Contains(t, string(body), `"needed":"`+want+`"`, ch)
	}
}
