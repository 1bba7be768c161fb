package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// ErrSocketAuth is returned by RunSocketMode when Slack refuses the
// app-level token. No retry fixes that, so the process should end and say
// so; the error names Slack's code, such as "invalid_auth".
var ErrSocketAuth = errors.New("slack refused SLACK_APP_TOKEN: check that it is the app-level token (xapp-…) with the connections:write scope and that Socket Mode is on")

const (
	// socketAckTimeout bounds handing an ack to the connection. Slack
	// gives up on an envelope after 3 s, so an ack that cannot leave by
	// then is useless; the bound keeps a broken connection from holding
	// handlers forever.
	socketAckTimeout = 3 * time.Second
	// maxSocketAckBytes is Slack's limit on a Socket Mode response: it
	// silently drops larger ones (and slack-go refuses to send them).
	maxSocketAckBytes = 20 * 1024
	// socketFlushDelay is how long a drained connection stays open so
	// slack-go's writer can send the acks just queued: its Ack returns once
	// the ack is queued, not written, and offers no way to wait for the
	// queue to empty. Writing a few frames takes microseconds.
	socketFlushDelay = 250 * time.Millisecond
)

// RunSocketMode receives Slack's traffic over Socket Mode
// (apps.connections.open, then a websocket) instead of HTTP and hands each
// envelope to the same dispatchers as POST /slack/events, so both transports
// share one code path: the ack carries the reply when it is ready within the
// ack budget, and otherwise the result follows through response_url.
//
// api must carry the app-level token (slack.OptionAppLevelToken). slack-go
// reconnects by itself, with backoff, whenever Slack asks it to or the
// connection drops; each reconnection is logged.
//
// When ctx ends, RunSocketMode stops handing out new envelopes, waits (for
// at most the ack budget plus a few seconds) until the ones in flight have
// been acked, closes the connection and returns nil. Envelopes that arrive
// after that point are left unacknowledged, for Slack to redeliver or report.
// Follow-ups still pending are [Server.Wait]'s business.
//
// It returns an error wrapping [ErrSocketAuth] when Slack refuses the token,
// and any other error on which slack-go gives up.
func (s *Server) RunSocketMode(ctx context.Context, api *slack.Client) error {
	// The connection outlives ctx by the drain, so acks for envelopes in
	// flight still reach Slack; it is closed by closeConn alone.
	connCtx, closeConn := context.WithCancel(context.WithoutCancel(ctx))
	defer closeConn()
	client := socketmode.New(api, socketmode.OptionLog(slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)))
	runErr := make(chan error, 1)
	go func() { runErr <- client.RunContext(connCtx) }()

	var handling sync.WaitGroup
	for {
		select {
		case evt := <-client.Events:
			if err := s.socketEvent(ctx, client, evt, &handling); err != nil {
				closeConn()
				<-runErr
				handling.Wait()
				return err
			}
		case err := <-runErr:
			// The connection is gone for good; acks in flight time out.
			handling.Wait()
			return socketRunError(err)
		case <-ctx.Done():
			s.socketDrain(client, &handling, closeConn, runErr)
			return nil
		}
	}
}

