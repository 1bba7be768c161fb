package slacktest

import (
	"testing"

	"github.com/slack-go/slack"
	"go.uber.org/goleak"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// alice and bob are the workspace of these tests: what slacktest adds
// (faults, limits, Socket Mode) is about calls, so two people, a DM each,
// are enough.
var alice, bob = User{ID: "U1", Name: "alice", RealName: "Alice Martin", Email: "alice@example.com", TZ: "Europe/Paris"},
	User{ID: "U2", Name: "bob", RealName: "Bob Stone", Email: "bob@example.com", TZ: "America/New_York"}

// newTestServer starts a Server with alice and bob and returns it with a
// slack-go client holding the accepted token.
func newTestServer(t *testing.T, opts ...Option) (*Server, *slack.Client) {
	t.Helper()
	srv := NewServer(append([]Option{WithUsers(alice, bob)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, slackclienttest.Client(srv.APIURL(), DefaultToken)
}
