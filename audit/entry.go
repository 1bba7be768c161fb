// Package audit is the trail of every change people make through
// recordsbot: who (their Slack user ID and the records identity they
// resolved to), from where (the surface), what (kind, target, from → to),
// how it ended (the outcome, with the reason of a refusal) and the request
// id that ties it to the logs.
//
// # Never quietly altered
//
// Entries form a hash chain: each carries its sequence number and the
// hash of the entry before it (Prev), and its own Hash is the HMAC-SHA256,
// under the trail's Key (AUDIT_KEY, never in the database), of its
// canonical encoding (Canonical), Prev included. Editing an entry changes
// its hash, and without the key no one can make the new one; removing one
// leaves a gap in the sequence and a Prev that names nothing; swapping two
// breaks both. Verify (or a Chain fed entry by entry) names the first
// entry where the chain breaks.
//
// A chain only proves itself against its own head: entries cut off the
// end leave a shorter chain that verifies. The store keeps the head apart
// (and never gives a sequence number twice), and the daily verify signs
// the head with the Key and publishes it (Anchor), so a Chain given the
// last published head names a cut tail even when the store's copy of the
// head was moved back too.
//
// # Retention
//
// Pruning deletes the oldest entries and appends a checkpoint entry that
// records where the chain now starts (Target: the first kept sequence
// number) and the hash it continues from (From: that entry's Prev). Verify
// accepts a chain that does not start at entry 1 only when its latest
// checkpoint says so. Retention is at least MinRetention.
//
// The package knows nothing of Slack or of the store: the store keeps the
// chain (store/audit.go), the action domain and the bot write it.
package audit

import (
	"context"
	"time"

	"github.com/recordsbot/recordsbot/internal/requestid"
)

// Kind is what changed.
type Kind string

// The kinds of change recorded.
const (
	// ActionStatus is an action's status: Target the action id, From and
	// To the statuses.
	ActionStatus Kind = "action.status"
	// Follow is a channel starting to follow a committee: Target
	// "<channel>/<committee key>", To its choices.
	Follow Kind = "follow"
	// Unfollow is a channel no longer following a committee.
	Unfollow Kind = "unfollow"
	// FollowChoice is one of a follow's choices (what the channel hears):
	// Target as Follow, From and To "<choice> on|off".
	FollowChoice Kind = "follow.choice"
	// DigestSchedule is a follow's weekly digest: Target as Follow, From
	// and To the schedule.
	DigestSchedule Kind = "digest.schedule"
	// Settings is one of a person's notification settings: Target their
	// Slack user ID, From and To "<setting>=<value>".
	Settings Kind = "settings"
	// MinutesShare is minutes shared into a channel: Target the meeting
	// id, To the channel.
	MinutesShare Kind = "minutes.share"
	// Snooze is an action's reminders snoozed: Target the action id, To
	// until when.
	Snooze Kind = "action.snooze"
	// TopicWatch is a topic watch started: Target "<user or
	// channel>/<watch id>", To its words.
	TopicWatch Kind = "topic.watch"
	// TopicStop is a topic watch stopped: Target as TopicWatch, From its
	// words.
	TopicStop Kind = "topic.stop"
	// MinutesEdited is a meeting's approved minutes changed after their
	// approval, as the watcher read them: Target the meeting id, From and
	// To the hashes of the text before and after.
	MinutesEdited Kind = "minutes.edited"
	// Checkpoint is written by pruning: Target the first sequence number
	// kept, From the hash the chain continues from, To how many entries
	// were pruned.
	Checkpoint Kind = "checkpoint"
)

// Surface is where in Slack the change was asked for.
type Surface string

// The surfaces.
const (
	Command  Surface = "command"  // a slash command
	Reply    Surface = "reply"    // a button on a reply (an ephemeral message)
	Reminder Surface = "reminder" // a button on a reminder or other DM from the bot
	Home     Surface = "home"     // the App Home tab
	Digest   Surface = "digest"   // a button on a digest or announcement in a channel
	Panel    Surface = "panel"    // a button in a Work Object's flexpane
	System   Surface = "recordsbot"
)

// Outcome is how a change ended. A refusal reads "refused: <reason>".
type Outcome string

// The outcomes.
const (
	// Requested is written before a change is sent to the records
	// service: the change is made only once this entry is stored, and an
	// entry with the answer follows it.
	Requested Outcome = "requested"
	// Done: the change was made.
	Done Outcome = "done"
	// Unchanged: it already was so; nothing was sent.
	Unchanged Outcome = "unchanged"
	// Unconfirmed: the change was sent and its answer lost; the records
	// may or may not hold it.
	Unconfirmed Outcome = "unconfirmed"
	// Failed: the change could not be made (a service was down).
	Failed Outcome = "failed"
)

// The reasons of a refusal (Refused).
const (
	ReasonNotYours = "not yours"
	ReasonStale    = "stale button"
	ReasonRecords  = "records service refused"
	ReasonGone     = "no such action"
)

// Refused is the outcome of a change refused for reason.
func Refused(reason string) Outcome { return Outcome("refused: " + reason) }

// Entry is one change. Seq, Prev and Hash are given by the store when the
// entry is appended; the rest by whoever records it.
type Entry struct {
	Seq  int64
	Time time.Time // kept to the millisecond
	// Actor is the Slack user ID of the person; empty for recordsbot's
	// own entries (checkpoints).
	Actor string
	// ActorRecords is the records identity the actor resolved to (their
	// email or USER_MAP name), empty when none.
	ActorRecords string
	Surface      Surface
	Kind         Kind
	Target       string
	From, To     string
	Outcome      Outcome
	RequestID    string
	// Prev is the hash of the entry before (hex SHA-256); empty for the
	// first entry of a chain.
	Prev string
	// Hash is Sum(e), hex.
	Hash string
}

type surfaceKey struct{}

// WithSurface returns ctx saying the change it carries was asked for on
// surface s: the Slack edge, which knows where a click came from, says so
// once, and the code that records the change reads it (New).
func WithSurface(ctx context.Context, s Surface) context.Context {
	return context.WithValue(ctx, surfaceKey{}, s)
}

// SurfaceOf returns the surface ctx carries (WithSurface), or "".
func SurfaceOf(ctx context.Context) Surface {
	s, _ := ctx.Value(surfaceKey{}).(Surface)
	return s
}

type actorKey struct{}

// WithActor returns ctx saying the person asking is Slack user id: the
// edge sets it once per request, so code that records a change deep in a
// surface (a follow's choices, a setting) names who asked without being
// handed it.
func WithActor(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, actorKey{}, id)
}

// ActorOf returns the Slack user ID ctx carries (WithActor), or "".
func ActorOf(ctx context.Context) string {
	id, _ := ctx.Value(actorKey{}).(string)
	return id
}

// New returns an entry of kind on target by actor at now, with the
// surface and request id ctx carries.
func New(ctx context.Context, now time.Time, actor string, kind Kind, target string) Entry {
	return Entry{Time: now, Actor: actor, Surface: SurfaceOf(ctx), Kind: kind, Target: target, RequestID: requestid.From(ctx)}
}
