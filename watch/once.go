package watch

import (
	"context"

	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// once does w exactly once across every worker and poll (internal/once)
// and counts what happened in the summary. It returns the outcome and the
// message ts; a failure is logged and counted here, so the caller only
// decides what to record.
func (p *poll) once(ctx context.Context, w once.Work) (once.Outcome, string) {
	r := p.poster.Post(ctx, w)
	switch {
	case r.Outcome == once.Failed && slackapi.Undeliverable(r.Err):
		p.sum.Undeliverable++
		p.log.WarnContext(ctx, "watch: Slack will not take this post; it is retried each poll until the bot is let in", "key", w.Key, "error", r.Err)
	case r.Outcome == once.Failed:
		p.sum.Failed++
		p.log.ErrorContext(ctx, "watch: post failed; the next poll retries it", "key", w.Key, "error", r.Err)
	case r.Outcome == once.Recovered:
		p.sum.Recovered++
	}
	return r.Outcome, r.TS
}

// toChannel is a Work's Conversation for a post to a channel: the channel
// itself.
func toChannel(channel string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return channel, nil }
}
