package actions

import (
	"cmp"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// ByUrgency is the one order of actions wherever they are listed
// (/actions, the Home tab, reminders, digests and briefs), as a
// comparison for slices.SortStableFunc: overdue first, then by the moment
// the deadline passes (DeadlineAt in the organisation's zone org), soonest
// first, undated last, and ties by ID so the order does not depend on the
// records service's. late is an action's Overdue verdict as the surface
// reads it (in the reader's zone; a row a click just changed may keep its
// place).
func ByUrgency(late func(*apiclient.Action) bool, org *time.Location) func(a, b *apiclient.Action) int {
	return func(a, b *apiclient.Action) int {
		if la, lb := late(a), late(b); la != lb {
			if la {
				return -1
			}
			return 1
		}
		da, db := DeadlineAt(a, org), DeadlineAt(b, org)
		if za, zb := da.IsZero(), db.IsZero(); za != zb {
			if za {
				return 1
			}
			return -1
		}
		return cmp.Or(da.Compare(db), cmp.Compare(a.ID, b.ID))
	}
}
