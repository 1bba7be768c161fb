// Package requestid ties the log lines of one request together: every
// request from Slack, over HTTP or Socket Mode, gets a random ID in its
// context, and every line logged with that context, or one derived from
// it (the follow-up work after the ack included), carries it as
// request_id, so one grep finds all a request did. It is process
// infrastructure, not the Slack edge: the bot gives out the IDs, main's
// logger writes them.
package requestid

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"net/http"
)

type key struct{}

// New returns ctx carrying a new random request ID (16 hex digits). The ID
// is not a secret; it only ties log lines together, so math/rand/v2's
// generator (seeded by the runtime, no error to handle) is enough.
//
// Every request from Slack gets one and few are ever logged, so the ID is
// kept as a number in one small context of its own and written out only
// when From asks: one allocation a request, rather than the string, its
// boxing and context.WithValue's node.
func New(ctx context.Context) context.Context {
	return &idContext{Context: ctx, id: rand.Uint64()}
}

// idContext is a context carrying a request ID.
type idContext struct {
	context.Context
	id uint64
}

func (c *idContext) Value(k any) any {
	if k == (key{}) {
		return c
	}
	return c.Context.Value(k)
}

// From returns the request ID ctx carries, or "" when it carries none.
func From(ctx context.Context) string {
	c, _ := ctx.Value(key{}).(*idContext)
	if c == nil {
		return ""
	}
	var b [8]byte
	return hex.EncodeToString(binary.BigEndian.AppendUint64(b[:0], c.id))
}

// Middleware gives every HTTP request an ID (New).
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(New(r.Context())))
	})
}

// LogHandler wraps h so that each record logged with a context that
// carries a request ID gets it as the attribute request_id. Records logged
// without one (start-up, shutdown, dependency checks) pass through
// unchanged. In a logger that has opened a group with WithGroup, the ID is
// inside that group, as any attribute added there would be.
func LogHandler(h slog.Handler) slog.Handler { return handler{h} }

type handler struct{ slog.Handler }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	if id := From(ctx); id != "" {
		// The record may be shared with other handlers; add to a copy.
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler { return handler{h.Handler.WithAttrs(as)} }

func (h handler) WithGroup(name string) slog.Handler { return handler{h.Handler.WithGroup(name)} }
