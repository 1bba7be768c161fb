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

// errStarting is the readiness of a probe that has not checked yet.
var errStarting = errors.New("starting: dependencies not checked yet")

// ReadinessProbe decides whether this replica should get traffic: it is
// ready while the records API answers, Slack accepts the bot token
// (auth.test) and, once SetStore was called, the store answers Ping. Build it with [NewReadiness]; [ReadinessProbe.Err] is what
// GET /readyz reports.
//
// /healthz (liveness) checks none of this on purpose: a records outage
// should take replicas out of the load balancer, not get them restarted.
type ReadinessProbe struct {
	records interface {
		ListMeetings(context.Context, *apiclient.ListMeetingsOptions) (*apiclient.MeetingPage, error)
	}
	slack interface {
		AuthTestContext(context.Context) (*slack.AuthTestResponse, error)
	}
	// store, when set (SetStore), must answer Ping too.
	store   interface{ Ping(context.Context) error }
	log     *slog.Logger
	metrics *Metrics

	// Interval is the time between checks while ready. Default 30 s.
	Interval time.Duration
	// RetryInterval is the time between checks while not ready, shorter so
	// that a replica comes back soon after its dependency does. Default 5 s.
	RetryInterval time.Duration
	// Timeout bounds each check. Default 5 s.
	Timeout time.Duration

	mu  sync.Mutex
	err error
}

// NewReadiness returns a probe of records and api that is not ready until
// its first check. m, which may be nil, gets recordsbot_dependency_up.
func NewReadiness(records Records, api SlackAPI, log *slog.Logger, m *Metrics) *ReadinessProbe {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &ReadinessProbe{
		records: records, slack: api, log: log, metrics: m,
		Interval: 30 * time.Second, RetryInterval: 5 * time.Second, Timeout: 5 * time.Second,
		err: errStarting,
	}
}

// SetStore makes the store part of readiness: a replica whose store does
// not answer Ping cannot follow, unfollow or save settings, so it should
// get no traffic. Call it before Run.
func (p *ReadinessProbe) SetStore(s interface{ Ping(context.Context) error }) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.store = s
}

// Err is nil when ready, else the reason, such as "records api: …".
func (p *ReadinessProbe) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Check checks both dependencies once, at the same time so that a slow one
// does not eat the other's timeout, records the result and returns it.
// A change of state is logged once.
func (p *ReadinessProbe) Check(ctx context.Context) error {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p.mu.Lock()
	st := p.store
	p.mu.Unlock()
	var slackErr, recordsErr, storeErr error
	var wg sync.WaitGroup
	wg.Go(func() { slackErr = p.checkSlack(ctx) })
	wg.Go(func() { recordsErr = p.checkRecords(ctx) })
	if st != nil {
		wg.Go(func() {
			if err := st.Ping(ctx); err != nil {
				storeErr = fmt.Errorf("store: %w", err)
			}
		})
	}
	wg.Wait()
	p.metrics.dependency("slack", slackErr == nil)
	p.metrics.dependency("records", recordsErr == nil)
	if st != nil {
		p.metrics.dependency("store", storeErr == nil)
	}
	err := errors.Join(slackErr, recordsErr, storeErr)

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

// checkSlack fails when auth.test does: a refused token (invalid_auth,
// token_revoked…) or no answer from Slack. Being rate limited proves the
// opposite, so it passes.
func (p *ReadinessProbe) checkSlack(ctx context.Context) error {
	_, err := p.slack.AuthTestContext(ctx)
	if err == nil || isRateLimited(err) {
		return nil
	}
	return fmt.Errorf("slack auth.test: %w", err)
}

// checkRecords lists the first page of meetings. Any answer that proves the
// service is up and the key accepted passes, including a 403 (a key
// without meetings:read still serves actions), a 404 and a 429; a refused
// key, a 5xx or no answer fails.
func (p *ReadinessProbe) checkRecords(ctx context.Context) error {
	_, err := p.records.ListMeetings(ctx, nil)
	switch {
	case err == nil, errors.Is(err, apiclient.ErrForbidden), errors.Is(err, apiclient.ErrNotFound), errors.Is(err, apiclient.ErrRateLimited):
		return nil
	}
	return fmt.Errorf("records api: %w", err)
}

// Run checks now, then every Interval while ready and every RetryInterval
// while not, until ctx ends.
func (p *ReadinessProbe) Run(ctx context.Context) {
	for {
		next := p.Interval
		if p.Check(ctx) != nil && p.RetryInterval > 0 && p.RetryInterval < next {
			next = p.RetryInterval
		}
		if next <= 0 {
			next = 30 * time.Second
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
