package slacktest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

// socketClient runs slack-go's own Socket Mode client against srv until the
// test ends, and returns it for its Events.
func socketClient(t *testing.T, srv *Server) *socketmode.Client {
	t.Helper()
	api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(DefaultAppToken))
	client := socketmode.New(api)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = client.RunContext(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return client
}

// nextEvent returns the first event of type typ, skipping others.
func nextEvent(t *testing.T, client *socketmode.Client, typ socketmode.EventType) socketmode.Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case evt := <-client.Events:
			if evt.Type == typ {
				return evt
			}
		case <-timeout:
			t.Fatalf("no %s event within 5s", typ)
		}
	}
}

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSocketModeSlashCommandRoundTrip(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	client := socketClient(t, srv)
	ctx := waitCtx(t)
	conn, err := srv.WaitSocket(ctx, 1)
	require.NoError(t, err)
	send := &Sender{Slack: srv}
	rid, rurl := srv.ResponseURLFor()

	id, err := conn.Send(ctx, Envelope{Type: EnvelopeSlashCommand, Payload: CommandPayload(send, Command{User: alice, Command: "/actions", Text: "overdue"}, rurl)})
	require.NoError(t, err)

	evt := nextEvent(t, client, socketmode.EventTypeSlashCommand)
	cmd, ok := evt.Data.(slack.SlashCommand)
	require.True(t, ok, "got %T, want slack.SlashCommand", evt.Data)
	assert.Equal(t, "/actions", cmd.Command)
	assert.Equal(t, "overdue", cmd.Text)
	assert.Equal(t, alice.ID, cmd.UserID)
	assert.Equal(t, rurl, cmd.ResponseURL)
	require.NotNil(t, evt.Request)
	assert.Equal(t, id, evt.Request.EnvelopeID)
	assert.True(t, evt.Request.AcceptsResponsePayload)
	assert.Equal(t, srv.ResponseURL(rid), rurl, "the response_url is the one handed out under rid")

	require.NoError(t, client.Ack(*evt.Request, map[string]string{"text": "here you are"}))
	ack, err := conn.WaitAck(ctx, id)
	require.NoError(t, err)
	assert.JSONEq(t, `{"text":"here you are"}`, string(ack.Payload))
}

func TestSocketModeAckWithoutPayload(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	client := socketClient(t, srv)
	ctx := waitCtx(t)
	conn, err := srv.WaitSocket(ctx, 1)
	require.NoError(t, err)

	id, err := conn.Send(ctx, Envelope{
		Type:         EnvelopeEventsAPI,
		Payload:      json.RawMessage(`{"type":"event_callback","event_id":"Ev1","team_id":"T0TEST","api_app_id":"A0APP","event":{"type":"app_home_opened","user":"U1","tab":"home"}}`),
		RetryAttempt: 1, RetryReason: "timeout",
	})
	require.NoError(t, err)
	evt := nextEvent(t, client, socketmode.EventTypeEventsAPI)
	require.NotNil(t, evt.Request)
	assert.False(t, evt.Request.AcceptsResponsePayload, "events accept no reply")
	assert.Equal(t, 1, evt.Request.RetryAttempt)
	assert.Equal(t, "timeout", evt.Request.RetryReason)
	require.NoError(t, client.Ack(*evt.Request))

	ack, err := conn.WaitAck(ctx, id)
	require.NoError(t, err)
	assert.Nil(t, ack.Payload)
	assert.Len(t, conn.Acks(), 1)
}

func TestSocketModeUnparsableFrameReachesTheApp(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	client := socketClient(t, srv)
	ctx := waitCtx(t)
	conn, err := srv.WaitSocket(ctx, 1)
	require.NoError(t, err)
	raw := `{"envelope_id":"bad-1","type":"something_new","payload":{}}`

	require.NoError(t, conn.SendRaw(ctx, []byte(raw)))

	evt := nextEvent(t, client, socketmode.EventTypeErrorBadMessage)
	bad, ok := evt.Data.(*socketmode.ErrorBadMessage)
	require.True(t, ok, "got %T", evt.Data)
	assert.JSONEq(t, raw, string(bad.Message))
}

func TestSocketModeDisconnectMakesTheAppReconnect(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	client := socketClient(t, srv)
	ctx := waitCtx(t)
	first, err := srv.WaitSocket(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, 1, first.Number())

	require.NoError(t, first.Disconnect(ctx, "refresh_requested"))

	second, err := srv.WaitSocket(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, second.Number())
	select {
	case <-first.Done():
	case <-ctx.Done():
		t.Fatal("the app kept the retired connection open")
	}
	assert.Len(t, srv.Calls("apps.connections.open"), 2)
	// The new connection carries traffic.
	_, err = second.Send(ctx, Envelope{Type: EnvelopeInteractive, Payload: json.RawMessage(`{"type":"block_actions","actions":[]}`)})
	require.NoError(t, err)
	nextEvent(t, client, socketmode.EventTypeInteractive)
	assert.Len(t, srv.Sockets(), 2)
}

