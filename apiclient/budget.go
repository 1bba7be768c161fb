package apiclient

import "context"

// CallBudget limits the requests a caller may send; *rate.Limiter from
// golang.org/x/time/rate implements it.
type CallBudget interface {
	// Allow reports whether one more request may be sent now, and takes
	// it from the budget when so.
	Allow() bool
}

type budgetKey struct{}

// WithCallBudget returns ctx carrying b: every request a Client sends on
// it (retries included, and on a context detached from it with
// context.WithoutCancel, as shared caches do) first takes one from b, and
// a call b refuses fails at once with ErrOverBudget, sending nothing. The
// bot lends its public pages a budget this way, so that outside traffic
// cannot use up the records quota its Slack users share.
func WithCallBudget(ctx context.Context, b CallBudget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// withinBudget reports whether ctx's budget, if any, allows one more
// request.
func withinBudget(ctx context.Context) bool {
	b, ok := ctx.Value(budgetKey{}).(CallBudget)
	return !ok || b.Allow()
}
