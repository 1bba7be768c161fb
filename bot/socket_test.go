package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// socketMode runs the harness's bot in Socket Mode against the fake Slack,
// with the given app-level token, and returns a function that ends the run
// and returns RunSocketMode's result (which it also gives when the run
// ends by itself).
func (h *harness) socketMode(appToken string) (stop func() error) {
	h.t.Helper()
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()), slack.OptionAppLevelToken(appToken))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- h.bot.RunSocketMode(ctx, api) }()
	var result error
	done := false
	stop = func() error {
		cancel()
		if !done {
			select {
			case result = <-errc:
			case <-time.After(10 * time.Second):
				h.t.Fatal("RunSocketMode did not return within 10s of its context ending")
			}
			done = true
		}
		return result
	}
	h.t.Cleanup(func() { _ = stop() })
	return stop
}

// socket starts Socket Mode with the right token and returns its first
// connection.
func (h *harness) socket() (*slacktest.SocketConn, func() error) {
	h.t.Helper()
	stop := h.socketMode(slacktest.DefaultAppToken)
	conn, err := h.slack.WaitSocket(h.waitCtx(), 1)
	require.NoError(h.t, err)
	return conn, stop
}

func (h *harness) waitCtx() context.Context {
	ctx, cancel := context.WithTimeout(h.t.Context(), 10*time.Second)
	h.t.Cleanup(cancel)
	return ctx
}

// socketCommand pushes a slash command envelope and waits for its ack.
func (h *harness) socketCommand(conn *slacktest.SocketConn, user slacktest.User, command, text string) (ack msg, envelopeID, responseURLID string) {
	h.t.Helper()
	rid, rurl := h.slack.ResponseURLFor()
	id, err := conn.Send(h.waitCtx(), slacktest.Envelope{
		Type:    slacktest.EnvelopeSlashCommand,
		Payload: slacktest.CommandPayload(h.send, slacktest.Command{User: user, Command: command, Text: text}, rurl),
	})
	require.NoError(h.t, err)
	a, err := conn.WaitAck(h.waitCtx(), id)
	require.NoError(h.t, err)
	return parseMsg(h.t, a.Payload), id, rid
}

func TestSocketModeSlashCommandIsAckedWithTheReply(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	conn, stop := h.socket()
	alice := h.person("alice")

	m, id, _ := h.socketCommand(conn, alice, "/actions", "")

	assert.NotEmpty(t, id)
	assert.Equal(t, "ephemeral", m.ResponseType)
	mine := h.openActionsOf(alice.Email)
	require.NotEmpty(t, mine)
	for _, a := range mine[:min(3, len(mine))] {
		assert.Contains(t, m.all(), `"action:`+a.ID+`"`, "the ack lists alice's actions")
	}
	// The same dispatcher as HTTP: the signed HTTP answer is the same list.
	overHTTP, _ := h.slash(alice, "/actions", "")
	assert.Equal(t, len(overHTTP.Blocks), len(m.Blocks))
	opens := h.slack.Calls("apps.connections.open")
	require.Len(t, opens, 1)
	assert.Equal(t, slacktest.DefaultAppToken, opens[0].Token, "connected with the app-level token")
	require.NoError(t, stop(), "a run ended by its context is not an error")
}

func TestSocketModeSlowCommandFollowsUpThroughResponseURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *botConfig) { c.AckBudget = 100 * time.Millisecond }))
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 400 * time.Millisecond, Times: 1})
	conn, _ := h.socket()
	alice := h.person("alice")

	m, _, rid := h.socketCommand(conn, alice, "/actions", "")

	assert.Empty(t, m.Text, "the ack carries nothing: an interim reply would stay on screen")
	posts := h.responses(rid, 1)
	require.Len(t, posts, 1)
	assert.Contains(t, posts[0].all(), `"action:`+h.openActionsOf(alice.Email)[0].ID+`"`)
}

