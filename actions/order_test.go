package actions_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

// TestCompareUrgency: overdue first; then by when the deadline passes, a
// date-only one at the end of its day in the organisation's zone (so a
// deadline at 15:00 that day comes before it); undated last; ties by ID.
func TestCompareUrgency(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	list := []*apiclient.Action{
		{ID: "A-undated"},
		{ID: "A-date-only", Deadline: day},
		{ID: "A-timed", Deadline: day.Add(15 * time.Hour), DeadlineHasTime: true},
		{ID: "A-late", Deadline: day.AddDate(0, 0, 3)},
		{ID: "A-tie-2", Deadline: day.AddDate(0, 0, 1)},
		{ID: "A-tie-1", Deadline: day.AddDate(0, 0, 1)},
	}
	slices.SortStableFunc(list, func(a, b *apiclient.Action) int {
		return actions.CompareUrgency(actions.Ranked{Action: a, Overdue: a.ID == "A-late"}, actions.Ranked{Action: b, Overdue: b.ID == "A-late"}, time.UTC)
	})
	var got []string
	for _, a := range list {
		got = append(got, a.ID)
	}
	assert.Equal(t, []string{"A-late", "A-timed", "A-date-only", "A-tie-1", "A-tie-2", "A-undated"}, got)
}
