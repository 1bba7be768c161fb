package remind

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

// Clock is the reminder job's time: what it reads and how it waits. The
// job paces its Slack calls by it, so a test can compress Slack's minutes
// (slacktest.ScaledClock implements it).
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, returning ctx's cause then.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error { return sleepCtx(ctx, d) }

// methodBudget is what Slack allows one app in one workspace of a method:
// calls a minute and a burst. The numbers are the floors of Slack's tiers
// ("Tier 2: 20+ per minute", "Tier 3: 50+", "Tier 4: 100+",
// https://docs.slack.dev/apis/web-api/rate-limits) with each method's tier
// from its page under https://docs.slack.dev/reference/methods/ (checked
// against Slack's Java SDK, MethodsRateLimits.java, as slacktest's table
// is). The job paces itself to them, so it is not paced by 429s; bursts
// are kept below what Slack tolerates, which leaves room for calls that
// arrive out of step.
type methodBudget struct {
	perMinute float64
	burst     float64
}

var remindBudgets = map[string]methodBudget{
	"users.list":            {20, 1},          // Tier 2
	"users.lookupByEmail":   {50, 3},          // Tier 3
	"conversations.open":    {50, 3},          // Tier 3
	"conversations.history": {50, 3},          // Tier 3 (internal apps; see the rate-limits page for others)
	"chat.postMessage":      {postCeiling, 8}, // Special: see postCeiling
}

// postCeiling is the workspace-wide chat.postMessage rate the job keeps
// to. Slack documents that the ceiling exists ("while also maintaining a
// workspace-wide limit", rate-limits page) but not its size; 300 a minute
// is cautious, and slacktest models the same figure.
const postCeiling = 300

// channelInterval spaces posts to one channel: "1 per second. Short
// bursts >1 allowed" (rate-limits page, "Posting messages").
const channelInterval = time.Second

// slackCaller makes the job's Slack calls: it paces every method to its
// budget, spaces posts to one channel, and holds a method for everyone
// when Slack answers one call 429, so that no worker calls it again before
// Retry-After has passed.
type slackCaller struct {
	clock   Clock
	log     *slog.Logger
	metrics Metrics
	retries int

	mu   sync.Mutex
	next map[string]time.Time // earliest start of the next call under a key (pacing)
	hold map[string]time.Time // a key Slack has told to wait, until when
}

func newSlackCaller(clock Clock, log *slog.Logger, m Metrics) *slackCaller {
	return &slackCaller{clock: clock, log: log, metrics: m, retries: remindRetries,
		next: map[string]time.Time{}, hold: map[string]time.Time{}}
}

// call runs f, a call of Slack method (posting to channel, for
// chat.postMessage), when the method's budget and the channel's spacing
// allow, and answers a 429 by holding the method, for every worker, until
// its Retry-After has passed, then trying again, up to c.retries times.
func (c *slackCaller) call(ctx context.Context, method, channel string, f func(context.Context) error) error {
	keys := []string{method}
	if method == "chat.postMessage" && channel != "" {
		keys = append(keys, "channel "+channel)
	}
	// The wait after a 429 is the hold, which every worker's next call
	// waits out in c.wait; the retry loop adds none of its own.
	policy := retry.Policy{Attempts: c.retries + 1}
	return retry.Do(ctx, policy, func(ctx context.Context, attempt int) retry.Result {
		if err := c.wait(ctx, method, keys); err != nil {
			return retry.Result{Err: fmt.Errorf("%s: %w", method, err)}
		}
		err := f(ctx)
		var rl *slack.RateLimitedError
		if err == nil || !errors.As(err, &rl) {
			return retry.Result{Err: err}
		}
		wait := max(rl.RetryAfter, time.Second)
		until := c.clock.Now().Add(wait)
		c.mu.Lock()
		for _, k := range keys {
			if until.After(c.hold[k]) {
				c.hold[k] = until
			}
		}
		c.mu.Unlock()
		if c.metrics != nil {
			c.metrics.SlackWait(method)
		}
		c.log.InfoContext(ctx, "remind: rate limited by Slack, every call of the method waits", "method", method,
			"retry_after", wait, "attempt", attempt+1)
		return retry.Result{Err: err, Retry: true}
	})
}

// wait books the next slot of every key and sleeps until the latest of
// them. A hold set while it slept (another worker's 429) sends it round
// again, so nobody calls through a Retry-After.
func (c *slackCaller) wait(ctx context.Context, method string, keys []string) error {
	for {
		c.mu.Lock()
		now := c.clock.Now()
		at := now
		for _, k := range keys {
			at = latest(at, c.hold[k])
		}
		for _, k := range keys {
			interval, burst := c.spacing(method, k)
			if interval <= 0 {
				continue
			}
			// next lags the clock by at most the burst: an idle key may
			// send a few calls back to back, as Slack tolerates.
			n := latest(c.next[k], now.Add(-time.Duration(burst-1)*interval))
			at = latest(at, n)
		}
		for _, k := range keys {
			if interval, burst := c.spacing(method, k); interval > 0 {
				n := latest(c.next[k], now.Add(-time.Duration(burst-1)*interval))
				c.next[k] = latest(n, at).Add(interval)
			}
		}
		c.mu.Unlock()
		if err := c.clock.Sleep(ctx, at.Sub(now)); err != nil {
			return err
		}
		c.mu.Lock()
		held := false
		for _, k := range keys {
			held = held || c.hold[k].After(c.clock.Now())
		}
		c.mu.Unlock()
		if !held {
			return nil
		}
	}
}

// posted records that a post to channel has just been made under another
// name (a user ID, which Slack delivers in the DM channel), so the next post
// to channel by its own ID is spaced from it too.
func (c *slackCaller) posted(channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := "channel " + channel
	c.next[k] = latest(c.next[k], c.clock.Now().Add(channelInterval))
}

// spacing is the interval and burst of key, a method or a post channel.
func (c *slackCaller) spacing(method, key string) (time.Duration, float64) {
	if key != method {
		return channelInterval, 1
	}
	b, ok := remindBudgets[method]
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

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
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
