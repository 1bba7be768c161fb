package remind

import (
	"context"

	"github.com/recordsbot/recordsbot/store"
)

// settingsReader is what the job reads of one person in the store: their
// settings, their time away (and what was held for it) and their snoozes.
type settingsReader interface {
	Settings(ctx context.Context, userID string) (store.Settings, error)
	AwayOf(ctx context.Context, userID string) (store.Away, error)
	Held(ctx context.Context, userID string) ([]string, error)
	Snoozes(ctx context.Context, userID string) (map[string]store.Snooze, error)
}

// StoreSettings is the reminder job's Settings read from the store: each
// person's own choices over the organisation's defaults d, their time
// away and their snoozes. The job's own RemindAt and SkipWeekends should
// be d's, so that the defaults agree.
func StoreSettings(s settingsReader, d store.Defaults) Settings {
	return storeSettings{s, d}
}

type storeSettings struct {
	s settingsReader
	d store.Defaults
}

func (a storeSettings) ReminderPreferences(ctx context.Context, userID string) (Preferences, error) {
	set, err := a.s.Settings(ctx, userID)
	if err != nil {
		return Preferences{}, err
	}
	eff := a.d.Effective(set)
	p := Preferences{
		RemindAt:     eff.RemindAt,
		WeekdaysOnly: eff.WeekdaysOnly,
		// A person who chose every day is reminded at weekends even when
		// the organisation skips them: their own choice wins.
		AllowWeekends: !eff.WeekdaysOnly,
		Off:           !eff.RemindOn,
		Cadence:       eff.Cadence,
	}
	if p.Off {
		return p, nil
	}
	if p.Away, err = a.s.AwayOf(ctx, userID); err != nil {
		return Preferences{}, err
	}
	if p.Away.LastDay != "" && !p.Away.CaughtUp {
		if p.Held, err = a.s.Held(ctx, userID); err != nil {
			return Preferences{}, err
		}
	}
	if p.Snoozed, err = a.s.Snoozes(ctx, userID); err != nil {
		return Preferences{}, err
	}
	return p, nil
}
