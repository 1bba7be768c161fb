package bot

import "strings"

// conversation is the kind of conversation a command or click came from,
// decided once (conversationOf) for every surface that treats a DM or a
// group DM apart: a follow or a channel's topic watch cannot live there,
// Share cannot post there.
type conversation int

const (
	// inChannel is a public or private channel.
	inChannel conversation = iota
	// inDM is a direct message: with the bot, or between two people.
	inDM
	// inGroupDM is a group DM (a multi-person DM).
	inGroupDM
)

// conversationOf is the kind of conversation channelID is. Slack names a
// DM by its ID (D…) and, with a command, by channel_name "directmessage";
// a group DM only by channel_name ("mpdm-…"): its ID looks like a private
// channel's. Apps cannot be invited into a DM between people or a group DM
// (https://api.slack.com/methods/chat.postMessage#errors).
func conversationOf(channelID, channelName string) conversation {
	switch {
	case strings.HasPrefix(channelID, "D") || channelName == "directmessage":
		return inDM
	case strings.HasPrefix(channelName, "mpdm-"):
		return inGroupDM
	}
	return inChannel
}
