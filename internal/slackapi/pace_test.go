package slackapi_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// stepClock is a clock whose Sleep moves it on at once, so the test reads
// the pacing as times.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	return ctx.Err()
}

// Posts to one channel go a second apart from the first; another channel
// has its own second, within the workspace's 300 a minute; a DM reached by a user ID is spaced from a post to
// its own D… ID; a Tier 3 method is paced to 50 a minute, evenly.
func TestPacerSpacing(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clock := &stepClock{now: start}
	p := slackapi.NewPacer(slackapi.PacerOptions{Clock: clock})
	at := func(method, channel string) time.Duration {
		var when time.Time
		require.NoError(t, p.Call(t.Context(), method, channel, func(context.Context) error {
			when = clock.Now()
			return nil
		}))
		return when.Sub(start)
	}
	assert.Equal(t, time.Duration(0), at("chat.postMessage", "C1"))
	assert.Equal(t, time.Second, at("chat.postMessage", "C1"), "no burst into a channel")
	assert.Equal(t, 1200*time.Millisecond, at("chat.postMessage", "C2"),
		"another channel is not held by C1, only by the workspace's 300 posts a minute")
	assert.Equal(t, 2*time.Second, at("chat.postMessage", "C1"))

	p.Posted("DU1") // a post to U1 landed in the DM
	assert.Equal(t, 3*time.Second, at("chat.postMessage", "DU1"))

	clock.mu.Lock()
	clock.now = start.Add(time.Hour)
	clock.mu.Unlock()
	var got []time.Duration
	for range 5 {
		got = append(got, at("chat.update", "")-time.Hour)
	}
	assert.Equal(t, []time.Duration{0, 1200 * time.Millisecond, 2400 * time.Millisecond, 3600 * time.Millisecond, 4800 * time.Millisecond}, got,
		"Tier 3: 50 a minute, evenly, no burst")
}

// A 429 holds the method for Retry-After, then the call is tried again.
func TestPacerHoldsAfter429(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clock := &stepClock{now: start}
	var waited []string
	p := slackapi.NewPacer(slackapi.PacerOptions{Clock: clock, Waited: func(m string) { waited = append(waited, m) }})
	var tries []time.Duration
	err := p.Call(t.Context(), "chat.update", "", func(context.Context) error {
		tries = append(tries, clock.Now().Sub(start))
		if len(tries) == 1 {
			return &slack.RateLimitedError{RetryAfter: 5 * time.Second}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{0, 5 * time.Second}, tries)
	assert.Equal(t, []string{"chat.update"}, waited)

	// Out of retries, Slack's error comes back.
	p = slackapi.NewPacer(slackapi.PacerOptions{Clock: clock, Retries: -1})
	err = p.Call(t.Context(), "chat.update", "", func(context.Context) error {
		return &slack.RateLimitedError{RetryAfter: time.Second}
	})
	var rl *slack.RateLimitedError
	assert.ErrorAs(t, err, &rl)
}
