package health

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Outage logs the failures of one dependency as a few lines, however many
// requests meet them: a warning when it goes down (with the reason), a
// reminder every Remind while it stays down (with how many failures since
// the last line), and one line when it is back. A store that is down for
// every request of a busy bot would otherwise write a line per request
// (6,677 lines in 7 s were seen). It is safe for concurrent use.
type Outage struct {
	log    *slog.Logger
	name   string
	remind time.Duration
	now    func() time.Time

	mu     sync.Mutex
	down   bool
	last   time.Time // the last line logged
	failed int       // failures since then
	// onDown, when set (Checker.SetOutage), hears each change to down
	// after the line is logged, so that what the gauge says never lags
	// what the log says.
	onDown func(err error)
}

// DefaultRemind is how often an outage is logged again while it lasts.
const DefaultRemind = 5 * time.Minute

// NewOutage returns an outage log for the dependency name; remind <= 0
// means DefaultRemind.
func NewOutage(log *slog.Logger, name string, remind time.Duration) *Outage {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Outage{log: log, name: name, remind: or(remind, DefaultRemind), now: time.Now}
}

// Failed reports one failure of the dependency.
func (o *Outage) Failed(ctx context.Context, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	o.failed++
	switch {
	case !o.down:
		o.down, o.last = true, now
		o.log.WarnContext(ctx, "dependency down", "dependency", o.name, "reason", err.Error())
		o.failed = 0
		if o.onDown != nil {
			o.onDown(err)
		}
	case now.Sub(o.last) >= o.remind:
		// The reason is the latest; it may differ from request to
		// request (it names what was being done), so it is no cause for
		// a line of its own.
		o.log.WarnContext(ctx, "dependency still down", "dependency", o.name, "reason", err.Error(),
			"failures", o.failed, "since_last_line", now.Sub(o.last).String())
		o.last, o.failed = now, 0
	}
}

// OK reports that the dependency worked.
func (o *Outage) OK(ctx context.Context) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.down {
		o.log.InfoContext(ctx, "dependency up", "dependency", o.name, "failures", o.failed)
		o.down, o.failed = false, 0
	}
}
