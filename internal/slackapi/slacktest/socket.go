package slacktest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Socket Mode
//
// An app that sets an app-level token calls apps.connections.open, which
// answers a single-use ws:// URL on this Server; the app dials it, gets a
// "hello", and from then on Slack's traffic arrives over that websocket as
// envelopes the app acknowledges by envelope ID. A test waits for the
// connection with [Server.WaitSocket], pushes envelopes with
// [SocketConn.Send] (or any frame at all with [SocketConn.SendRaw]) and
// reads the app's answers with [SocketConn.WaitAck].

// DefaultAppToken is the app-level token apps.connections.open accepts
// unless [WithAppToken] says otherwise.
const DefaultAppToken = "xapp-1-A0APP-1-test"

// Envelope types Slack sends over Socket Mode, as it names them.
const (
	EnvelopeSlashCommand = "slash_commands"
	EnvelopeInteractive  = "interactive"
	EnvelopeEventsAPI    = "events_api"
)

// socketPingInterval is how often the Server pings each connection. Slack
// pings every few seconds; slack-go reconnects when it has heard no ping
// for 30 s, so anything well under that keeps a quiet connection up.
const socketPingInterval = 10 * time.Second

// socketWriteTimeout bounds a write to a connection when the caller's
// context has no deadline of its own.
const socketWriteTimeout = 5 * time.Second

// WithAppToken sets the only app-level token apps.connections.open accepts;
// a call with any other token is answered "invalid_auth", and with none
// "not_authed", as Slack answers a revoked or mistyped xapp- token. The
// default is [DefaultAppToken].
func WithAppToken(token string) Option {
	return func(c *config) { c.appToken = token }
}

// Envelope is a request Slack pushes over a Socket Mode connection.
type Envelope struct {
	// Type is [EnvelopeSlashCommand], [EnvelopeInteractive] or
	// [EnvelopeEventsAPI]; Slack sends nothing else that needs an ack.
	Type string
	// Payload is what the HTTP transport would have posted: for a slash
	// command the form fields as a JSON object of strings (see
	// [CommandPayload]), for an interaction the payload JSON (see
	// [Sender.BlockActions]), for an event the event callback JSON.
	Payload json.RawMessage
	// RetryAttempt and RetryReason mark a redelivery of an Events API
	// envelope, as X-Slack-Retry-Num and X-Slack-Retry-Reason do over HTTP.
	RetryAttempt int
	RetryReason  string
}

// envelopeJSON is an envelope on the wire.
type envelopeJSON struct {
	EnvelopeID             string          `json:"envelope_id"`
	Type                   string          `json:"type"`
	Payload                json.RawMessage `json:"payload"`
	AcceptsResponsePayload bool            `json:"accepts_response_payload"`
	RetryAttempt           int             `json:"retry_attempt,omitempty"`
	RetryReason            string          `json:"retry_reason,omitempty"`
}

// SocketAck is an acknowledgement the app sent over a connection.
type SocketAck struct {
	// EnvelopeID is the envelope acknowledged; "" when the frame named none.
	EnvelopeID string
	// Payload is the reply the ack carried (for a slash command, the
	// message to show); nil when it carried none.
	Payload json.RawMessage
	// Raw is the frame as the app sent it.
	Raw json.RawMessage
}

// socketHub holds the Server's Socket Mode connections. It has a lock of its
// own, taken after (never while waiting for) the Server's.
type socketHub struct {
	token string // set by options before the Server starts, then only read

	mu      sync.Mutex
	base    string          // "ws://127.0.0.1:PORT"; set once the Server listens
	tickets map[string]bool // issued by apps.connections.open, not yet used
	conns   []*SocketConn   // in the order they connected
	// greeting counts connections being greeted: open, but not yet in
	// conns, so a hello sent meanwhile on another counts them.
	greeting int
	seq      int // numbers tickets and envelopes
	closed   bool
	changed  chan struct{} // closed and replaced on every change
	wg       sync.WaitGroup
}

func newSocketHub(token string) *socketHub {
	return &socketHub{token: token, tickets: map[string]bool{}, changed: make(chan struct{})}
}

// mount serves the websockets apps.connections.open hands out.
func (h *socketHub) mount(mux *http.ServeMux) { mux.Handle("GET /socket", handleSocket(h)) }

// setBaseURL records the Server's own http:// URL, from which the ws:// URLs
// apps.connections.open hands out are made.
func (h *socketHub) setBaseURL(httpURL string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.base = "ws" + strings.TrimPrefix(httpURL, "http")
}

