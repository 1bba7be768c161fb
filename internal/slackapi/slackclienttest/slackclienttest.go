// Package slackclienttest is the client's side of the fake Slack's own
// tests (slackfake's and slacktest's): a slack-go client aimed at a fake,
// the clock they start from, and Slack's "ok":false answer as slack-go
// reports it. Tests only: nothing in the binary imports it.
package slackclienttest

import (
	"errors"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktest"
)

// Epoch is where the fakes' test clocks start: 100µs past a whole second,
// so the first message timestamp reads "1700000000.000100".
var Epoch = time.Unix(1_700_000_000, 100_000)

// Clock returns a clock at [Epoch] that the test moves by hand.
func Clock() *clocktest.Clock { return clocktest.New(Epoch) }

// Client returns a slack-go client for the fake Web API at apiURL. slack-go
// is the client the bot uses, so if it cannot read an answer the test
// fails.
func Client(apiURL, token string, opts ...slack.Option) *slack.Client {
	return slack.New(token, append([]slack.Option{slack.OptionAPIURL(apiURL)}, opts...)...)
}

// RequireSlackError asserts that err is Slack's "ok":false answer with
// code.
func RequireSlackError(t testing.TB, err error, code string) {
	t.Helper()
	got, ok := errors.AsType[slack.SlackErrorResponse](err)
	require.Truef(t, ok, "got error %v (%T), want slack.SlackErrorResponse %q", err, err, code)
	require.Equal(t, code, got.Err)
}
