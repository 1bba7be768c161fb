package slackapi

import (
	"errors"
	"slices"

	"github.com/slack-go/slack"
)

// Refused reports whether err is Slack's answer that it did not do the
// call: an "ok":false error or a 429. Anything else (a timeout, a broken
// connection, a 5xx, a cancelled context) leaves it unknown whether the
// call took effect, which is why a job that must post exactly once keeps
// its claim on such an error and looks in the history before posting
// again (internal/once).
func Refused(err error) bool {
	var rl *slack.RateLimitedError
	return errors.As(err, &rl) || ErrorCode(err) != ""
}

// Undeliverable reports whether Slack refused a post for good until
// someone acts: the bot is not in the channel, the channel is gone or
// archived, the user is gone
// (https://docs.slack.dev/reference/methods/chat.postMessage#errors).
// Such a post is still retried, so it goes out once the bot is let in;
// it is counted apart from failures.
func Undeliverable(err error) bool {
	return slices.Contains([]string{
		"not_in_channel", "channel_not_found", "is_archived", "user_not_found", "cannot_dm_bot", "user_disabled",
	}, ErrorCode(err))
}
