package slacktest

import (
	"context"
	"maps"
	"math"
	"slices"
	"sync"
	"time"
)

// Tier is a Slack Web API rate-limit tier: how many calls a minute Slack
// allows one app in one workspace for one method.
type Tier int

// The tiers of Slack's rate-limits page
// (https://docs.slack.dev/apis/web-api/rate-limits): "Tier 1: 1+ per
// minute ... a small amount of burst behavior is tolerated", "Tier 2: 20+
// per minute ... occasional bursts of more requests", "Tier 3: 50+ per
// minute ... Sporadic bursts are welcome", "Tier 4: 100+ per minute ...
// generous burst behavior", and "Special", whose conditions each method's
// page gives (chat.postMessage: "generally allows posting one message per
// second per channel, while also maintaining a workspace-wide limit").
const (
	TierNone Tier = iota // not limited here
	Tier1
	Tier2
	Tier3
	Tier4
	TierPost // chat.postMessage's special tier
)

// PerMinute is the tier's allowance, the floor of Slack's "N+ per minute".
func (t Tier) PerMinute() float64 {
	switch t {
	case Tier1:
		return 1
	case Tier2:
		return 20
	case Tier3:
		return 50
	case Tier4:
		return 100
	case TierPost:
		return DefaultPostsPerMinute
	}
	return 0
}

// burst is how many calls above the steady rate the tier lets through at
// once. Slack gives no numbers, only "a small amount", "occasional",
// "sporadic" and "generous"; these are modest readings of those words, so a
// client that paces itself at the allowance never meets them, and one that
// does not is refused within seconds.
func (t Tier) burst() float64 {
	switch t {
	case Tier1:
		return 1
	case Tier2:
		return 3
	case Tier3:
		return 5
	case Tier4, TierPost:
		return 10
	}
	return 1
}

// DefaultPostsPerMinute is the workspace-wide ceiling on chat.postMessage
// the model assumes. Slack documents that the ceiling exists but not its
// size; 300 a minute (five posts a second across all channels) is a
// deliberately cautious figure. [WithPostCeiling] changes it.
const DefaultPostsPerMinute = 300

// postsPerChannelPerSecond and postChannelBurst are chat.postMessage's
// per-channel limit: "1 per second. Short bursts >1 allowed. If you
// attempt bursts, there is no guarantee that messages will be stored or
// displayed to users. If the burst exceeds available limits, users will
// see an error message indicating that some messages from your app are
// not being displayed" (rate-limits page, "Posting messages"). Slack gives
// no burst size and may drop an excess post without an error; the model
// assumes a burst of three and answers the excess 429 with Retry-After, so
// that a client posting faster than a channel allows fails a test loudly
// instead of losing messages quietly. Our pacer (slackapi.Pacer) never
// bursts into a channel. chat.update has no documented per-channel limit:
// only its Tier 3 is modelled.
const (
	postsPerChannelPerSecond = 1.0
	postChannelBurst         = 3
)

// methodTiers is each modelled method's tier, from its page under
// https://docs.slack.dev/reference/methods/ (the "Rate limits" fact), and
// checked method by method against the table in Slack's own Java SDK
// (slackapi/java-slack-sdk, slack-api-client/.../methods/MethodsRateLimits.java),
// which agrees on every one; users.conversations is Tier 2 there, not the
// Tier 3 this table first had from memory.
var methodTiers = map[string]Tier{
	"apps.connections.open": Tier1, // .../apps.connections.open
	"auth.test":             Tier4, // .../auth.test: Special, thousands an hour; Tier 4 is a safe floor
	"chat.postEphemeral":    Tier4, // .../chat.postEphemeral
	"chat.postMessage":      TierPost,
	"chat.unfurl":           Tier3, // .../chat.unfurl
	"chat.update":           Tier3, // .../chat.update
	"conversations.replies": Tier3, // .../conversations.replies (as history: internal and Marketplace apps)
	"conversations.history": Tier3, // .../conversations.history (internal and Marketplace apps; newer non-Marketplace apps get far less)
	"conversations.info":    Tier3, // .../conversations.info
	"conversations.open":    Tier3, // .../conversations.open
	"users.conversations":   Tier2, // .../users.conversations
	"users.info":            Tier4, // .../users.info
	"users.list":            Tier2, // .../users.list
	"users.lookupByEmail":   Tier3, // .../users.lookupByEmail
	"views.open":            Tier4, // .../views.open
	"views.publish":         Tier4, // .../views.publish
	"views.update":          Tier4, // .../views.update
}

