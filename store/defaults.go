package store

import "github.com/recordsbot/recordsbot/internal/clocktime"

// DefaultRemindAt is the local time reminders arrive at when neither the
// person nor the organisation chose one.
var DefaultRemindAt = clocktime.Of(9, 0)

// Defaults are the organisation's notification settings: what everyone
// gets who has not chosen for themselves (REMIND_DEFAULT, REMIND_AT,
// REMIND_SKIP_WEEKENDS, ASSIGN_DMS_DEFAULT). The zero value is reminders
// on at 09:00 every day, and assignment DMs on.
type Defaults struct {
	RemindOff    bool           // REMIND_DEFAULT=off
	RemindAt     clocktime.Time // zero means DefaultRemindAt
	WeekdaysOnly bool           // no reminders on Saturday and Sunday
	AssignDMsOff bool           // ASSIGN_DMS_DEFAULT=off
	// Cadence is REMIND_CADENCE: the zero Weekly (off) is daily, an on
	// Weekly one summary a week at that day and time.
	Cadence clocktime.Weekly
}

// Effective is a person's notification settings as they apply: their own
// choice where they made one, the organisation's elsewhere.
type Effective struct {
	RemindOn     bool
	RemindAt     clocktime.Time // never zero
	WeekdaysOnly bool
	AssignDMs    bool
	Cadence      clocktime.Weekly // off: daily
}

// Effective is the one rule for whose choice wins: the person's, where
// they made one.
func (d Defaults) Effective(set Settings) Effective {
	pick := func(own *bool, def bool) bool {
		if own != nil {
			return *own
		}
		return def
	}
	eff := Effective{
		RemindOn:     pick(set.RemindEnabled, !d.RemindOff),
		RemindAt:     set.RemindAt.Or(d.RemindAt).Or(DefaultRemindAt),
		WeekdaysOnly: pick(set.WeekdaysOnly, d.WeekdaysOnly),
		AssignDMs:    pick(set.AssignDMs, !d.AssignDMsOff),
		Cadence:      d.Cadence,
	}
	if set.Cadence != nil {
		eff.Cadence = *set.Cadence
	}
	return eff
}
