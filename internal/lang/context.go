package lang

import "context"

// ctxKey keys the reader's language in a context.
type ctxKey struct{}

// NewContext returns ctx carrying l, the language of the person a request
// answers. The bot sets it once, at the edge, from the person's Slack
// locale, so that every word of the answer (errors included) is in it.
func NewContext(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// FromContext is the language NewContext put in ctx; English when none
// was.
func FromContext(ctx context.Context) Lang {
	l, _ := ctx.Value(ctxKey{}).(Lang)
	return l
}
