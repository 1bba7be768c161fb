package remind

import (
	"context"
	"fmt"
	"time"

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

// ledgerStore is the store's exactly-once ledger.
type ledgerStore interface {
	Claim(ctx context.Context, key, owner string, lease time.Duration) (store.ClaimResult, error)
	Done(ctx context.Context, key, owner, result string) error
	Release(ctx context.Context, key, owner string) error
}

// StoreLedger is the reminder job's Ledger kept in the store, so that
// reminded-today is recorded there and shared by every replica and run.
func StoreLedger(l ledgerStore) Ledger { return storeLedger{l} }

type storeLedger struct{ l ledgerStore }

func (a storeLedger) Claim(ctx context.Context, key, owner string, lease time.Duration) (ClaimResult, error) {
	r, err := a.l.Claim(ctx, key, owner, lease)
	if err != nil {
		return 0, err
	}
	switch r {
	case store.ClaimNew:
		return ClaimNew, nil
	case store.ClaimDone:
		return ClaimDone, nil
	case store.ClaimBusy:
		return ClaimBusy, nil
	case store.ClaimExpired:
		return ClaimExpired, nil
	}
	return 0, fmt.Errorf("claim %s: unknown answer %v", key, r)
}

func (a storeLedger) Done(ctx context.Context, key, owner, result string) error {
	return a.l.Done(ctx, key, owner, result)
}

func (a storeLedger) Release(ctx context.Context, key, owner string) error {
	return a.l.Release(ctx, key, owner)
}
