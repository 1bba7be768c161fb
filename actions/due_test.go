package actions_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

func TestDue(t *testing.T) {
	t.Parallel()
	auckland, _ := time.LoadLocation("Pacific/Auckland")
	la, _ := time.LoadLocation("America/Los_Angeles")
	dateOnly := &apiclient.Action{Status: apiclient.StatusOpen, Deadline: time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)}
	tests := []struct {
		name        string
		now         time.Time
		org, reader *time.Location
		days        int
		want        actions.DueStatus
	}{
		{"the day itself, UTC", time.Date(2026, 11, 18, 23, 59, 0, 0, time.UTC), time.UTC, time.UTC, 0, actions.DueSoon},
		{"past midnight UTC", time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), time.UTC, time.UTC, 0, actions.Overdue},
		{"org in Auckland: ended 11:00 UTC the day before", time.Date(2026, 11, 18, 11, 0, 0, 0, time.UTC), auckland, la, 0, actions.Overdue},
		{"a reader in Auckland, 09:00 on the 19th there: it passes at 13:00 their today", time.Date(2026, 11, 18, 20, 0, 0, 0, time.UTC), time.UTC, auckland, 0, actions.DueSoon},
		{"a reader in LA two days before, window of one", time.Date(2026, 11, 16, 20, 0, 0, 0, time.UTC), time.UTC, la, 1, actions.NotDue},
		{"a reader in LA, still the 18th there", time.Date(2026, 11, 18, 20, 0, 0, 0, time.UTC), time.UTC, la, 0, actions.DueSoon},
		{"three days ahead, window of three", time.Date(2026, 11, 15, 9, 0, 0, 0, time.UTC), time.UTC, time.UTC, 3, actions.DueSoon},
		{"four days ahead, window of three", time.Date(2026, 11, 14, 9, 0, 0, 0, time.UTC), time.UTC, time.UTC, 3, actions.NotDue},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, actions.Due(dateOnly, tc.now, tc.org, tc.reader, tc.days), tc.name)
	}
	done := *dateOnly
	done.Status = apiclient.StatusComplete
	assert.Equal(t, actions.NotDue, actions.Due(&done, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), nil, nil, 0), "done is never overdue")
	timed := &apiclient.Action{Status: apiclient.StatusOpen, Deadline: time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC), DeadlineHasTime: true}
	assert.Equal(t, timed.Deadline, actions.DeadlineAt(timed, auckland), "a time of day is its own moment, whatever the zone")
}

// FuzzDue checks the rule's invariants for any deadline, moment, zone
// offset and window.
func FuzzDue(f *testing.F) {
	f.Add(int64(1763424000), int64(1763500000), false, 0, 3600, -28800, 3)
	f.Add(int64(1763424000), int64(1763424000), true, 1, 0, 46800, 0)
	f.Fuzz(func(t *testing.T, deadline, now int64, hasTime bool, status, orgOff, readerOff, days int) {
		const year = 400 * 24 * 3600
		deadline, now = deadline%(100*year), now%(100*year)
		statuses := []apiclient.Status{apiclient.StatusOpen, apiclient.StatusInProgress, apiclient.StatusComplete, apiclient.StatusDeferred}
		a := &apiclient.Action{Status: statuses[(status%4+4)%4], Deadline: time.Unix(deadline, 0).UTC(), DeadlineHasTime: hasTime}
		org := time.FixedZone("org", orgOff%(15*3600))
		reader := time.FixedZone("reader", readerOff%(15*3600))
		n := time.Unix(now, 0)
		got := actions.Due(a, n, org, reader, days%1000)
		at := actions.DeadlineAt(a, org)
		switch got {
		case actions.Overdue:
			if n.Before(at) {
				t.Fatalf("overdue before its deadline: now %s, deadline %s", n, at)
			}
		case actions.DueSoon:
			if !n.Before(at) {
				t.Fatalf("due soon after its deadline: now %s, deadline %s", n, at)
			}
		}
		if got != actions.NotDue && a.Status != apiclient.StatusOpen && a.Status != apiclient.StatusInProgress {
			t.Fatalf("%s action is %v", a.Status, got)
		}
	})
}
