package store

import "cmp"

// DefaultRemindAt is the local time reminders arrive at when neither the
// person nor the organisation chose one.
const DefaultRemindAt = "09:00"

// Defaults are the organisation's notification settings: what everyone
// gets who has not chosen for themselves (REMIND_DEFAULT, REMIND_AT,
// REMIND_SKIP_WEEKENDS, ASSIGN_DMS_DEFAULT). The zero value is reminders
// on at 09:00 every day, and assignment DMs on.
type Defaults struct {
	RemindOff    bool   // REMIND_DEFAULT=off
	RemindAt     string // "HH:MM"; "" means DefaultRemindAt
	WeekdaysOnly bool   // no reminders on Saturday and Sunday
	AssignDMsOff bool   // ASSIGN_DMS_DEFAULT=off
}

// Effective is a person's notification settings as they apply: their own
// choice where they made one, the organisation's elsewhere.
type Effective struct {
	RemindOn     bool
	RemindAt     string // "HH:MM"
	WeekdaysOnly bool
	AssignDMs    bool
}

// Effective is the one rule for whose choice wins: the person's, where
// they made one. A saved time that is not HH:MM (it cannot be saved, but a
// hand-edited row could hold one) reads as the default.
func (d Defaults) Effective(set Settings) Effective {
	pick := func(own *bool, def bool) bool {
		if own != nil {
			return *own
		}
		return def
	}
	at := cmp.Or(d.RemindAt, DefaultRemindAt)
	if set.RemindAt != nil && CheckRemindAt(*set.RemindAt) == nil {
		at = *set.RemindAt
	}
	return Effective{
		RemindOn:     pick(set.RemindEnabled, !d.RemindOff),
		RemindAt:     at,
		WeekdaysOnly: pick(set.WeekdaysOnly, d.WeekdaysOnly),
		AssignDMs:    pick(set.AssignDMs, !d.AssignDMsOff),
	}
}
