package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
)

// ReadinessProbe is what readiness checks: a records API that answers and a
// Slack token that works.
type ReadinessProbe struct {
	records interface {
		ListMeetings(context.Context, *apiclient.ListMeetingsOptions) (*apiclient.MeetingPage, error)
	}
	slack interface {
		AuthTestContext(context.Context) (*slack.AuthTestResponse, error)
	}
	log      *slog.Logger
	Interval time.Duration // between checks; default 30 s

	mu  sync.Mutex
	err error
}

// NewReadiness returns a probe that is not ready until its first check.
func NewReadiness(records Records, api SlackAPI, log *slog.Logger) *ReadinessProbe {
	return &ReadinessProbe{records: records, slack: api, log: log, Interval: 30 * time.Second, err: errors.New("starting")}
}

// Err is nil when ready, else the reason.
func (p *ReadinessProbe) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Check runs both checks once and records the result.
func (p *ReadinessProbe) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var errs []error
	if _, err := p.slack.AuthTestContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("slack auth.test: %w", err))
	}
	// A 403 still proves the service is up and the key valid; anything
	// that means "unreachable" or "key refused" does not.
	if _, err := p.records.ListMeetings(ctx, nil); err != nil && !errors.Is(err, apiclient.ErrForbidden) && !errors.Is(err, apiclient.ErrNotFound) {
		errs = append(errs, fmt.Errorf("records api: %w", err))
	}
	err := errors.Join(errs...)
	p.mu.Lock()
	was := p.err
	p.err = err
	p.mu.Unlock()
	switch {
	case err != nil && (was == nil || was.Error() != err.Error()):
		p.log.WarnContext(ctx, "not ready", "reason", err.Error())
	case err == nil && was != nil:
		p.log.InfoContext(ctx, "ready")
	}
	return err
}

// Run checks now and then every Interval until ctx ends.
func (p *ReadinessProbe) Run(ctx context.Context) {
	t := time.NewTicker(p.Interval)
	defer t.Stop()
	for {
		p.Check(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
