package slackapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/retry"
)

// Clock is a job's time: what it reads and how it waits. A [Pacer] paces
// by it, so a test can compress Slack's minutes (slacktest.ScaledClock
// implements it).
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, returning ctx's cause then.
	Sleep(ctx context.Context, d time.Duration) error
}

// WallClock is the real time.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx ends.
func (WallClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// perMinute is what Slack allows one app in one workspace of a method, in
// calls a minute: the floors of Slack's tiers ("Tier 2: 20+ per minute",
// "Tier 3: 50+", "Tier 4: 100+",
// https://docs.slack.dev/apis/web-api/rate-limits) with each method's tier
// from its page under https://docs.slack.dev/reference/methods/ (checked
// against Slack's Java SDK, MethodsRateLimits.java, as slacktest's table
// is). A Pacer spaces a method's calls evenly at that rate and never
// bursts, so a job is not paced by 429s and the bursts Slack tolerates
// are left to calls that arrive out of step (the bot's own, answering
// people, are not paced here). A method not listed is not paced (if it is
// called too often Slack answers 429, and the Pacer then holds it for
// Retry-After).
var perMinute = map[string]float64{
	"users.list":            20,          // Tier 2
	"users.lookupByEmail":   50,          // Tier 3
	"conversations.open":    50,          // Tier 3
	"conversations.history": 50,          // Tier 3 (internal apps; see the rate-limits page for others)
	"conversations.replies": 50,          // Tier 3 (likewise)
	"chat.update":           50,          // Tier 3 (.../chat.update)
	"chat.postMessage":      postCeiling, // Special: see postCeiling and ChannelInterval
}

// postCeiling is the workspace-wide chat.postMessage rate a Pacer keeps
// to. Slack documents that the ceiling exists ("while also maintaining a
// workspace-wide limit", rate-limits page) but not its size; 300 a minute
// is cautious, and slacktest models the same figure.
const postCeiling = 300

// ChannelInterval spaces posts to one channel: "1 per second. Short
// bursts >1 allowed. If you attempt bursts, there is no guarantee that
// messages will be stored or displayed to users" (rate-limits page,
// "Posting messages"). A burst may be lost without an error, so a Pacer
// never bursts into one channel: one post a second, however idle the
// channel was.
const ChannelInterval = time.Second

// Pacer makes a job's Slack calls: it spaces every method's calls evenly
// at its tier's rate, spaces posts to one channel by [ChannelInterval],
// and holds a method for every caller when Slack answers one call 429, so
// that nobody calls it again before Retry-After has passed. One Pacer serves every worker of a
// job, and may serve every run of a process (serve's polls), so that the
// spacing holds across runs too. Build it with [NewPacer]; it is safe for
// concurrent use.
type Pacer struct {
	clock   Clock
	log     *slog.Logger
	waited  func(method string)
	retries int

	mu   sync.Mutex
	next map[string]time.Time // earliest start of the next call under a key (pacing)
	hold map[string]time.Time // a key Slack has told to wait, until when
}

// PacerOptions configure a [Pacer]. The zero value is the wall clock, no
// log, no metric and three retries.
type PacerOptions struct {
	// Clock paces the calls. Default WallClock.
	Clock Clock
	// Log gets a line for each 429. Default discard.
	Log *slog.Logger
	// Waited, when set, is told of each 429 (a metric).
	Waited func(method string)
	// Retries is how many times a call Slack answered 429 is tried again
	// after its Retry-After; a call still limited after that fails with
	// Slack's *slack.RateLimitedError. Default 3; negative means none.
	Retries int
}

// NewPacer returns a Pacer with o.
func NewPacer(o PacerOptions) *Pacer {
	p := &Pacer{clock: o.Clock, log: o.Log, waited: o.Waited, retries: o.Retries,
		next: map[string]time.Time{}, hold: map[string]time.Time{}}
	if p.clock == nil {
		p.clock = WallClock{}
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.Retries == 0:
		p.retries = 3
	case o.Retries < 0:
		p.retries = 0
	}
	return p
}

// Call runs f, a call of Slack method (posting to channel, for
// chat.postMessage; "" otherwise), when the method's rate and the
// channel's spacing allow, and answers a 429 by holding the method, for
// every caller, until its Retry-After has passed, then trying again, up to
// the Retries of its options. It has the shape of once.Caller. Errors:
// f's, or ctx's cause while it waited.
func (p *Pacer) Call(ctx context.Context, method, channel string, f func(context.Context) error) error {
	keys := []string{method}
	if method == "chat.postMessage" && channel != "" {
		keys = append(keys, channelKey(channel))
	}
	// The wait after a 429 is the hold, which every caller's next call
	// waits out in p.wait; the retry loop adds none of its own.
	policy := retry.Policy{Attempts: p.retries + 1}
	return retry.Do(ctx, policy, func(ctx context.Context, attempt int) retry.Result {
		if err := p.wait(ctx, keys); err != nil {
			return retry.Result{Err: fmt.Errorf("%s: %w", method, err)}
		}
		err := f(ctx)
		var rl *slack.RateLimitedError
		if err == nil || !errors.As(err, &rl) {
			return retry.Result{Err: err}
		}
		wait := max(rl.RetryAfter, time.Second)
		until := p.clock.Now().Add(wait)
		p.mu.Lock()
		for _, k := range keys {
			if until.After(p.hold[k]) {
				p.hold[k] = until
			}
		}
		p.mu.Unlock()
		if p.waited != nil {
			p.waited(method)
		}
		p.log.InfoContext(ctx, "slack: rate limited; every call of the method waits", "method", method,
			"retry_after", wait, "attempt", attempt+1)
		return retry.Result{Err: err, Retry: true}
	})
}

// Posted records that a post to channel has just been made under another
// name (a user ID, which Slack delivers in the DM channel), so the next
// post to channel by its own ID is spaced from it too.
func (p *Pacer) Posted(channel string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := channelKey(channel)
	p.next[k] = latest(p.next[k], p.clock.Now().Add(ChannelInterval))
}

// channelPrefix starts the pacing key of a post channel, which no method
// name has.
const channelPrefix = "channel "

func channelKey(channel string) string { return channelPrefix + channel }

// wait books the next slot of every key and sleeps until the latest of
// them. A hold set while it slept (another caller's 429) sends it round
// again, so nobody calls through a Retry-After.
func (p *Pacer) wait(ctx context.Context, keys []string) error {
	for {
		p.mu.Lock()
		now := p.clock.Now()
		at := now
		for _, k := range keys {
			at = latest(at, p.hold[k])
		}
		for _, k := range keys {
			at = latest(at, p.next[k])
		}
		for _, k := range keys {
			if interval := spacing(k); interval > 0 {
				p.next[k] = at.Add(interval)
			}
		}
		p.mu.Unlock()
		if err := p.clock.Sleep(ctx, at.Sub(now)); err != nil {
			return err
		}
		p.mu.Lock()
		held := false
		for _, k := range keys {
			held = held || p.hold[k].After(p.clock.Now())
		}
		p.mu.Unlock()
		if !held {
			return nil
		}
	}
}

// spacing is the interval between two calls under key, a method or a
// post channel.
func spacing(key string) time.Duration {
	if strings.HasPrefix(key, channelPrefix) {
		return ChannelInterval
	}
	if n := perMinute[key]; n > 0 {
		return time.Duration(float64(time.Minute) / n)
	}
	return 0
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
