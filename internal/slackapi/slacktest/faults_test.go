package slacktest

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

// outcome is what one call should get.
type outcome struct {
	code       string        // Slack error code
	status     int           // HTTP status other than 200 and 429
	retryAfter time.Duration // set for a 429
}

var success = outcome{}

func requireOutcome(t *testing.T, err error, want outcome) {
	t.Helper()
	switch {
	case want.retryAfter > 0:
		got, ok := errors.AsType[*slack.RateLimitedError](err)
		require.Truef(t, ok, "got error %v (%T), want *slack.RateLimitedError", err, err)
		assert.Equal(t, want.retryAfter, got.RetryAfter)
	case want.status != 0:
		got, ok := errors.AsType[slack.StatusCodeError](err)
		require.Truef(t, ok, "got error %v (%T), want slack.StatusCodeError", err, err)
		assert.Equal(t, want.status, got.Code)
	case want.code != "":
		slackclienttest.RequireSlackError(t, err, want.code)
	default:
		require.NoError(t, err)
	}
}

func TestInjectFault(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fault Fault
		want  []outcome // for successive chat.postMessage calls
	}{
		"server error once": {
			fault: Fault{Method: "chat.postMessage", HTTPStatus: http.StatusInternalServerError, Times: 1},
			want:  []outcome{{status: 500}, success},
		},
		"error code twice": {
			fault: Fault{Method: "chat.postMessage", Error: "channel_not_found", Times: 2},
			want:  []outcome{{code: "channel_not_found"}, {code: "channel_not_found"}, success},
		},
		"rate limited with retry after": {
			fault: Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 7, Times: 1},
			want:  []outcome{{retryAfter: 7 * time.Second}, success},
		},
		"rate limited without retry after": {
			fault: Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, Times: 1},
			want:  []outcome{{retryAfter: time.Second}, success},
		},
		"status with error code": {
			fault: Fault{Method: "chat.postMessage", HTTPStatus: http.StatusServiceUnavailable, Error: "service_unavailable", Times: 1},
			want:  []outcome{{status: 503}, success},
		},
		"neither status nor code": {
			fault: Fault{Method: "chat.postMessage", Times: 1},
			want:  []outcome{{code: "fatal_error"}, success},
		},
		"until cleared": {
			fault: Fault{Method: "chat.postMessage", Error: "invalid_auth"},
			want:  []outcome{{code: "invalid_auth"}, {code: "invalid_auth"}, {code: "invalid_auth"}, {code: "invalid_auth"}},
		},
		"other method": {
			fault: Fault{Method: "chat.update", Error: "cant_update_message"},
			want:  []outcome{success, success},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, api := newTestServer(t)
			srv.InjectFault(tt.fault)

			for i, want := range tt.want {
				_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false))
				t.Logf("call %d", i)
				requireOutcome(t, err, want)
			}

			calls := srv.Calls("chat.postMessage")
			assert.Len(t, calls, len(tt.want), "refused calls are recorded")
			var successes int
			for _, want := range tt.want {
				if want == success {
					successes++
				}
			}
			assert.Len(t, srv.Messages("C1"), successes, "a refused call stores nothing")
		})
	}
}

func TestFaultsComeBeforeAuthAndClear(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	api := slackclienttest.Client(srv.APIURL(), "xoxb-wrong")
	srv.InjectFault(Fault{Method: "auth.test", HTTPStatus: http.StatusBadGateway})
	srv.InjectFault(Fault{Method: "auth.test", Error: "later_fault"})

	_, err := api.AuthTestContext(t.Context())
	requireOutcome(t, err, outcome{status: 502})

	srv.ClearFaults()
	_, err = api.AuthTestContext(t.Context())
	slackclienttest.RequireSlackError(t, err, "invalid_auth")

	calls := srv.Calls("auth.test")
	require.Len(t, calls, 2)
	assert.Equal(t, http.StatusBadGateway, calls[0].Status)
	assert.Equal(t, http.StatusOK, calls[1].Status)
	assert.Equal(t, "invalid_auth", calls[1].Error)
}

func TestChannelRateLimit(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	srv, api := newTestServer(t, WithClock(clock.Now), WithChannelRateLimit(1, 2))
	post := func(channel string) error {
		_, _, err := api.PostMessageContext(t.Context(), channel, slack.MsgOptionText("hi", false))
		return err
	}

	require.NoError(t, post("C1"))
	require.NoError(t, post("C1"), "the burst allows a second message")
	requireOutcome(t, post("C1"), outcome{retryAfter: time.Second})
	_, _, _, err := api.UpdateMessageContext(t.Context(), "C1", srv.Messages("C1")[0].TS, slack.MsgOptionText("x", false))
	requireOutcome(t, err, outcome{retryAfter: time.Second})
	require.NoError(t, post("C2"), "each channel has its own allowance")
	_, err = api.PostEphemeralContext(t.Context(), "C1", "U1", slack.MsgOptionText("hi", false))
	require.NoError(t, err, "ephemeral messages are not limited")

	clock.Advance(time.Second)
	require.NoError(t, post("C1"))
	requireOutcome(t, post("C1"), outcome{retryAfter: time.Second})

	var limited int
	for _, c := range srv.Calls("chat.postMessage") {
		if c.Status == http.StatusTooManyRequests {
			assert.Equal(t, "ratelimited", c.Error)
			limited++
		}
	}
	assert.Equal(t, 2, limited, "rate-limited calls are recorded")
}

func TestChannelRateLimitRetryAfterRoundsUp(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	_, api := newTestServer(t, WithClock(clock.Now), WithChannelRateLimit(0.25, 1))
	post := func() error {
		_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false))
		return err
	}

	require.NoError(t, post())
	requireOutcome(t, post(), outcome{retryAfter: 4 * time.Second})
	clock.Advance(3500 * time.Millisecond)
	requireOutcome(t, post(), outcome{retryAfter: time.Second}) // 0.5s left, rounded up
	clock.Advance(500 * time.Millisecond)
	require.NoError(t, post())
}

func TestRateLimitOffByDefault(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t, WithClock(slackclienttest.Clock().Now))
	for range 20 {
		_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("hi", false))
		require.NoError(t, err)
	}
}

// TestHangTimesOut: a Hang fault answers nothing, so the client's own
// deadline ends the call (a timeout, as a Slack that does not answer looks
// to the bot); the call is recorded, and once cleared the method answers
// again. Close releases a call still held.
func TestHangTimesOut(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	srv.InjectFault(Fault{Method: "users.info", Hang: true})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := api.GetUserInfoContext(ctx, alice.ID)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second, "ended by the client's deadline")
	assert.Len(t, srv.Calls("users.info"), 1, "the call is recorded")

	srv.ClearFaults()
	u, err := api.GetUserInfoContext(t.Context(), alice.ID)
	require.NoError(t, err)
	assert.Equal(t, alice.ID, u.ID)

	srv.InjectFault(Fault{Method: "users.info", Hang: true})
	done := make(chan error, 1)
	go func() { _, err := api.GetUserInfoContext(context.Background(), alice.ID); done <- err }()
	require.Eventually(t, func() bool { return len(srv.Calls("users.info")) == 3 }, 5*time.Second, 10*time.Millisecond)
	srv.Close()
	select {
	case err := <-done:
		assert.Error(t, err, "a held call ends when the Server closes")
	case <-time.After(5 * time.Second):
		t.Fatal("Close left a held call hanging")
	}
}