func TestSocketModeDroppedConnection(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	socketClient(t, srv)
	ctx := waitCtx(t)
	first, err := srv.WaitSocket(ctx, 1)
	require.NoError(t, err)

	first.Close()

	_, err = srv.WaitSocket(ctx, 2)
	require.NoError(t, err, "slack-go reconnects after a dropped connection")
	_, err = first.WaitAck(ctx, "never-sent")
	require.ErrorContains(t, err, "closed")
}

func TestAppsConnectionsOpenTokens(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opts     []Option
		appToken string
		wantErr  string
	}{
		"default app token":   {appToken: DefaultAppToken},
		"custom app token":    {opts: []Option{WithAppToken("xapp-custom")}, appToken: "xapp-custom"},
		"wrong app token":     {appToken: "xapp-wrong", wantErr: "invalid_auth"},
		"the bot token":       {appToken: DefaultToken, wantErr: "invalid_auth"},
		"old default refused": {opts: []Option{WithAppToken("xapp-custom")}, appToken: DefaultAppToken, wantErr: "invalid_auth"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := newTestServer(t, tt.opts...)
			api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(tt.appToken))

			_, u, err := api.StartSocketModeContext(t.Context())

			if tt.wantErr != "" {
				slackclienttest.RequireSlackError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Regexp(t, `^ws://127\.0\.0\.1:\d+/socket\?app_id=A0APP&ticket=\S+$`, u)
		})
	}
}

func TestSocketURLIsSingleUse(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(DefaultAppToken))
	_, u, err := api.StartSocketModeContext(t.Context())
	require.NoError(t, err)

	conn, resp, err := websocket.DefaultDialer.DialContext(t.Context(), u, nil)
	require.NoError(t, err)
	defer conn.Close()
	resp.Body.Close()
	var hello struct {
		Type           string `json:"type"`
		NumConnections int    `json:"num_connections"`
		ConnectionInfo struct {
			AppID string `json:"app_id"`
		} `json:"connection_info"`
	}
	require.NoError(t, conn.ReadJSON(&hello))
	assert.Equal(t, "hello", hello.Type)
	assert.Equal(t, 1, hello.NumConnections)
	assert.Equal(t, AppID, hello.ConnectionInfo.AppID)

	_, resp, err = websocket.DefaultDialer.DialContext(t.Context(), u, nil)
	require.Error(t, err, "a ticket works once")
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp.Body.Close()
}

func TestSocketHelloCountsOpenConnections(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(DefaultAppToken))
	dial := func() *websocket.Conn {
		_, u, err := api.StartSocketModeContext(t.Context())
		require.NoError(t, err)
		conn, resp, err := websocket.DefaultDialer.DialContext(t.Context(), u, nil)
		require.NoError(t, err)
		resp.Body.Close()
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	var hello struct {
		NumConnections int `json:"num_connections"`
	}
	require.NoError(t, dial().ReadJSON(&hello))
	require.NoError(t, dial().ReadJSON(&hello))
	assert.Equal(t, 2, hello.NumConnections, "Slack spreads envelopes across open connections and says how many there are")
}

func TestAppsConnectionsOpenFault(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	srv.InjectFault(Fault{Method: "apps.connections.open", Error: "invalid_auth", Times: 1})
	api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(DefaultAppToken))

	_, _, err := api.StartSocketModeContext(t.Context())
	slackclienttest.RequireSlackError(t, err, "invalid_auth")
	_, _, err = api.StartSocketModeContext(t.Context())
	require.NoError(t, err)

	calls := srv.Calls("apps.connections.open")
	require.Len(t, calls, 2)
	assert.Equal(t, DefaultAppToken, calls[1].Token, "the call is made with the app-level token")
}

func TestWaitSocketGivesUp(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()

	_, err := srv.WaitSocket(ctx, 1)

	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestCloseEndsSocketConnections(t *testing.T) {
	t.Parallel()
	srv := NewServer()
	api := slackclienttest.Client(srv.APIURL(), DefaultToken, slack.OptionAppLevelToken(DefaultAppToken))
	_, u, err := api.StartSocketModeContext(t.Context())
	require.NoError(t, err)
	conn, resp, err := websocket.DefaultDialer.DialContext(t.Context(), u, nil)
	require.NoError(t, err)
	resp.Body.Close()
	defer conn.Close()
	sc, err := srv.WaitSocket(waitCtx(t), 1)
	require.NoError(t, err)

	srv.Close()

	<-sc.Done()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			break // the hello, then the end
		}
	}
	_, _, err = api.StartSocketModeContext(t.Context())
	require.Error(t, err, "a closed server hands out nothing")
}
