package slackfake

import (
	"encoding/json"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var (
	alice = User{ID: "U1", Name: "alice", RealName: "Alice Martin", Email: "alice@example.com", TZ: "Europe/Paris"}
	bob   = User{ID: "U2", Name: "bob", RealName: "Bob Stone", Email: "bob@example.com", TZ: "America/New_York"}
)

// newTestServer starts a Server with alice and bob and returns it with a
// slack-go client holding the accepted token.
func newTestServer(t *testing.T, opts ...Option) (*Server, *slack.Client) {
	t.Helper()
	srv := NewServer(append([]Option{WithUsers(alice, bob)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, slackclienttest.Client(srv.APIURL(), DefaultToken)
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