// socketDrain finishes a Socket Mode run whose context has ended: it waits
// until the envelopes being handled have been acked (bounded), meanwhile
// refusing new ones, then closes the connection.
func (s *Server) socketDrain(client *socketmode.Client, handling *sync.WaitGroup, closeConn context.CancelFunc, runErr <-chan error) {
	s.log.Info("socket mode: stopping; acknowledging envelopes in flight")
	// No handler is started from here on, so Wait cannot race an Add.
	drained := make(chan struct{})
	go func() { handling.Wait(); close(drained) }()
	bound := time.NewTimer(s.cfg.AckBudget + socketAckTimeout)
	defer bound.Stop()
	connDone := false
	for {
		select {
		case <-drained:
			if !connDone {
				time.Sleep(socketFlushDelay)
			}
			closeConn()
			if !connDone {
				<-runErr
			}
			s.log.Info("socket mode: closed")
			return
		case <-bound.C:
			s.log.Warn("socket mode: envelopes still in flight at shutdown; closing anyway")
			closeConn()
			if !connDone {
				<-runErr
			}
			<-drained // each handler ends within socketAckTimeout once the connection is gone
			return
		case err := <-runErr:
			connDone = true
			runErr = nil // a nil channel: this case never fires again
			if err != nil && !errors.Is(err, context.Canceled) {
				s.log.Warn("socket mode: connection ended during shutdown", "error", err)
			}
		case evt := <-client.Events:
			if id := envelopeID(evt); id != "" {
				s.log.Warn("socket mode: envelope arrived during shutdown; left for Slack to redeliver", "envelope_id", id, "type", string(evt.Type))
				s.deps.Metrics.SocketEnvelope(string(evt.Type), "shutdown")
			}
		}
	}
}

// envelopeID returns the envelope ID of a request event, or "".
func envelopeID(evt socketmode.Event) string {
	if evt.Request != nil {
		return evt.Request.EnvelopeID
	}
	if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok {
		var env struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if json.Unmarshal(bad.Message, &env) != nil {
			return "" // nothing unreadable can be acknowledged
		}
		return env.EnvelopeID
	}
	return ""
}

// socketEvent handles one event from slack-go: it logs the connection's
// life and starts a handler for each envelope. It returns an error only
// when Socket Mode cannot go on.
func (s *Server) socketEvent(ctx context.Context, client *socketmode.Client, evt socketmode.Event, handling *sync.WaitGroup) error {
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		s.deps.Metrics.SocketConnected(false)
		if c, ok := evt.Data.(*slack.ConnectingEvent); ok && c.ConnectionCount > 0 && c.Attempt == 1 {
			s.log.InfoContext(ctx, "socket mode: reconnecting", "connection", c.ConnectionCount+1)
		} else {
			s.log.DebugContext(ctx, "socket mode: connecting")
		}
	case socketmode.EventTypeConnected:
		s.deps.Metrics.SocketConnected(true)
		n := 1
		if c, ok := evt.Data.(*socketmode.ConnectedEvent); ok {
			n = c.ConnectionCount + 1
		}
		s.log.InfoContext(ctx, "socket mode: connected", "connection", n)
	case socketmode.EventTypeConnectionError:
		var cause error
		attrs := []any{}
		if c, ok := evt.Data.(*slack.ConnectionErrorEvent); ok {
			cause = c.ErrorObj
			attrs = append(attrs, "attempt", c.Attempt, "backoff", c.Backoff)
		}
		if code := slackapi.ErrorCode(cause); isSocketAuthCode(code) {
			// slack-go would retry some of these (not_allowed_token_type,
			// missing_scope) forever; no retry can fix a token.
			return fmt.Errorf("%w (%s)", ErrSocketAuth, code)
		}
		s.log.WarnContext(ctx, "socket mode: connection failed; retrying", append(attrs, "error", fmt.Sprint(cause))...)
	case socketmode.EventTypeInvalidAuth:
		return fmt.Errorf("%w (apps.connections.open answered 404)", ErrSocketAuth)
	case socketmode.EventTypeIncomingError:
		s.log.WarnContext(ctx, "socket mode: unreadable frame", "error", fmt.Sprint(evt.Data))
	case socketmode.EventTypeErrorWriteFailed:
		if w, ok := evt.Data.(*socketmode.ErrorWriteFailed); ok {
			id := ""
			if w.Response != nil {
				id = w.Response.EnvelopeID
			}
			s.log.ErrorContext(ctx, "socket mode: ack could not be written", "envelope_id", id, "error", w.Cause)
		}
		s.deps.Metrics.SocketEnvelope("", "ack_failed")
	case socketmode.EventTypeHello:
		attrs := []any{}
		if evt.Request != nil {
			attrs = append(attrs, "connections", evt.Request.NumConnections)
		}
		s.log.DebugContext(ctx, "socket mode: hello", attrs...)
	case socketmode.EventTypeErrorBadMessage:
		env, ok := badEnvelope(evt)
		if !ok {
			s.log.WarnContext(ctx, "socket mode: unreadable message without envelope id; cannot ack it")
			s.deps.Metrics.SocketEnvelope("", "unreadable")
			return nil
		}
		// slack-go could not parse it (say, an interaction whose blocks
		// hold an element type it does not know). It is still acked, or
		// Slack would redeliver it forever, and still handled: the bot's
		// own decoders read only what they need.
		s.goHandle(ctx, client, env, handling)
	case socketmode.EventTypeSlashCommand, socketmode.EventTypeInteractive, socketmode.EventTypeEventsAPI:
		if evt.Request == nil {
			return nil
		}
		s.goHandle(ctx, client, socketEnvelope{
			ID: evt.Request.EnvelopeID, Type: evt.Request.Type, Payload: evt.Request.Payload, RetryAttempt: evt.Request.RetryAttempt,
		}, handling)
	default:
		s.log.DebugContext(ctx, "socket mode: event", "type", string(evt.Type))
	}
	return nil
}

