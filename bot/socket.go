package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// ErrSocketAuth is returned by RunSocketMode when Slack refuses the
// app-level token; the process should end and say so.
var ErrSocketAuth = errors.New("slack refused SLACK_APP_TOKEN (invalid_auth): check the app-level token and that Socket Mode is on")

// RunSocketMode receives Slack's traffic over a Socket Mode websocket
// (apps.connections.open) instead of HTTP and hands each envelope to the
// same dispatchers as POST /slack/events. It returns when ctx ends, or with
// an error when the connection cannot be (re)established.
func (s *Server) RunSocketMode(ctx context.Context, api *slack.Client) error {
	client := socketmode.New(api, socketmode.OptionLog(slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	authErr := make(chan error, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case evt, ok := <-client.Events:
				if !ok {
					return
				}
				if evt.Type == socketmode.EventTypeInvalidAuth {
					authErr <- ErrSocketAuth
					cancel()
					return
				}
				s.socketEvent(ctx, client, evt)
			}
		}
	}()
	err := client.RunContext(ctx)
	select {
	case e := <-authErr:
		return e
	default:
	}
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("socket mode: %w", err)
	}
	return nil
}

// socketAcker is the part of *socketmode.Client the dispatcher needs.
type socketAcker interface {
	Ack(req socketmode.Request, payload ...any) error
}

// socketEvent handles one Socket Mode event: acks carry the reply when it
// is ready within the budget, exactly like the HTTP answer.
func (s *Server) socketEvent(ctx context.Context, client socketAcker, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		s.log.InfoContext(ctx, "socket mode: connecting")
		return
	case socketmode.EventTypeConnected:
		s.log.InfoContext(ctx, "socket mode: connected")
		return
	case socketmode.EventTypeConnectionError:
		s.log.WarnContext(ctx, "socket mode: connection error, reconnecting", "error", fmt.Sprint(evt.Data))
		return
	case socketmode.EventTypeHello, socketmode.EventTypeDisconnect:
		s.log.DebugContext(ctx, "socket mode", "event", string(evt.Type))
		return
	case socketmode.EventTypeErrorBadMessage:
		s.socketBadMessage(ctx, client, evt)
		return
	}
	if evt.Request == nil {
		return
	}
	s.socketRequest(ctx, client, evt.Request.EnvelopeID, evt.Request.Type, evt.Request.Payload, evt.Request.RetryAttempt)
}

// socketRequest dispatches one envelope and acks it with the reply.
func (s *Server) socketRequest(ctx context.Context, client socketAcker, envelopeID, typ string, payload json.RawMessage, retry int) {
	var body ack
	switch typ {
	case socketmode.RequestTypeSlashCommands:
		var cmd slack.SlashCommand
		if err := json.Unmarshal(payload, &cmd); err != nil {
			s.log.WarnContext(ctx, "socket mode: bad slash command payload", "error", err)
		} else {
			body = s.dispatchSlash(ctx, cmd)
		}
	case socketmode.RequestTypeInteractive:
		body = s.dispatchInteraction(ctx, payload)
	case socketmode.RequestTypeEventsAPI:
		body = s.dispatchEvent(ctx, payload, retry)
	default:
		s.log.DebugContext(ctx, "socket mode: envelope ignored", "type", typ)
	}
	req := socketmode.Request{EnvelopeID: envelopeID}
	var err error
	if body != nil {
		err = client.Ack(req, body)
	} else {
		err = client.Ack(req)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "socket mode: ack failed", "envelope", envelopeID, "error", err)
	}
}

// socketBadMessage handles an envelope slack-go could not parse (such as an
// interaction whose blocks hold an element type it does not know). It is
// still acked, or Slack would redeliver it forever, and still dispatched:
// the bot's own decoders are tolerant.
func (s *Server) socketBadMessage(ctx context.Context, client socketAcker, evt socketmode.Event) {
	bad, ok := evt.Data.(*socketmode.ErrorBadMessage)
	if !ok {
		return
	}
	var env struct {
		EnvelopeID   string          `json:"envelope_id"`
		Type         string          `json:"type"`
		Payload      json.RawMessage `json:"payload"`
		RetryAttempt int             `json:"retry_attempt"`
	}
	if err := json.Unmarshal(bad.Message, &env); err != nil || env.EnvelopeID == "" {
		s.log.WarnContext(ctx, "socket mode: unreadable message without envelope id", "cause", fmt.Sprint(bad.Cause))
		return
	}
	s.log.InfoContext(ctx, "socket mode: slack-go could not parse an envelope; handling it directly", "type", env.Type, "cause", fmt.Sprint(bad.Cause))
	s.socketRequest(ctx, client, env.EnvelopeID, env.Type, env.Payload, env.RetryAttempt)
}
