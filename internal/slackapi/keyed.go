package slackapi

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"
)

// HistoryReader is the part of Slack's Web API FindKeyed needs;
// *slack.Client implements it.
type HistoryReader interface {
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
}

// FindKeyed looks for a message carrying key in its metadata
// (event_payload.key) among the latest depth messages of channel, and
// returns its ts. It is how a post whose answer was lost is found: every
// post the bot must not send twice carries a key, and when Slack's answer
// does not say whether it posted, the channel's history does. The
// exactly-once jobs (internal/once) and Share in channel both look this
// way.
// conversations.history returns only a conversation's top-level messages
// (https://docs.slack.dev/reference/methods/conversations.replies), and
// metadata only with include_all_metadata
// (https://docs.slack.dev/tools/node-slack-sdk/reference/web-api/interfaces/ConversationsHistoryArguments).
func FindKeyed(ctx context.Context, api HistoryReader, channel, key string, depth int) (ts string, found bool, err error) {
	h, err := api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
		ChannelID: channel, Limit: depth, IncludeAllMetadata: true,
	})
	if err != nil {
		return "", false, fmt.Errorf("read history of %s: %w", channel, err)
	}
	for _, m := range h.Messages {
		if m.Metadata.EventPayload["key"] == key {
			return m.Timestamp, true, nil
		}
	}
	return "", false, nil
}
