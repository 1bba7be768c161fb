package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/audit"
)

// DefaultRetention is how long the store keeps what it no longer needs by
// default (RETENTION_DAYS 90): longer than the watcher's 60-day lookback,
// so nothing pruned can be announced or sent again.
const DefaultRetention = 90 * 24 * time.Hour

// MinRetention is the shortest retention Prune accepts: the watcher reads
// meetings up to 60 days back, and an announcement pruned while its meeting
// is still read would be announced again.
const MinRetention = 62 * 24 * time.Hour

// Pruned counts what PruneBefore deleted.
type Pruned struct {
	// Ledger is done ledger entries (announcements, DMs, reminders,
	// reports, prunes) done before the cut-off.
	Ledger int64
	// SeenActions is actions last seen before the cut-off (closed or
	// deleted long ago; the watcher forgets most of them sooner).
	SeenActions int64
	// Announcements is announcements last updated before the cut-off,
	// of meetings older than the watcher reads.
	Announcements int64
	// CalendarEvents is calendar events no feed has shown since the
	// cut-off; CalendarTokens private calendar tokens neither made nor
	// polled since.
	CalendarEvents, CalendarTokens int64
	// Steered is snoozes that ended, and times away caught up, before
	// the cut-off.
	Steered int64
	// Audit is audit entries older than the audit retention
	// (WithAuditRetention), replaced by a checkpoint.
	Audit int64
	// AuditHead is the audit trail as verified before it was pruned.
	AuditHead audit.Head
}

// String is the counts as "pruned 3 ledger entries, 0 seen actions, 1
// announcements, 0 calendar events, 0 calendar tokens, 0 audit entries
// (audit trail verified: …)".
func (p Pruned) String() string {
	return fmt.Sprintf("pruned %d ledger entries, %d seen actions, %d announcements, %d snoozes and times away, %d calendar events, %d calendar tokens, %d audit entries (audit trail verified: %s)",
		p.Ledger, p.SeenActions, p.Announcements, p.Steered, p.CalendarEvents, p.CalendarTokens, p.Audit, p.AuditHead)
}

// PruneBefore deletes what is older than before and no longer needed:
// done ledger entries (Prune), seen actions, announcements, ended snoozes
// and times away caught up, calendar events and unused private calendar
// tokens. Claims not
// done, follows, settings and the watcher's state are kept. Errors:
// ErrUnavailable when the store is down; what went before an error is
// counted.
func (s *Store) PruneBefore(ctx context.Context, before time.Time) (Pruned, error) {
	var p Pruned
	var err error
	if p.Ledger, err = s.Prune(ctx, before); err != nil {
		return p, err
	}
	if p.SeenActions, err = s.ForgetAssigneesSeenBefore(ctx, before); err != nil {
		return p, err
	}
	if p.Steered, err = s.pruneSteered(ctx, before); err != nil {
		return p, err
	}
	res, err := s.conn().ExecContext(ctx, s.q("DELETE FROM announcements WHERE updated_at < ?"), ms(before))
	if err != nil {
		return p, s.wrap("prune announcements", err)
	}
	if p.Announcements, err = res.RowsAffected(); err != nil {
		return p, s.wrap("prune announcements", err)
	}
	p.CalendarEvents, p.CalendarTokens, err = s.pruneCalendar(ctx, before)
	return p, err
}

// PruneDaily runs PruneBefore(now − retention), then verifies the audit
// trail (VerifyAudit, its result handed to WithAuditVerified's func) and,
// when it verifies, prunes it (PruneAudit, now − WithAuditRetention's
// retention), at most once per UTC day
// across every replica and job: the day is claimed in the ledger under
// "prune/<date>" for owner, so whichever job gets there first does it. ran
// is false when another has done (or is doing) today's. A retention under
// MinRetention is raised to it. Errors: the ledger's and PruneBefore's;
// the day is released then, so a later run tries again.
func (s *Store) PruneDaily(ctx context.Context, owner string, retention time.Duration) (p Pruned, ran bool, err error) {
	retention = max(retention, MinRetention)
	now := s.now()
	key := "prune/" + now.UTC().Format(time.DateOnly)
	claim, err := s.Claim(ctx, key, owner, 10*time.Minute)
	if err != nil || claim == ClaimDone || claim == ClaimBusy {
		return p, false, err
	}
	p, err = s.PruneBefore(ctx, now.Add(-retention))
	if err == nil {
		p.AuditHead, p.Audit, err = s.verifyAndPruneAudit(ctx, now)
	}
	if err != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = s.Release(rctx, key, owner) // or it lapses with its lease
		return p, true, err
	}
	return p, true, s.Done(ctx, key, owner, p.String())
}

// verifyAndPruneAudit verifies the audit trail and reports the result
// (WithAuditVerified); only a trail that verifies is pruned, so the
// entries that show a break are kept for whoever looks into it. Errors:
// a *audit.BrokenError, ErrUnavailable.
func (s *Store) verifyAndPruneAudit(ctx context.Context, now time.Time) (audit.Head, int64, error) {
	head, err := s.VerifyAudit(ctx, nil)
	var broken *audit.BrokenError
	if err == nil || errors.As(err, &broken) {
		s.auditVerified(head, err)
	}
	if err != nil {
		return head, 0, fmt.Errorf("verify audit trail: %w", err)
	}
	n, err := s.PruneAudit(ctx, now.Add(-s.auditRetention))
	return head, n, err
}
