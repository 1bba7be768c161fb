package watch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/store"
)

// outcome is how one piece of ledgered work ended.
type outcome int

const (
	sent      outcome = iota // posted now and recorded
	already                  // done before (ClaimDone); ts from the ledger
	recovered                // an earlier worker posted it; found in history and recorded
	busy                     // another worker holds it; the next poll looks again
	failed                   // not done; released or left to lapse, so the next poll retries
)

// done reports whether the work is out in Slack (now or before).
func (o outcome) done() bool { return o == sent || o == already || o == recovered }

// work is one announcement or DM under a ledger key.
type work struct {
	key string
	// history returns the conversation to search for the key when an
	// earlier worker stopped before recording (a DM's D… ID, not the user).
	history func(ctx context.Context) (string, error)
	// thread, when set, is the ts of the thread the post is a reply in:
	// the key is then looked for among the thread's replies, which
	// conversations.history does not return.
	thread string
	// do posts and returns the ts that stands for the work.
	do func(ctx context.Context) (string, error)
}

// once does w exactly once across every worker and poll; see the package
// doc. It returns the outcome and the message ts. A failure is logged and
// counted here; the caller only decides what to record.
func (p *poll) once(ctx context.Context, w work) (outcome, string) {
	o, ts, err := p.claimAndDo(ctx, w)
	switch {
	case o == failed && undeliverable(err):
		p.sum.Undeliverable++
		p.log.WarnContext(ctx, "watch: Slack will not take this post; it is retried each poll until the bot is let in", "key", w.key, "error", err)
	case o == failed:
		p.sum.Failed++
		p.log.ErrorContext(ctx, "watch: post failed; the next poll retries it", "key", w.key, "error", err)
	case o == recovered:
		p.sum.Recovered++
		p.log.InfoContext(ctx, "watch: found an unrecorded post in Slack's history; recorded it instead of posting again", "key", w.key, "ts", ts)
	case err != nil:
		p.log.WarnContext(ctx, "watch: posted, but recording it failed", "key", w.key, "error", err)
	}
	return o, ts
}

func (p *poll) claimAndDo(ctx context.Context, w work) (outcome, string, error) {
	st := p.deps.Store
	owner := p.cfg.Owner
	r, err := st.Claim(ctx, w.key, owner, p.cfg.Lease)
	if err != nil {
		return failed, "", fmt.Errorf("claim: %w", err)
	}
	switch r {
	case store.ClaimDone:
		ts, _, err := st.Result(ctx, w.key)
		if err != nil {
			return failed, "", fmt.Errorf("read result: %w", err)
		}
		return already, ts, nil
	case store.ClaimBusy:
		return busy, "", nil
	case store.ClaimExpired:
		// An earlier worker claimed this and never recorded it: it may
		// have posted and then stopped. Posting without looking could
		// send it twice, so a failed look keeps the claim (it lapses,
		// and the next poll looks again).
		ch, err := w.history(ctx)
		if err != nil {
			return failed, "", fmt.Errorf("find the conversation to check: %w", err)
		}
		find := p.findKey
		if w.thread != "" {
			find = func(ctx context.Context, ch, key string) (string, bool, error) {
				return p.findReply(ctx, ch, w.thread, key)
			}
		}
		ts, found, err := find(ctx, ch, w.key)
		if err != nil {
			return failed, "", err
		}
		if found {
			if err := st.Done(ctx, w.key, owner, ts); err != nil {
				return recovered, ts, fmt.Errorf("record: %w", err)
			}
			return recovered, ts, nil
		}
	}
	ts, err := w.do(ctx)
	if err != nil {
		// A refusal changed nothing: give the key back so the next poll
		// retries at once. Anything else (a timeout, a 5xx, a cancelled
		// run) may have posted: keep the claim, so that the next claimant
		// gets ClaimExpired and looks before posting.
		if refused(err) {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if rerr := st.Release(rctx, w.key, owner); rerr != nil {
				p.log.WarnContext(ctx, "watch: could not release a claim; it lapses with its lease", "key", w.key, "error", rerr)
			}
		}
		return failed, "", err
	}
	if err := st.Done(ctx, w.key, owner, ts); err != nil {
		// Posted but not recorded: the key's lease lapses and the next
		// claimant finds the post by its metadata.
		return sent, ts, fmt.Errorf("record: %w", err)
	}
	return sent, ts, nil
}

// findKey looks for one of the bot's messages carrying key in its metadata
// among the latest messages of channel; see slackapi.FindKeyed.
func (p *poll) findKey(ctx context.Context, channel, key string) (string, bool, error) {
	return slackapi.FindKeyed(ctx, p.deps.Slack, channel, key, p.cfg.HistoryDepth)
}

// refused: see slackapi.Refused.
func refused(err error) bool { return slackapi.Refused(err) }

// undeliverable reports whether Slack refused a post for good until
// someone acts: the bot is not in the channel, the channel is gone or
// archived, the user is gone. The work is released all the same, so it
// goes out once the channel lets the bot in.
// (https://api.slack.com/methods/chat.postMessage#errors)
func undeliverable(err error) bool {
	var se slack.SlackErrorResponse
	return errors.As(err, &se) && slices.Contains([]string{
		"not_in_channel", "channel_not_found", "is_archived", "user_not_found", "cannot_dm_bot", "user_disabled",
	}, se.Err)
}

// findReply looks for one of the bot's replies carrying key in its
// metadata in the thread at thread in channel
// (https://docs.slack.dev/reference/methods/conversations.replies).
func (p *poll) findReply(ctx context.Context, channel, thread, key string) (string, bool, error) {
	msgs, _, _, err := p.deps.Slack.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
		ChannelID: channel, Timestamp: thread, Limit: p.cfg.HistoryDepth, IncludeAllMetadata: true,
	})
	if err != nil {
		return "", false, fmt.Errorf("read thread %s in %s: %w", thread, channel, err)
	}
	for _, m := range msgs {
		if m.Timestamp != thread && m.Metadata.EventPayload["key"] == key {
			return m.Timestamp, true, nil
		}
	}
	return "", false, nil
}
