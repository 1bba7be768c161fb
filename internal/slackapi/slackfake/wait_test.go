package slackfake

import (
	"context"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWaitSeesAsynchronousCalls(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	errc := make(chan error, 1)
	go func() {
		// Post only once Wait is likely blocked, so the test covers the
		// wake-up rather than the first check.
		time.Sleep(10 * time.Millisecond)
		_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("follow-up", false))
		errc <- err
	}()

	// The deadline only turns a broken wake-up into a failure instead of a
	// hang; the wait itself takes about 10ms.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err := srv.Wait(ctx, func() bool { return len(srv.Messages("C1")) == 1 })

	require.NoError(t, err)
	require.NoError(t, <-errc)
	assert.Equal(t, "follow-up", srv.Messages("C1")[0].Text)
}

func TestWaitGivesUpWhenContextEnds(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	var checks int
	_, err := api.AuthTestContext(t.Context()) // a change that does not meet cond
	require.NoError(t, err)

	err = srv.Wait(ctx, func() bool { checks++; return false })

	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.GreaterOrEqual(t, checks, 1)
}

func TestWaitReturnsAtOnceWhenCondHolds(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	require.NoError(t, srv.Wait(ctx, func() bool { return true }))
}

func TestNotify(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	changed := srv.Notify()
	select {
	case <-changed:
		t.Fatal("Notify fired before any change")
	default:
	}

	_, err := api.AuthTestContext(t.Context())
	require.NoError(t, err)

	select {
	case <-changed:
	default:
		t.Fatal("Notify did not fire after a call")
	}
	next := srv.Notify()
	select {
	case <-next:
		t.Fatal("the next Notify channel fired before the next change")
	default:
	}
}