func TestSocketModeStatusClickThatSlackGoCannotParse(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	conn, _ := h.socket()
	alice := h.person("alice")
	list, _, _ := h.socketCommand(conn, alice, "/actions", "")
	target := h.openActionsOf(alice.Email)[0]
	blockID, el, _ := list.element(t, "status:complete", "complete|"+target.ID+"|")
	// The bot's own message in alice's DM (as a reminder is), holding an
	// element type slack-go does not know, which makes slack-go refuse
	// the whole payload.
	future := json.RawMessage(`{"type":"actions","block_id":"future","elements":[{"type":"hologram_picker","action_id":"x"}]}`)
	msgBlocks, err := json.Marshal(append(append([]json.RawMessage{}, list.Blocks...), future))
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()))
	channel, ts, err := api.PostMessageContext(t.Context(), alice.ID, slack.MsgOptionText("Your actions", false))
	require.NoError(t, err)
	_, rurl := h.slack.ResponseURLFor()
	payload, err := h.send.BlockActions(slacktest.Click{
		User: alice, ChannelID: channel, MessageTS: ts, MessageBlocks: msgBlocks, BlockID: blockID, Element: el,
	}, rurl)
	require.NoError(t, err)
	var cb slack.InteractionCallback
	require.ErrorContains(t, json.Unmarshal(payload, &cb), "hologram_picker", "precondition: slack-go cannot parse this payload")

	id, err := conn.Send(h.waitCtx(), slacktest.Envelope{Type: slacktest.EnvelopeInteractive, Payload: payload})
	require.NoError(t, err)

	ack, err := conn.WaitAck(h.waitCtx(), id)
	require.NoError(t, err, "acked, so Slack does not redeliver it")
	assert.Nil(t, ack.Payload)
	require.NoError(t, h.slack.Wait(h.waitCtx(), func() bool {
		calls := h.slack.Calls("chat.update")
		return len(calls) > 0 && calls[len(calls)-1].Error == ""
	}))
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, "complete", got.Status, "and handled: the click reached the records service")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
	updates := h.slack.Calls("chat.update")
	require.Len(t, updates, 1, "redrawn once, with the blocks the bot renders")
	assert.Empty(t, updates[0].Error, "Slack took the redrawn message")
	assert.NotContains(t, updates[0].Params.Get("blocks"), "hologram_picker", "an element type Slack does not know is not sent back")
}

func TestSocketModeUnparsableEnvelopesAreStillAcked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	conn, _ := h.socket()
	ctx := h.waitCtx()
	tests := map[string]string{
		"a type slack-go does not know": `{"envelope_id":"bad-type","type":"workflow_step_execute","payload":{"x":1},"accepts_response_payload":false}`,
		"an event slackevents refuses":  `{"envelope_id":"bad-event","type":"events_api","payload":{"type":"event_callback","event":"not an object"}}`,
		"a command that is not one":     `{"envelope_id":"bad-command","type":"slash_commands","payload":["not","an","object"]}`,
	}
	for name, raw := range tests {
		require.NoError(t, conn.SendRaw(ctx, []byte(raw)), name)
	}

	for name, raw := range tests {
		var env struct {
			EnvelopeID string `json:"envelope_id"`
		}
		require.NoError(t, json.Unmarshal([]byte(raw), &env))
		ack, err := conn.WaitAck(ctx, env.EnvelopeID)
		require.NoError(t, err, name)
		assert.Nil(t, ack.Payload, name)
	}
	// Frames with no envelope to ack are dropped without harm.
	require.NoError(t, conn.SendRaw(ctx, []byte(`{"type":"interactive","payload":{}}`)))
	require.NoError(t, conn.SendRaw(ctx, []byte(`{"envelope_id": 7}`)))
	m, _, _ := h.socketCommand(conn, h.person("alice"), "/actions", "")
	assert.Equal(t, "ephemeral", m.ResponseType, "the connection carries on")
	select {
	case <-conn.Done():
		t.Fatal("the bot dropped the connection")
	default:
	}
}

func TestSocketModeEvent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	conn, _ := h.socket()
	alice := h.person("alice")
	payload, err := json.Marshal(map[string]any{
		"type": "event_callback", "event_id": "Ev0SOCKET", "team_id": slacktest.TeamID, "api_app_id": "A0RECORDS",
		"event": map[string]any{"type": "app_home_opened", "user": alice.ID, "channel": "D0ALICE", "tab": "home"},
	})
	require.NoError(t, err)

	id, err := conn.Send(h.waitCtx(), slacktest.Envelope{Type: slacktest.EnvelopeEventsAPI, Payload: payload})
	require.NoError(t, err)

	ack, err := conn.WaitAck(h.waitCtx(), id)
	require.NoError(t, err)
	assert.Nil(t, ack.Payload, "an event's ack carries nothing")
	require.NoError(t, h.slack.Wait(h.waitCtx(), func() bool { _, ok := h.slack.HomeView(alice.ID); return ok }),
		"the Home tab was published")

	// A redelivery of the same event does no work twice.
	id, err = conn.Send(h.waitCtx(), slacktest.Envelope{Type: slacktest.EnvelopeEventsAPI, Payload: payload, RetryAttempt: 1, RetryReason: "timeout"})
	require.NoError(t, err)
	_, err = conn.WaitAck(h.waitCtx(), id)
	require.NoError(t, err, "a duplicate is acked too")
	require.NoError(t, h.bot.Wait(h.waitCtx()))
	assert.Len(t, h.slack.Views(alice.ID), 1)
}

