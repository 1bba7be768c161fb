// Package once posts a Slack message exactly once across every worker,
// replica and crash. The watcher's announcements and DMs, the reminder
// job's reminders and reports, and minutes shared to a channel from a
// click all go through it, and so should any new post the bot makes.
//
// # The mechanism
//
// A post is a [Work]: a ledger key, a way to find the conversation it
// lands in, and the post itself, whose message metadata carries the key
// as event_payload.key. [Poster.Post] then:
//
//  1. claims the key in the store's ledger ([store.Store.Claim]) for a
//     short lease. ClaimDone: the post went out before; its ts comes back
//     from the ledger ([Already]). ClaimBusy: another worker holds it; it
//     will post, or its lease lapses and a later run takes over ([Busy]).
//  2. on ClaimExpired (an earlier worker claimed it and never recorded
//     it: it may have posted and then died), looks for the key in the
//     conversation's latest messages, or in the thread's replies for a
//     thread reply. Found: records that post instead of posting again
//     ([Recovered]). A failed look keeps the claim and fails: posting
//     without looking could post twice.
//  3. posts.
//  4. records the post's ts in the ledger (Done) ([Sent]).
//
// A post Slack refused ("ok":false, a 429: [slackapi.Refused]) changed
// nothing, so its claim is released and the next run retries at once. A
// post whose outcome is unknown (a timeout, a 5xx, a cancelled run) may
// have landed: the claim is kept, its lease lapses, and the next claimant
// gets ClaimExpired and looks before posting. A worker that posts and
// dies before Done is the same case. So the lease must outlast one post,
// Slack's retries included, and the history searched must reach back to
// it: a conversation that got more than HistoryDepth messages between the
// crash and the lease lapsing would be posted to twice.
//
// Anything the caller keeps besides the ledger (the watcher's
// announcements table, say) is written after Post and derives from it:
// a crash between the two is repaired by the next run, whose claim is
// ClaimDone and gives back the ts.
//
// # A person waiting
//
// A post a person's click makes (minutes shared to a channel) has no next
// run to look for it: [Poster.PostNow] looks at once when Slack's answer
// is lost, so the person is told whether it is out ([Recovered]), not
// ([Failed]) or cannot be told ([Unknown]), and never invited to post it
// twice. Such a post may go without a ledger (Poster.Ledger nil): Slack
// delivers a click to one process, once, and the key names the click, so
// there is no other worker to claim against, and the post does not wait
// on the store.
//
// # Without Slack
//
// Work that is not a post (a daily prune, say) needs only the claim:
// [store.Store.Claim] with a key naming the day, then Done. Post is for
// work whose effect is outside the store and can be looked for.
package once

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/store"
)

// Outcome is how one Post ended.
type Outcome int

// The outcomes of [Poster.Post].
const (
	// Sent: posted now and recorded (or, with Result.Err set, posted and
	// not recorded: the next claimant finds it in the history).
	Sent Outcome = iota + 1
	// Already: done before (ClaimDone); Result.TS is the ledger's.
	Already
	// Recovered: an earlier worker posted it and stopped before
	// recording; it was found in the history by its key and recorded.
	Recovered
	// Busy: another worker holds the key; the next run looks again.
	Busy
	// Failed: not done. Result.Err says why; a refused post was released
	// (retried at once by the next run), any other failure is left to
	// lapse and looked for before the next try.
	Failed
	// Unknown: only from PostNow: Slack's answer to the post was lost and
	// the look for it failed too; the post may be out or not.
	Unknown
)

// Done reports whether the post is out in Slack, now or before.
func (o Outcome) Done() bool { return o == Sent || o == Already || o == Recovered }

