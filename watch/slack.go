package watch

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// pacedSlack is the poll's Slack: every call goes through the pacer the
// reminders use too (slackapi.Pacer), so announcements, approvals, DMs,
// digests and briefs keep to each method's tier and to one post a second
// in a channel, however many follows a channel has. Each method is listed,
// none passed through: a method added to Slack must choose its pacing.
type pacedSlack struct {
	api   Slack
	pacer *slackapi.Pacer
}

func (s pacedSlack) PostMessageContext(ctx context.Context, channel string, options ...slack.MsgOption) (string, string, error) {
	var answered, ts string
	err := s.pacer.Call(ctx, "chat.postMessage", channel, func(ctx context.Context) error {
		var err error
		answered, ts, err = s.api.PostMessageContext(ctx, channel, options...)
		return err
	})
	if err == nil && answered != "" && answered != channel {
		// A post to a user ID lands in the DM (D…): that channel's next
		// post is spaced from it too.
		s.pacer.Posted(answered)
	}
	return answered, ts, err
}

func (s pacedSlack) UpdateMessageContext(ctx context.Context, channel, ts string, options ...slack.MsgOption) (string, string, string, error) {
	var ch, uts, text string
	err := s.pacer.Call(ctx, "chat.update", "", func(ctx context.Context) error {
		var err error
		ch, uts, text, err = s.api.UpdateMessageContext(ctx, channel, ts, options...)
		return err
	})
	return ch, uts, text, err
}

func (s pacedSlack) GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error) {
	var r *slack.GetConversationHistoryResponse
	err := s.pacer.Call(ctx, "conversations.history", "", func(ctx context.Context) error {
		var err error
		r, err = s.api.GetConversationHistoryContext(ctx, params)
		return err
	})
	return r, err
}

func (s pacedSlack) GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error) {
	var (
		msgs   []slack.Message
		more   bool
		cursor string
	)
	err := s.pacer.Call(ctx, "conversations.replies", "", func(ctx context.Context) error {
		var err error
		msgs, more, cursor, err = s.api.GetConversationRepliesContext(ctx, params)
		return err
	})
	return msgs, more, cursor, err
}

func (s pacedSlack) OpenConversationContext(ctx context.Context, params *slack.OpenConversationParameters) (*slack.Channel, bool, bool, error) {
	var (
		ch            *slack.Channel
		noOp, already bool
	)
	err := s.pacer.Call(ctx, "conversations.open", "", func(ctx context.Context) error {
		var err error
		ch, noOp, already, err = s.api.OpenConversationContext(ctx, params)
		return err
	})
	return ch, noOp, already, err
}

func (s pacedSlack) GetUserByEmailContext(ctx context.Context, email string) (*slack.User, error) {
	var u *slack.User
	err := s.pacer.Call(ctx, "users.lookupByEmail", "", func(ctx context.Context) error {
		var err error
		u, err = s.api.GetUserByEmailContext(ctx, email)
		return err
	})
	return u, err
}
