package slackfake

import (
	"net/url"
	"strings"
)

// conversationsInfo answers conversations.info as Slack does for a bot
// token (https://docs.slack.dev/reference/methods/conversations.info; the
// fields of https://docs.slack.dev/reference/objects/conversation-object):
// a public channel is described whether or not the bot is in it, with
// is_member saying which; a private channel or group DM the bot is not in,
// and a DM between people, is channel_not_found, as if it did not exist;
// the bot's own DM is is_im.
func conversationsInfo(ws *workspace, p url.Values) (reply, error) {
	id := p.Get("channel")
	if id == "" {
		return nil, slackError("channel_not_found")
	}
	ch := map[string]any{
		"id": id, "name": channelName(id), "is_channel": true, "is_group": false, "is_im": false,
		"is_mpim": false, "is_private": false, "is_archived": false, "is_member": !ws.notInChannel[id],
	}
	if c, ok := ws.channels[id]; ok {
		if c.Name != "" {
			ch["name"] = c.Name
		}
		switch {
		case c.Kind == ChannelIM:
			return nil, slackError("channel_not_found")
		case (c.Kind == ChannelPrivate || c.Kind == ChannelMPIM) && !c.BotMember:
			return nil, slackError("channel_not_found")
		}
		ch["is_member"] = c.BotMember
		ch["is_private"] = c.Kind != ChannelPublic
		ch["is_mpim"] = c.Kind == ChannelMPIM
		ch["is_channel"] = c.Kind == ChannelPublic
		ch["is_group"] = c.Kind == ChannelPrivate
		return reply{"channel": ch}, nil
	}
	if strings.HasPrefix(id, "D") {
		if !ws.openConversations[id] {
			return nil, slackError("channel_not_found")
		}
		// A DM's object has no is_member; it has the user instead.
		delete(ch, "is_member")
		ch["is_channel"], ch["is_im"], ch["is_private"] = false, true, true
		ch["user"] = strings.TrimPrefix(id, "D")
		delete(ch, "name")
	}
	return reply{"channel": ch}, nil
}
