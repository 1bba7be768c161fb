package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
)

// Logging
//
// Every request from Slack, over HTTP or Socket Mode, gets a random request
// ID in its context, and every log line written with that context, or one
// derived from it (the follow-up work after the ack included), carries it
// as request_id, so one grep finds all a request did. The bot never logs a
// secret, token, signature or request body; errors are logged as their
// message, which for Slack and records API failures names a code or a
// status, not the payload.

type requestIDKey struct{}

// WithRequestID returns ctx carrying a new random request ID (16 hex
// digits). The ID is not a secret; it only ties log lines together.
func WithRequestID(ctx context.Context) context.Context {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error
	return context.WithValue(ctx, requestIDKey{}, hex.EncodeToString(b[:]))
}

// RequestID returns the request ID ctx carries, or "" when it carries none.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// RequestIDHandler wraps h so that each record logged with a context that
// carries a request ID gets it as the attribute request_id. Records logged
// without one (start-up, shutdown, readiness) pass through unchanged. In a
// logger that has opened a group with WithGroup, the ID is inside that
// group, as any attribute added there would be.
func RequestIDHandler(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		// The record may be shared with other handlers; add to a copy.
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