func (h *socketHub) signalLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// connectionsOpen answers apps.connections.open with a single-use
// websocket URL, as Slack does.
func (h *socketHub) connectionsOpen() (map[string]any, error) {
	u, err := h.open()
	if err != nil {
		return nil, err
	}
	return map[string]any{"url": u}, nil
}

func (h *socketHub) open() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.base == "" {
		return "", errors.New("server not listening")
	}
	h.seq++
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	ticket := strconv.Itoa(h.seq) + "-" + hex.EncodeToString(b[:])
	h.tickets[ticket] = true
	return h.base + "/socket?" + url.Values{"ticket": {ticket}, "app_id": {AppID}}.Encode(), nil
}

// redeem uses up a ticket, reporting whether it was valid.
func (h *socketHub) redeem(ticket string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.tickets[ticket] || h.closed {
		return false
	}
	delete(h.tickets, ticket)
	return true
}

// handleSocket serves GET /socket, the websocket URLs apps.connections.open
// hands out.
func handleSocket(h *socketHub) http.Handler {
	upgrader := websocket.Upgrader{
		// slack-go sends Origin: https://api.slack.com, as Slack's own
		// endpoint expects; a loopback fake has nothing to protect.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.redeem(r.URL.Query().Get("ticket")) {
			http.Error(w, "invalid or already used ticket", http.StatusUnauthorized)
			return
		}
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return // Upgrade has answered the client already
		}
		h.add(conn)
	})
}

// add registers a new connection, greets it and starts serving it.
func (h *socketHub) add(ws *websocket.Conn) {
	h.mu.Lock()
	closed, open := h.closed, h.openLocked()+h.greeting
	if !closed {
		h.greeting++
	}
	h.mu.Unlock()
	if closed {
		_ = ws.Close()
		return
	}
	c := &SocketConn{hub: h, ws: ws, done: make(chan struct{})}
	// Greet before the connection is visible, so a test's first envelope
	// always follows the hello, as on Slack. It already counts as open: a
	// client that reads this hello and opens a second connection at once
	// is told of both.
	hello, _ := json.Marshal(map[string]any{
		"type":            "hello",
		"num_connections": open + 1,
		"debug_info":      map[string]any{"host": "applink-slacktest", "approximate_connection_time": 18060},
		"connection_info": map[string]any{"app_id": AppID},
	})
	err := c.write(context.Background(), websocket.TextMessage, hello)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.greeting--
	if err != nil || h.closed { // failed, or closed while greeting
		_ = ws.Close()
		return
	}
	c.n = len(h.conns) + 1
	h.conns = append(h.conns, c)
	h.wg.Add(2)
	h.signalLocked()
	go c.readLoop()
	go c.pingLoop()
}

// openLocked counts the connections still open. h.mu must be held.
func (h *socketHub) openLocked() int {
	n := 0
	for _, c := range h.conns {
		select {
		case <-c.done:
		default:
			n++
		}
	}
	return n
}

// close ends every connection and waits for their goroutines; the hub hands
// out no more URLs.
func (h *socketHub) close() {
	h.mu.Lock()
	h.closed = true
	conns := append([]*SocketConn(nil), h.conns...)
	h.signalLocked()
	h.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	h.wg.Wait()
}

// WaitSocket waits until the app has opened its n-th Socket Mode connection
// (counting from 1, in the order they connected, reconnections included)
// and returns it, or returns the context's error (wrapped).
func (s *Server) WaitSocket(ctx context.Context, n int) (*SocketConn, error) {
	if n < 1 {
		return nil, fmt.Errorf("slacktest: no socket connection number %d; they count from 1", n)
	}
	h := s.sockets
	for {
		h.mu.Lock()
		changed := h.changed
		if len(h.conns) >= n {
			c := h.conns[n-1]
			h.mu.Unlock()
			return c, nil
		}
		h.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("slacktest: wait for socket connection %d: %w", n, context.Cause(ctx))
		}
	}
}

// Sockets returns every Socket Mode connection the app has opened, oldest
// first, the closed ones included.
func (s *Server) Sockets() []*SocketConn {
	h := s.sockets
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*SocketConn(nil), h.conns...)
}

// SocketConn is one Socket Mode connection an app opened. It is safe for
// concurrent use.
type SocketConn struct {
	hub       *socketHub
	ws        *websocket.Conn
	n         int
	writeMu   sync.Mutex // gorilla/websocket allows one writer at a time
	done      chan struct{}
	closeOnce sync.Once
	acks      []SocketAck // guarded by hub.mu
}

// Number is the connection's place in the order the app connected,
// counting from 1.
func (c *SocketConn) Number() int { return c.n }

// Done is closed once the connection has ended, whichever side ended it.
func (c *SocketConn) Done() <-chan struct{} { return c.done }

