package slackapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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

// budget is what Slack allows one app in one workspace of a method: calls
// a minute and a burst. The numbers are the floors of Slack's tiers
// ("Tier 2: 20+ per minute", "Tier 3: 50+", "Tier 4: 100+",
// https://docs.slack.dev/apis/web-api/rate-limits) with each method's tier
// from its page under https://docs.slack.dev/reference/methods/ (checked
// against Slack's Java SDK, MethodsRateLimits.java, as slacktest's table
// is). A Pacer keeps to them, so a job is not paced by 429s; bursts are
// kept below what Slack tolerates, which leaves room for calls that arrive
// out of step (the bot's own, answering people, are not paced here).
type budget struct {
	perMinute float64
	burst     float64
}

// budgets are the methods the jobs (the reminders and the watcher) call.
// A method not listed is not paced (and is answered 429 by Slack if it is
// called too often: the Pacer then holds it for Retry-After).
var budgets = map[string]budget{
	"users.list":            {20, 1},          // Tier 2
	"users.lookupByEmail":   {50, 3},          // Tier 3
	"conversations.open":    {50, 3},          // Tier 3
	"conversations.history": {50, 3},          // Tier 3 (internal apps; see the rate-limits page for others)
	"conversations.replies": {50, 3},          // Tier 3 (likewise)
	"chat.update":           {50, 3},          // Tier 3 (.../chat.update)
	"chat.postMessage":      {postCeiling, 8}, // Special: see postCeiling and ChannelInterval
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

// Pacer makes a job's Slack calls: it paces every method to its tier,
// spaces posts to one channel by [ChannelInterval], and holds a method for
// every caller when Slack answers one call 429, so that nobody calls it
// again before Retry-After has passed. One Pacer serves every worker of a
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
// chat.postMessage; "" otherwise), when the method's budget and the
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
		if err := p.wait(ctx, method, keys); err != nil {
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

func channelKey(channel string) string { return "channel " + channel }

// wait books the next slot of every key and sleeps until the latest of
// them. A hold set while it slept (another caller's 429) sends it round
// again, so nobody calls through a Retry-After.
func (p *Pacer) wait(ctx context.Context, method string, keys []string) error {
	for {
		p.mu.Lock()
		now := p.clock.Now()
		at := now
		for _, k := range keys {
			at = latest(at, p.hold[k])
		}
		// next[k] is when the key's calls, one an interval, have caught
		// up (the theoretical arrival time of the "generic cell rate
		// algorithm"): a call may start burst-1 intervals before it, so an
		// idle key sends a few calls back to back, as Slack tolerates, and
		// a busy one one an interval.
		for _, k := range keys {
			if interval, burst := spacing(method, k); interval > 0 {
				earliest := latest(p.next[k], now).Add(-time.Duration(burst-1) * interval)
				at = latest(at, earliest)
			}
		}
		for _, k := range keys {
			if interval, _ := spacing(method, k); interval > 0 {
				p.next[k] = latest(p.next[k], at).Add(interval)
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

// spacing is the interval and burst of key, a method or a post channel.
func spacing(method, key string) (time.Duration, float64) {
	if key != method {
		return ChannelInterval, 1
	}
	b, ok := budgets[method]
	if !ok || b.perMinute <= 0 {
		return 0, 0
	}
	return time.Duration(float64(time.Minute) / b.perMinute), max(b.burst, 1)
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