// isSocketAuthCode reports whether a Slack error code from
// apps.connections.open means the token itself is refused.
func isSocketAuthCode(code string) bool {
	switch code {
	case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired",
		"not_allowed_token_type", "missing_scope":
		return true
	}
	return false
}

// socketRunError explains why slack-go's Run gave up.
func socketRunError(err error) error {
	if err == nil {
		return errors.New("socket mode: connection ended")
	}
	if code := slackapi.ErrorCode(err); isSocketAuthCode(code) {
		return fmt.Errorf("%w (%s)", ErrSocketAuth, code)
	}
	var sc slack.StatusCodeError
	if errors.As(err, &sc) && sc.Code == http.StatusNotFound {
		return fmt.Errorf("%w (apps.connections.open answered 404)", ErrSocketAuth)
	}
	return fmt.Errorf("socket mode: %w", err)
}

// socketEnvelope is one request from Slack over Socket Mode.
type socketEnvelope struct {
	ID           string
	Type         string
	Payload      json.RawMessage
	RetryAttempt int
	// unparsed is why slack-go could not parse the envelope; nil when it
	// could.
	unparsed error
}

// badEnvelope reads the envelope out of a message slack-go could not parse.
func badEnvelope(evt socketmode.Event) (socketEnvelope, bool) {
	bad, ok := evt.Data.(*socketmode.ErrorBadMessage)
	if !ok {
		return socketEnvelope{}, false
	}
	var env struct {
		EnvelopeID   string          `json:"envelope_id"`
		Type         string          `json:"type"`
		Payload      json.RawMessage `json:"payload"`
		RetryAttempt int             `json:"retry_attempt"`
	}
	if err := json.Unmarshal(bad.Message, &env); err != nil || env.EnvelopeID == "" {
		return socketEnvelope{}, false
	}
	return socketEnvelope{ID: env.EnvelopeID, Type: env.Type, Payload: env.Payload, RetryAttempt: env.RetryAttempt, unparsed: bad.Cause}, true
}

// goHandle handles env on a goroutine of its own, as net/http serves each
// request on one: a slow command must not hold up the envelopes behind it,
// each of which Slack wants acked within 3 s.
func (s *Server) goHandle(ctx context.Context, client *socketmode.Client, env socketEnvelope, handling *sync.WaitGroup) {
	handling.Add(1)
	go func() {
		defer handling.Done()
		// Like an HTTP request's, the work must not stop when shutdown
		// begins; it has its own bounds. The request ID is on every log
		// line of this envelope, follow-ups included.
		ctx := requestid.New(context.WithoutCancel(ctx))
		defer func() {
			// There is no HTTP recoverer on this path. Unacked, the
			// envelope fails as a 500 would over HTTP.
			if v := recover(); v != nil {
				s.log.ErrorContext(ctx, "panic in socket mode handler", "panic", v, "type", env.Type)
			}
		}()
		s.handleEnvelope(ctx, client, env)
	}()
}