// MethodTier returns the tier the Server models for method, TierNone for
// one it does not limit.
func MethodTier(method string) Tier { return methodTiers[method] }

// WithTiers turns on Slack's per-method rate limits: each method has a
// budget per minute (its tier's allowance, with a small burst), and
// chat.postMessage is limited both per channel (one a second with short
// bursts) and across the workspace. A call over a budget is answered HTTP
// 429 with a Retry-After header and does not use the budget up. Budgets
// refill by the clock given with [WithClock], so a test can compress
// minutes of Slack time into milliseconds (see [ScaledClock]). Off by
// default.
func WithTiers() Option {
	return func(c *config) { c.tiers = newTierModel(DefaultPostsPerMinute) }
}

// WithPostCeiling sets the workspace-wide chat.postMessage ceiling that
// [WithTiers] models, in posts a minute. It implies WithTiers.
func WithPostCeiling(perMinute float64) Option {
	return func(c *config) { c.tiers = newTierModel(perMinute) }
}

// tierState is the Server's tier model, under a lock of its own: calls
// take from it with slackfake's lock held, TierReport reads it without.
type tierState struct {
	mu    sync.Mutex
	model *tierModel // nil: no tiers
}

func (t *tierState) take(method, channel string, now time.Time) (retryAfter int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.model.take(method, channel, now)
}

// tierModel is the state of WithTiers: token buckets per method and per
// channel, and what each method was asked.
type tierModel struct {
	postCeiling float64
	methods     map[string]*bucket
	channels    map[string]*bucket
	calls       map[string]int // answered calls (not 429) per method
	limited     map[string]int // 429 answers per method
	posts       map[string]int // answered posts per channel
}

func newTierModel(postCeiling float64) *tierModel {
	return &tierModel{
		postCeiling: postCeiling,
		methods:     map[string]*bucket{},
		channels:    map[string]*bucket{},
		calls:       map[string]int{},
		limited:     map[string]int{},
		posts:       map[string]int{},
	}
}

func (m *tierModel) perMinute(method string) float64 {
	if methodTiers[method] == TierPost {
		return m.postCeiling
	}
	return methodTiers[method].PerMinute()
}

// take spends one call of method (on channel, for a post) at now, or
// returns the whole seconds to wait. A nil model allows everything.
func (m *tierModel) take(method, channel string, now time.Time) (retryAfter int, ok bool) {
	if m == nil {
		return 0, true
	}
	tier := methodTiers[method]
	if tier == TierNone {
		m.calls[method]++
		return 0, true
	}
	mb := m.methods[method]
	if mb == nil {
		mb = &bucket{tokens: tier.burst(), last: now}
		m.methods[method] = mb
	}
	perSecond := m.perMinute(method) / 60
	wait, ok := refill(mb, now, perSecond, tier.burst())
	if ok && tier == TierPost {
		cb := m.channels[channel]
		if cb == nil {
			cb = &bucket{tokens: postChannelBurst, last: now}
			m.channels[channel] = cb
		}
		var cwait float64
		if cwait, ok = refill(cb, now, postsPerChannelPerSecond, postChannelBurst); !ok {
			wait = cwait
		} else {
			cb.tokens--
		}
	}
	if !ok {
		m.limited[method]++
		return max(int(math.Ceil(wait)), 1), false
	}
	mb.tokens--
	m.calls[method]++
	if tier == TierPost {
		m.posts[channel]++
	}
	return 0, true
}

