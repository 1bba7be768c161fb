//go:build !race

package actions

import (
	"context"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/requestid"
)

// nopTrail keeps nothing: what is measured is the domain's own cost of
// recording, not the store's (BenchmarkAppendAudit in package store).
type nopTrail struct{}

func (nopTrail) AppendAudit(_ context.Context, e audit.Entry) (audit.Entry, error) { return e, nil }

// budgetStatusRecording is what recording a status change adds to a
// click, in the action domain: the "requested" entry and the answer's,
// built from what the click already holds. 0 when set; the store's append
// is its own (docs/audit.md#cost).
const budgetStatusRecording = 1

func TestStatusRecordingAllocations(t *testing.T) {
	s := New(nil, nil, Config{Trail: nopTrail{}, Now: func() time.Time { return time.Unix(1e9, 0) }})
	ctx := audit.WithSurface(requestid.New(t.Context()), audit.Reply)
	me := Member{ID: "U0001", Email: "ada@example.org"}
	got := testing.AllocsPerRun(200, func() {
		rec := s.recorder(ctx, me, "act-000001", "open", "complete")
		_ = rec.write(audit.Requested)
		_ = rec.write(audit.Done)
	})
	t.Logf("a status change's two audit entries: %.0f allocations (budget %d)", got, budgetStatusRecording)
	if got > budgetStatusRecording {
		t.Errorf("recording a status change: %.0f allocations, budget %d", got, budgetStatusRecording)
	}
}
