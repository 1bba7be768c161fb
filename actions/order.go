package actions

import (
	"cmp"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Ranked is an action with the surface's Overdue verdict on it, as the
// surface reads it (in the reader's zone; a row a click just changed may
// keep its place): what CompareUrgency orders by. The verdict travels as
// data, so ordering never calls back into the surface.
type Ranked struct {
	Action  *apiclient.Action
	Overdue bool
}

// CompareUrgency is the one order of actions wherever they are listed
// (/actions, the Home tab, reminders, digests and briefs), for
// slices.SortStableFunc: overdue first, then by the moment the deadline
// passes (DeadlineAt in the organisation's zone org), soonest first,
// undated last, and ties by ID so the order does not depend on the
// records service's.
func CompareUrgency(a, b Ranked, org *time.Location) int {
	if a.Overdue != b.Overdue {
		if a.Overdue {
			return -1
		}
		return 1
	}
	da, db := DeadlineAt(a.Action, org), DeadlineAt(b.Action, org)
	if za, zb := da.IsZero(), db.IsZero(); za != zb {
		if za {
			return 1
		}
		return -1
	}
	return cmp.Or(da.Compare(db), cmp.Compare(a.Action.ID, b.Action.ID))
}
