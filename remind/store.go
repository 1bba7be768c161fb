package remind

import (
	"context"

	"github.com/recordsbot/recordsbot/store"
)

// settingsReader is the store's read of one person's settings.
type settingsReader interface {
	Settings(ctx context.Context, userID string) (store.Settings, error)
}

// StoreSettings is the reminder job's Settings read from the store: each
// person's own choices over the organisation's defaults d. The job's own
// RemindAt and SkipWeekends should be d's, so that the defaults agree.
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
	return Preferences{
		RemindAt:     eff.RemindAt,
		WeekdaysOnly: eff.WeekdaysOnly,
		// A person who chose every day is reminded at weekends even when
		// the organisation skips them: their own choice wins.
		AllowWeekends: !eff.WeekdaysOnly,
		Off:           !eff.RemindOn,
	}, nil
}