func TestSocketModeReconnects(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first, _ := h.socket()

	require.NoError(t, first.Disconnect(h.waitCtx(), "refresh_requested"))

	second, err := h.slack.WaitSocket(h.waitCtx(), 2)
	require.NoError(t, err)
	m, _, _ := h.socketCommand(second, h.person("alice"), "/actions", "")
	assert.Equal(t, "ephemeral", m.ResponseType)

	second.Close() // a dropped connection, not a polite one
	third, err := h.slack.WaitSocket(h.waitCtx(), 3)
	require.NoError(t, err)
	m, _, _ = h.socketCommand(third, h.person("bob"), "/actions", "")
	assert.Equal(t, "ephemeral", m.ResponseType)
}

func TestSocketModeRefusedTokenEndsTheRun(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		token string
		fault *slacktest.Fault
		code  string
	}{
		"wrong app token": {token: "xapp-1-revoked", code: "invalid_auth"},
		// slack-go retries this one forever on its own.
		"a bot token where the app token belongs": {
			token: slacktest.DefaultAppToken,
			fault: &slacktest.Fault{Method: "apps.connections.open", Error: "not_allowed_token_type"},
			code:  "not_allowed_token_type",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tt.fault != nil {
				h.slack.InjectFault(*tt.fault)
			}
			api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()), slack.OptionAppLevelToken(tt.token))
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()

			err := h.bot.RunSocketMode(ctx, api)

			require.ErrorIs(t, err, bot.ErrSocketAuth)
			assert.ErrorContains(t, err, tt.code)
			assert.NoError(t, ctx.Err(), "it gave up at once rather than retrying")
		})
	}
}

func TestSocketModeShutdownAcksEnvelopesInFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 500 * time.Millisecond, Times: 1})
	conn, stop := h.socket()
	alice := h.person("alice")
	_, rurl := h.slack.ResponseURLFor()
	id, err := conn.Send(h.waitCtx(), slacktest.Envelope{
		Type:    slacktest.EnvelopeSlashCommand,
		Payload: slacktest.CommandPayload(h.send, slacktest.Command{User: alice, Command: "/actions"}, rurl),
	})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return h.records.Count(http.MethodGet, "/actions") > 0 }, 5*time.Second, 5*time.Millisecond,
		"the command reached the records service")

	require.NoError(t, stop())

	ack, err := conn.WaitAck(h.waitCtx(), id)
	require.NoError(t, err, "the envelope in flight was acked before the connection closed")
	assert.Contains(t, parseMsg(t, ack.Payload).all(), `"action:`+h.openActionsOf(alice.Email)[0].ID+`"`, "with its reply")
	select {
	case <-conn.Done():
	case <-h.waitCtx().Done():
		t.Fatal("the connection stayed open after the run ended")
	}
}

func TestSocketModeKeepsHTTPForEverythingButSlack(t *testing.T) {
	t.Parallel()
	// Socket Mode needs no signing secret; without one, the HTTP endpoint
	// for Slack must refuse everything, even a request "signed" with the
	// empty key.
	h := newHarness(t, withConfig(func(c *botConfig) { c.SigningSecret = "" }))
	h.socket()
	forger := &slacktest.Sender{URL: h.send.URL, Secret: "", Slack: h.slack}

	r, err := forger.SlashCommand(t.Context(), slacktest.Command{User: h.person("alice"), Command: "/actions"})

	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, r.Status)
	assert.Zero(t, h.records.Count(http.MethodGet, "/actions"))
	for _, path := range []string{"/healthz", "/readyz"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, h.http.URL+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
}