// Send pushes env to the app and returns the envelope ID it was given.
// accepts_response_payload is true for slash commands and interactions,
// as on Slack.
func (c *SocketConn) Send(ctx context.Context, env Envelope) (string, error) {
	c.hub.mu.Lock()
	c.hub.seq++
	id := fmt.Sprintf("env-%d-%d", c.n, c.hub.seq)
	c.hub.mu.Unlock()
	b, err := json.Marshal(envelopeJSON{
		EnvelopeID:             id,
		Type:                   env.Type,
		Payload:                env.Payload,
		AcceptsResponsePayload: env.Type != EnvelopeEventsAPI,
		RetryAttempt:           env.RetryAttempt,
		RetryReason:            env.RetryReason,
	})
	if err != nil {
		return "", fmt.Errorf("slacktest: encode envelope: %w", err)
	}
	return id, c.SendRaw(ctx, b)
}

// SendRaw pushes msg to the app as one text frame, as it is: the way to send
// what Slack might send but the app's library cannot parse.
func (c *SocketConn) SendRaw(ctx context.Context, msg []byte) error {
	if err := c.write(ctx, websocket.TextMessage, msg); err != nil {
		return fmt.Errorf("slacktest: socket send: %w", err)
	}
	return nil
}

// Disconnect asks the app to reconnect, as Slack does before it retires a
// connection (reason such as "refresh_requested" or "warning"). The app
// is expected to open a new connection and close this one.
func (c *SocketConn) Disconnect(ctx context.Context, reason string) error {
	b, _ := json.Marshal(map[string]any{
		"type":       "disconnect",
		"reason":     reason,
		"debug_info": map[string]any{"host": "applink-slacktest"},
	})
	return c.SendRaw(ctx, b)
}

// Close drops the connection without a word, as a network failure would.
// It may be called more than once.
func (c *SocketConn) Close() {
	c.closeOnce.Do(func() { _ = c.ws.Close() })
}

// Acks returns the acknowledgements received on this connection, oldest
// first.
func (c *SocketConn) Acks() []SocketAck {
	c.hub.mu.Lock()
	defer c.hub.mu.Unlock()
	out := make([]SocketAck, len(c.acks))
	copy(out, c.acks)
	return out
}

// WaitAck waits for the app to acknowledge envelopeID on this connection
// and returns the ack, or returns an error once ctx ends or the connection
// closes without it.
func (c *SocketConn) WaitAck(ctx context.Context, envelopeID string) (SocketAck, error) {
	for {
		c.hub.mu.Lock()
		changed := c.hub.changed
		for _, a := range c.acks {
			if a.EnvelopeID == envelopeID {
				c.hub.mu.Unlock()
				return a, nil
			}
		}
		c.hub.mu.Unlock()
		select {
		case <-changed:
		case <-c.done:
			// The last frames may have been recorded just before the
			// close; look once more.
			for _, a := range c.Acks() {
				if a.EnvelopeID == envelopeID {
					return a, nil
				}
			}
			return SocketAck{}, fmt.Errorf("slacktest: connection %d closed before envelope %s was acked", c.n, envelopeID)
		case <-ctx.Done():
			return SocketAck{}, fmt.Errorf("slacktest: wait for ack of %s: %w", envelopeID, context.Cause(ctx))
		}
	}
}

func (c *SocketConn) write(ctx context.Context, kind int, msg []byte) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(socketWriteTimeout)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.ws.SetWriteDeadline(deadline); err != nil {
		return err
	}
	return c.ws.WriteMessage(kind, msg)
}

// readLoop records what the app sends until the connection ends.
func (c *SocketConn) readLoop() {
	defer c.hub.wg.Done()
	defer func() {
		c.Close()
		c.hub.mu.Lock()
		close(c.done)
		c.hub.signalLocked()
		c.hub.mu.Unlock()
	}()
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var f struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		_ = json.Unmarshal(msg, &f) // a frame that is not an ack is recorded as one with no ID
		a := SocketAck{EnvelopeID: f.EnvelopeID, Raw: json.RawMessage(msg)}
		if len(f.Payload) > 0 && string(f.Payload) != "null" {
			a.Payload = f.Payload
		}
		c.hub.mu.Lock()
		c.acks = append(c.acks, a)
		c.hub.signalLocked()
		c.hub.mu.Unlock()
	}
}

// pingLoop pings the app, as Slack does, until the connection ends.
func (c *SocketConn) pingLoop() {
	defer c.hub.wg.Done()
	t := time.NewTicker(socketPingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			// WriteControl may run alongside WriteMessage.
			if err := c.ws.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(socketWriteTimeout)); err != nil {
				c.Close()
				return
			}
		}
	}
}
