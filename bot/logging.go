package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
)

type requestIDKey struct{}

// WithRequestID returns ctx carrying a new random request ID, which every
// log line written with that context (or one derived from it, including
// follow-up work after the ack) carries as request_id.
func WithRequestID(ctx context.Context) context.Context {
	var b [8]byte
	rand.Read(b[:])
	return context.WithValue(ctx, requestIDKey{}, hex.EncodeToString(b[:]))
}

// RequestIDHandler wraps h so records carry the context's request ID.
func RequestIDHandler(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok {
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