// refill tops b up for the time since it was last used and reports whether
// a call may go, or else how many seconds until one may.
func refill(b *bucket, now time.Time, perSecond, burst float64) (wait float64, ok bool) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(burst, b.tokens+elapsed.Seconds()*perSecond)
		b.last = now
	}
	if b.tokens >= 1 {
		return 0, true
	}
	return (1 - b.tokens) / perSecond, false
}

// TierReport is what a run cost against the modelled tiers.
type TierReport struct {
	// Calls is the calls answered per method (429s not included).
	Calls map[string]int
	// Limited is the 429 answers per method.
	Limited map[string]int
	// Projected is how long the calls would take real Slack at the
	// modelled allowances: the longest of calls ÷ allowance over all
	// methods, or of the per-channel spacing of posts, whichever is longer.
	Projected time.Duration
	// Bottleneck is the method (or "channel <id>") that sets Projected.
	Bottleneck string
	// ChannelSpacing is the longest time the per-channel limit alone
	// imposes on one channel's posts: (posts − 1) seconds.
	ChannelSpacing time.Duration
	// PostFloor is what the chat.postMessage calls alone cost at the
	// workspace ceiling: the floor any plan that sends them must pay.
	PostFloor time.Duration
}

// TierReport reports the calls the Server answered since it started, or
// since the last ResetTiers, against the modelled tiers. Without
// [WithTiers] it is empty.
func (s *Server) TierReport() TierReport {
	s.tiers.mu.Lock()
	defer s.tiers.mu.Unlock()
	m := s.tiers.model
	r := TierReport{Calls: map[string]int{}, Limited: map[string]int{}}
	if m == nil {
		return r
	}
	maps.Copy(r.Calls, m.calls)
	maps.Copy(r.Limited, m.limited)
	for _, method := range slices.Sorted(maps.Keys(m.calls)) {
		per := m.perMinute(method)
		if per <= 0 {
			continue
		}
		d := time.Duration(float64(m.calls[method]) / per * float64(time.Minute))
		if d > r.Projected {
			r.Projected, r.Bottleneck = d, method
		}
		if method == "chat.postMessage" {
			r.PostFloor = d
		}
	}
	for _, ch := range slices.Sorted(maps.Keys(m.posts)) {
		d := time.Duration(m.posts[ch]-1) * time.Second / time.Duration(postsPerChannelPerSecond)
		r.ChannelSpacing = max(r.ChannelSpacing, d)
		if d > r.Projected {
			r.Projected, r.Bottleneck = d, "channel "+ch
		}
	}
	return r
}

// ResetTiers forgets what TierReport counts and refills every budget, as
// if the Server had been idle for a long time.
func (s *Server) ResetTiers() {
	s.tiers.mu.Lock()
	defer s.tiers.mu.Unlock()
	if s.tiers.model != nil {
		s.tiers.model = newTierModel(s.tiers.model.postCeiling)
	}
}

// ScaledClock is a clock on which time passes factor times faster than in
// reality, from a chosen start: give its Now to [WithClock] and the same
// clock to the code under test, and a minute of Slack's budgets passes in
// a minute ÷ factor. It is safe for concurrent use.
type ScaledClock struct {
	start, real time.Time
	factor      float64
	mu          sync.Mutex
}

// NewScaledClock returns a clock that reads start now and runs factor
// times faster than real time. A factor below 1 counts as 1.
func NewScaledClock(start time.Time, factor float64) *ScaledClock {
	return &ScaledClock{start: start, real: time.Now(), factor: max(factor, 1)}
}

// Now is the scaled time.
func (c *ScaledClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start.Add(time.Duration(float64(time.Since(c.real)) * c.factor))
}

// Sleep waits d of scaled time, or until ctx ends, returning its cause.
func (c *ScaledClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(float64(d) / c.factor))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