// handleEnvelope dispatches one envelope and acks it with the reply.
func (s *Server) handleEnvelope(ctx context.Context, client *socketmode.Client, env socketEnvelope) {
	if env.unparsed != nil {
		s.log.InfoContext(ctx, "socket mode: slack-go could not parse an envelope; handling it directly",
			"envelope_id", env.ID, "type", env.Type, "cause", env.unparsed.Error())
	} else {
		s.log.DebugContext(ctx, "socket mode: envelope", "envelope_id", env.ID, "type", env.Type, "retry", env.RetryAttempt)
	}
	var body ack
	var responseURL string
	switch env.Type {
	case socketmode.RequestTypeSlashCommands:
		var cmd slack.SlashCommand
		if err := json.Unmarshal(env.Payload, &cmd); err != nil {
			s.log.WarnContext(ctx, "socket mode: malformed slash command", "error", err)
			s.deps.Metrics.Request(metrics.Command, "malformed", "error")
			break
		}
		responseURL = cmd.ResponseURL
		body = s.dispatchSlash(ctx, cmd)
	case socketmode.RequestTypeInteractive:
		body = s.dispatchInteraction(ctx, env.Payload)
	case socketmode.RequestTypeEventsAPI:
		body = s.dispatchEvent(ctx, env.Payload, env.RetryAttempt)
	default:
		// Acked all the same: Slack would otherwise redeliver what this
		// version of the bot does not understand.
		s.log.InfoContext(ctx, "socket mode: envelope type not handled", "type", env.Type)
	}
	s.socketAck(ctx, client, env, body, responseURL)
}

// socketAck acknowledges env with body. A reply over Slack's 20 KB limit
// for a Socket Mode response is sent to responseURL instead, as it would
// otherwise be lost without a word.
func (s *Server) socketAck(ctx context.Context, client *socketmode.Client, env socketEnvelope, body ack, responseURL string) {
	if body != nil {
		b, err := json.Marshal(socketmode.Response{EnvelopeID: env.ID, Payload: body})
		switch {
		case err != nil:
			s.log.ErrorContext(ctx, "socket mode: encode reply", "error", err) // only a bug gets here
			body = nil
		case len(b) >= maxSocketAckBytes:
			body = s.replyTooLarge(ctx, body, len(b), responseURL)
		}
	}
	actx, cancel := context.WithTimeout(ctx, socketAckTimeout)
	defer cancel()
	if err := client.AckCtx(actx, env.ID, body); err != nil {
		s.log.ErrorContext(ctx, "socket mode: ack failed", "envelope_id", env.ID, "error", err)
		s.deps.Metrics.SocketEnvelope(env.Type, "ack_failed")
		return
	}
	s.deps.Metrics.SocketEnvelope(env.Type, "acked")
}

// replyTooLarge sends a reply too large for an ack through responseURL and
// returns the (empty) ack to send instead.
func (s *Server) replyTooLarge(ctx context.Context, body ack, size int, responseURL string) ack {
	if responseURL == "" {
		s.log.ErrorContext(ctx, "socket mode: reply too large for an ack and no response_url; dropped", "bytes", size)
		return nil
	}
	s.log.InfoContext(ctx, "socket mode: reply too large for an ack; sending it through response_url", "bytes", size)
	s.background(ctx, func(ctx context.Context) {
		if err := s.postResponse(ctx, responseURL, body); err != nil {
			s.log.ErrorContext(ctx, "socket mode: reply through response_url failed", "error", err)
		}
	})
	return nil
}
