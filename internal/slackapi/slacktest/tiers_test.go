package slacktest

import (
	"fmt"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

// Each tier's budget is enforced with its burst, answered 429 with
// Retry-After beyond it, refilled by the Server's clock, and reported.
func TestTiersEnforcedAndProjected(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	srv, api := newTestServer(t, WithTiers(), WithClock(clock.Now))

	// users.list is Tier 2: 20 a minute, a burst of 3.
	for i := range 3 {
		_, err := api.GetUsersContext(t.Context(), slack.GetUsersOptionLimit(999))
		require.NoError(t, err, "call %d within the burst", i)
	}
	p := api.GetUsersPaginated()
	_, err := p.Next(t.Context())
	var rl *slack.RateLimitedError
	require.ErrorAs(t, err, &rl, "the fourth at once is over the budget")
	assert.Equal(t, 3*time.Second, rl.RetryAfter, "one call's worth of a Tier 2 minute")

	clock.Advance(3 * time.Second)
	_, err = p.Next(t.Context())
	require.NoError(t, err, "the budget refills by the clock")

	// chat.postMessage: one a second per channel after a short burst, with
	// a post to a user ID counted against their DM.
	for i := range 3 {
		_, _, err := api.PostMessageContext(t.Context(), "U1", slack.MsgOptionText(fmt.Sprint(i), false))
		require.NoError(t, err)
	}
	_, _, err = api.PostMessageContext(t.Context(), "DU1", slack.MsgOptionText("again", false))
	require.ErrorAs(t, err, &rl, "the DM is the same channel as the user ID")
	_, _, err = api.PostMessageContext(t.Context(), "U2", slack.MsgOptionText("other", false))
	require.NoError(t, err, "another channel has its own allowance")

	r := srv.TierReport()
	assert.Equal(t, map[string]int{"users.list": 4, "chat.postMessage": 4}, r.Calls)
	assert.Equal(t, map[string]int{"users.list": 1, "chat.postMessage": 1}, r.Limited)
	assert.Equal(t, "users.list", r.Bottleneck)
	assert.Equal(t, 12*time.Second, r.Projected, "4 calls at 20 a minute")
	assert.Equal(t, 800*time.Millisecond, r.PostFloor, "4 posts at 300 a minute")
	assert.Equal(t, 2*time.Second, r.ChannelSpacing, "three posts to one DM: two seconds apart at least")
}

// The workspace-wide ceiling on chat.postMessage binds across channels.
func TestTiersPostCeiling(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	var users []User
	for i := range 20 {
		users = append(users, User{ID: fmt.Sprintf("U%02d", i)})
	}
	srv, api := newTestServer(t, WithUsers(users...), WithPostCeiling(60), WithClock(clock.Now))
	ok := 0
	for _, u := range users {
		if _, _, err := api.PostMessageContext(t.Context(), u.ID, slack.MsgOptionText("hi", false)); err == nil {
			ok++
		}
	}
	assert.Equal(t, 10, ok, "the burst of ten, then one a second at 60 a minute")
	assert.Equal(t, 10, srv.TierReport().Limited["chat.postMessage"])
}
