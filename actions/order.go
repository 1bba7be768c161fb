package actions

import (
	"cmp"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// CompareUrgency is the one order of actions wherever they are listed
// (/actions, the Home tab, reminders, digests and briefs): overdue first,
// then by the moment the deadline passes (DeadlineAt in the organisation's
// zone org), soonest first, undated last, and ties by ID so the order does
// not depend on the records service's. aLate and bLate are each action's
// Overdue verdict as the surface reads it (in the reader's zone; a row a
// click just changed may keep its place).
func CompareUrgency(a, b *apiclient.Action, aLate, bLate bool, org *time.Location) int {
	if aLate != bLate {
		if aLate {
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
