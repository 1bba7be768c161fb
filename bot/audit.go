package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/audit"
)

// AuditTrail is the audit trail (package audit) as the bot writes and
// reads it; *store.Store implements it. NewServer takes it from
// Deps.Store when the store has one, as it does MinutesSearch, so the
// Store interface stays what follows and settings need.
type AuditTrail interface {
	AppendAudit(ctx context.Context, e audit.Entry) (audit.Entry, error)
	// AuditOf is the latest entries about target, oldest first.
	AuditOf(ctx context.Context, target string, limit int) ([]audit.Entry, error)
	// AuditPage is a page of the trail, newest first, before entry
	// before (0: the newest), and the next page's cursor (0: none).
	AuditPage(ctx context.Context, before int64, limit int) ([]audit.Entry, int64, error)
}

// trailWriter records the changes the bot makes in its own store
// (follows, their choices and digests, settings) and the minutes it
// shares; status changes are the action domain's (actions.Service.
// SetStatus). A nil *trailWriter, or one without a trail, records
// nothing.
type trailWriter struct {
	trail AuditTrail
	dom   *actions.Service
	now   func() time.Time
	log   *slog.Logger
}

func newTrailWriter(st Store, dom *actions.Service, now func() time.Time, log *slog.Logger) *trailWriter {
	t, _ := st.(AuditTrail)
	if t == nil {
		return nil
	}
	return &trailWriter{trail: t, dom: dom, now: now, log: log}
}

// change is one entry to record.
type change struct {
	actor    string
	kind     audit.Kind
	target   string
	from, to string
	outcome  audit.Outcome
}

// record appends c, with the surface ctx carries. The actor's records
// identity is what is already known of them (no Slack call is made for
// it). The change has been made (it is in recordsbot's own store, which
// the entry goes to as well): an entry that cannot be written is logged,
// and the error returned for callers that want to say so.
func (w *trailWriter) record(ctx context.Context, c change) error {
	if w == nil {
		return nil
	}
	e := audit.New(ctx, w.now(), c.actor, c.kind, c.target)
	if me, ok := w.dom.Known(c.actor); ok {
		e.ActorRecords = me.RecordsName()
	}
	e.From, e.To, e.Outcome = c.from, c.to, c.outcome
	if e.Outcome == "" {
		e.Outcome = audit.Done
	}
	_, err := w.trail.AppendAudit(ctx, e)
	if err != nil {
		w.log.ErrorContext(ctx, "audit: entry not recorded", "kind", c.kind, "target", c.target, "error", err)
	}
	return err
}

// clickSurface is where a status button was clicked: the Home tab; a
// list opened from a weekly digest's "My actions here" (its page carries
// the digest's committee); a message of the bot's own in a DM (a
// reminder, an assignment DM); otherwise a reply.
func clickSurface(in *interaction, pageCtx string) audit.Surface {
	if in.Container.Type == "view" {
		return audit.Home
	}
	if q, ok := parseContext(pageCtx); ok && q.Committee != "" {
		return audit.Digest
	}
	if !in.Container.IsEphemeral {
		return audit.Reminder
	}
	return audit.Reply
}
