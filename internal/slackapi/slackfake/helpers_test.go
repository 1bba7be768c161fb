package slackfake

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var (
	alice = User{ID: "U1", Name: "alice", RealName: "Alice Martin", Email: "alice@example.com", TZ: "Europe/Paris"}
	bob   = User{ID: "U2", Name: "bob", RealName: "Bob Stone", Email: "bob@example.com", TZ: "America/New_York"}
)

// epoch is where fake clocks start: 100µs past a whole second, so the first
// timestamp reads "1700000000.000100".
var epoch = time.Unix(1_700_000_000, 100_000)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: epoch} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newTestServer starts a Server with alice and bob and returns it with a
// slack-go client holding the accepted token.
func newTestServer(t *testing.T, opts ...Option) (*Server, *slack.Client) {
	t.Helper()
	srv := NewServer(append([]Option{WithUsers(alice, bob)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, newClient(srv, DefaultToken)
}

// newClient returns a slack-go client for srv. slack-go is the client the
// bot uses, so if it cannot read an answer the test fails.
func newClient(srv *Server, token string, opts ...slack.Option) *slack.Client {
	return slack.New(token, append([]slack.Option{slack.OptionAPIURL(srv.APIURL())}, opts...)...)
}

// requireSlackError asserts that err is Slack's "ok":false answer with code.
func requireSlackError(t *testing.T, err error, code string) {
	t.Helper()
	got, ok := errors.AsType[slack.SlackErrorResponse](err)
	require.Truef(t, ok, "got error %v (%T), want slack.SlackErrorResponse %q", err, err, code)
	require.Equal(t, code, got.Err)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func sectionBlock(text string) slack.Block {
	return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)
}

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
		requireSlackError(t, err, want.code)
	default:
		require.NoError(t, err)
	}
}
