package bot

import (
	"context"
	"errors"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/retry"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// A views.publish that Slack refuses for a moment (429, or a 5xx) is tried
// once more, within the Retry-After Slack gives; if that fails too, the
// person is told, in an ephemeral message in their conversation with the
// app, that the tab could not be refreshed and where to go instead: else
// the tab would keep showing its old state (a setting just saved reading
// as unchanged) and nobody would know.

// homeRetryWait is the wait before trying again after a 5xx, which comes
// without a Retry-After.
const homeRetryWait = time.Second

// publishRetryWait says whether a failed views.publish is worth one more
// try, and after how long.
func publishRetryWait(err error) (time.Duration, bool) {
	var rl *slack.RateLimitedError
	if errors.As(err, &rl) {
		return rl.RetryAfter, true
	}
	var sc slack.StatusCodeError
	if errors.As(err, &sc) && sc.Code >= 500 {
		return homeRetryWait, true
	}
	return 0, false
}

// publishRetried publishes user's Home tab, trying once more after a
// refusal worth retrying when the wait ends before ctx's deadline.
func (h *homeUI) publishRetried(ctx context.Context, user string, st homeState) error {
	err := h.publish(ctx, user, st)
	wait, again := publishRetryWait(err)
	if !again {
		return err
	}
	if dl, ok := ctx.Deadline(); ok && !h.now().Add(wait).Before(dl) {
		return err
	}
	h.log.InfoContext(ctx, "app home: views.publish refused for a moment; trying once more", "user", user, "wait", wait, "error", err)
	if serr := retry.Sleep(ctx, wait); serr != nil {
		return errors.Join(err, serr)
	}
	return h.publish(ctx, user, st)
}

// tellHomeStale tells user, in their conversation with the app, that their
// Home tab could not be refreshed ("home.stale", in their language).
// Ephemeral messages cannot be shown on the Home tab itself, so it goes to
// the app's Messages tab, which is one click away.
func (h *homeUI) tellHomeStale(ctx context.Context, user string) {
	ch, _, _, err := h.slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}, ReturnIM: true})
	if err != nil {
		h.log.WarnContext(ctx, "app home: could not open the conversation to say the tab is stale", "user", user, "error", err)
		return
	}
	_, err = h.slack.PostEphemeralContext(ctx, ch.ID, user, slack.MsgOptionText(lang.FromContext(ctx).T("home.stale"), false))
	if err != nil {
		h.log.WarnContext(ctx, "app home: could not say the tab is stale", "user", user, "error", err)
	}
}