// String names the outcome: "sent", "already", "recovered", "busy",
// "failed" or "unknown".
func (o Outcome) String() string {
	switch o {
	case Sent:
		return "sent"
	case Already:
		return "already"
	case Recovered:
		return "recovered"
	case Busy:
		return "busy"
	case Failed:
		return "failed"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Work is one post under a ledger key.
type Work struct {
	// Key is the ledger key, and what the post's metadata must carry as
	// event_payload.key (with any event_type): it is how an earlier
	// worker's post is recognised. Keys should name everything that makes
	// the post distinct ("announce/<channel>/<meeting>/<status>"); a key
	// that is done is never posted again until it is pruned.
	Key string
	// Conversation returns the ID of the conversation to search after an
	// expired claim: a channel, or a DM's D… ID (a post to a user ID lands
	// in the bot's DM with them, whose history is read by the D… ID). ""
	// with no error means there is no conversation yet, so nothing can
	// have been posted. Called only after ClaimExpired.
	Conversation func(ctx context.Context) (string, error)
	// Thread, when set, is the ts of the thread the post is a reply in:
	// the key is then looked for among the thread's replies, which
	// conversations.history does not return.
	Thread string
	// Post posts the message, its metadata carrying Key, and returns its
	// ts.
	Post func(ctx context.Context) (string, error)
}

// Result is what [Poster.Post] did.
type Result struct {
	Outcome Outcome
	// TS is the message's ts when Outcome.Done().
	TS string
	// Err is why the work Failed (or is Unknown), or, with Sent or
	// Recovered, that the post is out but recording it failed (the next
	// claimant finds it).
	Err error
	// lost is whether Err is Slack's answer to the post, lost: the post
	// may have landed.
	lost bool
}

// Ledger keeps the claims: who holds a key, and the result of one done;
// *store.Store implements it (store/ledger.go).
type Ledger interface {
	Claim(ctx context.Context, key, owner string, lease time.Duration) (store.ClaimResult, error)
	Done(ctx context.Context, key, owner, result string) error
	Release(ctx context.Context, key, owner string) error
	Result(ctx context.Context, key string) (result string, done bool, err error)
}

// History is the part of Slack's Web API a Poster reads when an earlier
// worker stopped before recording; *slack.Client implements it.
type History interface {
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
}

// Caller makes one Slack call of method (a job that paces itself to
// Slack's tiers passes its pacer's slackapi.Pacer.Call). channel is the
// channel posted to, for chat.postMessage, or "".
type Caller func(ctx context.Context, method, channel string, f func(context.Context) error) error

// Poster posts Work exactly once. Its fields are set once; it is safe for
// concurrent use.
type Poster struct {
	// Ledger holds the claims. Nil only for posts no other worker can
	// make (see "A person waiting"): each Post then posts.
	Ledger Ledger
	// Slack reads history after an expired claim. Required.
	Slack History
	// Owner names this worker in the ledger: unique per process (see
	// store.Store.Claim). Required with a Ledger.
	Owner string
	// Lease is how long a claim lasts; it must outlast one post, Slack's
	// retries included. Default 2 minutes.
	Lease time.Duration
	// HistoryDepth is how many of a conversation's latest messages (or a
	// thread's replies) are searched for a post whose recording was lost.
	// Default 200.
	HistoryDepth int
	// Call makes the history calls; nil calls Slack directly. Post is the
	// caller's own function and paces itself.
	Call Caller
	// Log gets the recoveries and the ledger writes that failed; nil
	// discards.
	Log *slog.Logger
}

// Post does w exactly once; see the package doc. The ledger's errors
// (store.ErrUnavailable) and Slack's come back in Result.Err with
// Outcome Failed.
func (p *Poster) Post(ctx context.Context, w Work) Result {
	r := p.post(ctx, w)
	log := p.logger()
	switch {
	case r.Outcome == Recovered:
		log.InfoContext(ctx, "once: found an unrecorded post in Slack's history; recorded it instead of posting again", "key", w.Key, "ts", r.TS)
	case r.Outcome == Sent && r.Err != nil:
		log.WarnContext(ctx, "once: posted, but recording it failed; the next claimant finds it in the history", "key", w.Key, "error", r.Err)
	}
	return r
}

func (p *Poster) post(ctx context.Context, w Work) Result {
	if p.Ledger != nil {
		if r, decided := p.claim(ctx, w); decided {
			return r
		}
	}
	ts, err := w.Post(ctx)
	if err != nil {
		refused := slackapi.Refused(err)
		if refused && p.Ledger != nil {
			// Nothing changed: give the key back so the next run retries
			// at once. A cancelled run still releases.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if rerr := p.Ledger.Release(rctx, w.Key, p.Owner); rerr != nil && p.Log != nil {
				p.Log.WarnContext(ctx, "once: could not release a claim; it lapses with its lease", "key", w.Key, "error", rerr)
			}
		}
		return Result{Outcome: Failed, Err: err, lost: !refused}
	}
	if p.Ledger != nil {
		if err := p.Ledger.Done(ctx, w.Key, p.Owner, ts); err != nil {
			return Result{Outcome: Sent, TS: ts, Err: fmt.Errorf("record %s: %w", w.Key, err)}
		}
	}
	return Result{Outcome: Sent, TS: ts}
}

// claim claims w's key. decided is true when the claim settles the work
// (done before, held by another worker, found in the history, or the
// ledger failed), r then being its result; false when w is to be posted
// now.
func (p *Poster) claim(ctx context.Context, w Work) (r Result, decided bool) {
	st, owner := p.Ledger, p.Owner
	claim, err := st.Claim(ctx, w.Key, owner, p.lease())
	if err != nil {
		return Result{Outcome: Failed, Err: fmt.Errorf("claim %s: %w", w.Key, err)}, true
	}
	switch claim {
	case store.ClaimDone:
		ts, _, err := st.Result(ctx, w.Key)
		if err != nil {
			return Result{Outcome: Failed, Err: fmt.Errorf("read result of %s: %w", w.Key, err)}, true
		}
		return Result{Outcome: Already, TS: ts}, true
	case store.ClaimBusy:
		return Result{Outcome: Busy}, true
	case store.ClaimExpired:
		// The claim stays ours whatever the look finds: a failed look
		// keeps it (it lapses, and the next run looks again).
		ts, found, err := p.look(ctx, w)
		if err != nil {
			return Result{Outcome: Failed, Err: err}, true
		}
		if found {
			return p.recovered(ctx, w, ts), true
		}
	}
	return Result{}, false
}

// look looks for w's post in its conversation; none yet is not found.
func (p *Poster) look(ctx context.Context, w Work) (ts string, found bool, err error) {
	ch, err := w.Conversation(ctx)
	if err != nil {
		return "", false, fmt.Errorf("find the conversation of %s to check: %w", w.Key, err)
	}
	if ch == "" {
		return "", false, nil
	}
	return p.find(ctx, ch, w.Thread, w.Key)
}

// recovered records w's post found at ts, an earlier attempt's.
func (p *Poster) recovered(ctx context.Context, w Work, ts string) Result {
	if p.Ledger != nil {
		if err := p.Ledger.Done(ctx, w.Key, p.Owner, ts); err != nil {
			return Result{Outcome: Recovered, TS: ts, Err: fmt.Errorf("record %s: %w", w.Key, err)}
		}
	}
	return Result{Outcome: Recovered, TS: ts}
}

// PostNow is Post for a post a person waits on (see "A person
// waiting"): when Slack's answer to the post is lost (a timeout, a 5xx),
// it looks for the post at once, on a context of its own of 5 seconds
// (the post may have used up the caller's), among the conversation's
// latest HistoryDepth messages. Found: Recovered. Not found: Failed, Err
// being the post's (nothing was posted: the claim is kept all the same,
// in case Slack is only late to show it). The look failing too: Unknown,
// Err being the post's and the look's.
func (p *Poster) PostNow(ctx context.Context, w Work) Result {
	r := p.Post(ctx, w)
	if r.Outcome != Failed || !r.lost {
		return r
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	ts, found, err := p.look(lctx, w)
	switch {
	case err != nil:
		return Result{Outcome: Unknown, Err: errors.Join(r.Err, err), lost: true}
	case found:
		res := p.recovered(lctx, w, ts)
		p.logger().InfoContext(ctx, "once: Slack's answer was lost, but the post is out; recorded it", "key", w.Key, "ts", ts, "error", r.Err)
		return res
	}
	return r
}

func (p *Poster) logger() *slog.Logger {
	if p.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.Log
}

func (p *Poster) lease() time.Duration {
	if p.Lease > 0 {
		return p.Lease
	}
	return 2 * time.Minute
}

// find looks for one of the bot's messages carrying key in its metadata
// among the latest messages of channel, or among the replies of thread.
// conversations.history returns only a conversation's top-level messages
// (https://docs.slack.dev/reference/methods/conversations.replies);
// metadata comes back only with include_all_metadata
// (https://docs.slack.dev/reference/methods/conversations.history#arguments).
func (p *Poster) find(ctx context.Context, channel, thread, key string) (string, bool, error) {
	depth := cmp.Or(p.HistoryDepth, 200)
	call := p.Call
	if call == nil {
		call = func(ctx context.Context, _, _ string, f func(context.Context) error) error { return f(ctx) }
	}
	if thread == "" {
		var ts string
		var found bool
		err := call(ctx, "conversations.history", "", func(ctx context.Context) error {
			var err error
			ts, found, err = slackapi.FindKeyed(ctx, p.Slack, channel, key, depth)
			return err
		})
		return ts, found, err
	}
	var msgs []slack.Message
	err := call(ctx, "conversations.replies", "", func(ctx context.Context) error {
		var err error
		msgs, _, _, err = p.Slack.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
			ChannelID: channel, Timestamp: thread, Limit: depth, IncludeAllMetadata: true,
		})
		return err
	})
	if err != nil {
		return "", false, fmt.Errorf("read thread %s in %s: %w", thread, channel, err)
	}
	for _, m := range msgs {
		// A thread's first message is its parent, which is not the reply.
		if m.Timestamp != thread && m.Metadata.EventPayload["key"] == key {
			return m.Timestamp, true, nil
		}
	}
	return "", false, nil
}
