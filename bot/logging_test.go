package bot_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// lockedBuffer is a buffer the bot's goroutines may log into at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func jsonLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "log line: %s", sc.Bytes())
		out = append(out, m)
	}
	return out
}

// connectionLife are the log lines about the Socket Mode connection itself.
var connectionLife = map[string]bool{
	"socket mode: connecting": true,
	"socket mode: connected":  true,
	"socket mode: hello":      true,
	"socket mode: stopping; acknowledging envelopes in flight": true,
	"socket mode: closed": true,
}

func TestLogsOfRealRequestsCarryTheirIDAndNoSecrets(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var logs lockedBuffer
	logger := slog.New(requestid.LogHandler(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	h.rebuild(bot.Deps{Logger: logger, Metrics: metrics.New()}, withConfig(func(c *bot.Config) { c.AckBudget = 100 * time.Millisecond }))
	alice := h.person("alice")
	const marker = "zz-private-words"

	// Over HTTP: a slow command whose result follows after the ack, and a
	// failing records call (logged).
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 300 * time.Millisecond, Times: 1})
	m, r := h.slash(alice, "/actions", "")
	require.Empty(t, m.Text, "deferred: an empty ack")
	h.responses(r.ResponseURLID, 1)
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/meetings", Status: http.StatusInternalServerError})
	m, _ = h.slash(alice, "/meetings", "")
	require.Contains(t, m.Text, "records service")
	h.records.ClearFaults()
	// Over Socket Mode: an envelope, and one slack-go cannot parse.
	conn, stop := h.socket()
	h.socketCommand(conn, alice, "/minutes", marker)
	require.NoError(t, conn.SendRaw(h.waitCtx(), []byte(`{"envelope_id":"odd-1","type":"brand_new","payload":{"secret":"`+marker+`"}}`)))
	_, err := conn.WaitAck(h.waitCtx(), "odd-1")
	require.NoError(t, err)
	require.NoError(t, stop())
	require.NoError(t, h.bot.Wait(h.waitCtx()))

	out := logs.Bytes()
	lines := jsonLines(t, out)
	require.NotEmpty(t, lines)
	ids := map[string]bool{}
	for _, l := range lines {
		if msg, _ := l["msg"].(string); connectionLife[msg] {
			continue // the connection's own life belongs to no request
		}
		id, ok := l["request_id"].(string)
		if assert.True(t, ok, "a line of a request without request_id: %v", l) {
			ids[id] = true
		}
	}
	assert.GreaterOrEqual(t, len(ids), 3, "the requests have IDs of their own")
	text := string(out)
	for what, secret := range map[string]string{
		"signing secret":         testSecret,
		"bot token":              slacktest.DefaultToken,
		"app token":              slacktest.DefaultAppToken,
		"records API key":        recordstest.DefaultKey,
		"a request signature":    "v0=",
		"what the user typed":    marker,
		"a response_url address": "/response/",
	} {
		assert.NotContains(t, text, secret, "the logs hold %s", what)
	}
}
