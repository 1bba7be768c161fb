package bot

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/store"
)

// Store is what the bot keeps in the store (package store): which channels
// follow which committees, and people's notification settings. Ping tells
// readiness whether it answers. *store.Store implements it; a nil Store in
// Deps turns the commands and settings that need one into a polite "not
// configured".
type Store interface {
	Follow(ctx context.Context, f store.Follow) (existed bool, err error)
	Unfollow(ctx context.Context, channelID, committeeKey string) (existed bool, err error)
	FollowsInChannel(ctx context.Context, channelID string) ([]store.Follow, error)
	Settings(ctx context.Context, userID string) (store.Settings, error)
	SaveSettings(ctx context.Context, userID string, set store.Settings) error
	Ping(ctx context.Context) error
}

// NotifyDefaults are the organisation's notification settings: what
// everyone gets who has not chosen for themselves (REMIND_DEFAULT,
// REMIND_AT, REMIND_SKIP_WEEKENDS, ASSIGN_DMS_DEFAULT). The zero value is
// reminders on at 09:00 every day, and assignment DMs on.
type NotifyDefaults struct {
	RemindOff    bool   // REMIND_DEFAULT=off
	RemindAt     string // "HH:MM"; "" means 09:00
	WeekdaysOnly bool   // no reminders on Saturday and Sunday
	AssignDMsOff bool   // ASSIGN_DMS_DEFAULT=off
}

// Effective is set as the person sees it: their own choice where they made
// one, the default elsewhere. A saved time that is not HH:MM (it cannot be
// saved, but a hand-edited row could hold one) reads as the default.
func (d NotifyDefaults) Effective(set store.Settings) blocks.NotificationSettings {
	pick := func(own *bool, def bool) bool {
		if own != nil {
			return *own
		}
		return def
	}
	at := cmp.Or(d.RemindAt, defaultRemindAt)
	if set.RemindAt != nil && store.CheckRemindAt(*set.RemindAt) == nil {
		at = *set.RemindAt
	}
	return blocks.NotificationSettings{
		RemindOn:     pick(set.RemindEnabled, !d.RemindOff),
		RemindAt:     at,
		WeekdaysOnly: pick(set.WeekdaysOnly, d.WeekdaysOnly),
		AssignDMs:    pick(set.AssignDMs, !d.AssignDMsOff),
	}
}

// settingsReader is the store's read of one person's settings.
type settingsReader interface {
	Settings(ctx context.Context, userID string) (store.Settings, error)
}

// StoreSettings is the reminder job's Settings read from the store: each
// person's own choices over the organisation's defaults d. The job's own
// RemindAt and SkipWeekends should be d's, so that the defaults agree.
func StoreSettings(s settingsReader, d NotifyDefaults) Settings {
	return storeSettings{s, d}
}

type storeSettings struct {
	s settingsReader
	d NotifyDefaults
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
