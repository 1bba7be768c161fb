package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// A 429's Retry-After holds the whole client: a second, unrelated call
// made during the hold does not reach the server, and fails at once when
// the hold outlasts its deadline.
func TestRateLimitHoldsTheWholeClient(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	meeting := srv.Meetings()[0].ID
	srv.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Status: http.StatusTooManyRequests, RetryAfter: "30", Times: 1})

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	_, err := c.ListActions(ctx, nil)
	require.ErrorIs(t, err, apiclient.ErrRateLimited)
	require.Equal(t, 1, srv.Count("", ""), "the 429 itself")

	start := time.Now()
	_, err = c.GetMeeting(ctx, meeting)
	require.ErrorIs(t, err, apiclient.ErrRateLimited, "another endpoint, same client: held")
	assert.Less(t, time.Since(start), 500*time.Millisecond, "fails at once: 30 s would outlast the deadline")
	var e *apiclient.Error
	require.True(t, errors.As(err, &e))
	assert.InDelta(t, 30, e.RetryAfter.Seconds(), 1, "says how long is left")
	assert.Zero(t, srv.Count("", "/meetings"), "no request reached the server during the hold")
}

// A caller with time to spare waits the hold out, then is served.
func TestRateLimitHoldIsWaitedOutWithinTheDeadline(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	meeting := srv.Meetings()[0].ID
	srv.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Status: http.StatusTooManyRequests, RetryAfter: "1", Times: 1})

	short, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	_, err := c.ListActions(short, nil)
	require.ErrorIs(t, err, apiclient.ErrRateLimited)

	start := time.Now()
	m, err := c.GetMeeting(t.Context(), meeting)
	require.NoError(t, err)
	assert.Equal(t, meeting, m.ID)
	assert.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond, "waited for the rest of the hold")
	assert.Equal(t, 1, srv.Count(http.MethodGet, "/meetings/"), "then one request")
}

// countBudget allows n requests.
type countBudget struct{ n int }

func (b *countBudget) Allow() bool { b.n--; return b.n >= 0 }

// A call budget in the context is taken from by every request, retries
// included; past it the call fails at once and sends nothing.
func TestCallBudgetBoundsRequests(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t)
	meeting := srv.Meetings()[0].ID
	srv.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Status: http.StatusServiceUnavailable})
	b := &countBudget{n: 2}
	ctx := apiclient.WithCallBudget(t.Context(), b)

	_, err := c.GetMeeting(ctx, meeting)
	require.ErrorIs(t, err, apiclient.ErrOverBudget, "two tries, then the budget ends the retries")
	assert.Equal(t, 2, srv.Count("", ""))
	_, err = c.GetMeeting(ctx, meeting)
	require.ErrorIs(t, err, apiclient.ErrOverBudget)
	assert.Equal(t, 2, srv.Count("", ""), "nothing sent past the budget")

	_, err = c.GetMeeting(t.Context(), meeting)
	require.ErrorIs(t, err, apiclient.ErrUnavailable, "a call without a budget is not limited")
}
