package bot

import (
	"context"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/topics"
)

// Store is what the bot keeps in the store (package store): which channels
// follow which committees, and people's notification settings. Ping tells
// readiness whether it answers. *store.Store implements it; a nil Store in
// Deps turns the commands and settings that need one into a polite "not
// configured".
type Store interface {
	// The follows: what the follow domain keeps, so that the bot hands
	// its Store (audited) to follows.New as it is.
	follows.Store
	Settings(ctx context.Context, userID string) (store.Settings, error)
	// ChangeSettings sets the non-nil fields and keeps the rest, in one
	// step, so two changes at once both land.
	ChangeSettings(ctx context.Context, userID string, change store.Settings) error
	Ping(ctx context.Context) error
	// Snooze, Unsnooze, Snoozes and EndSnoozes keep a person's snoozes
	// (store/snooze.go); SetAway, EndAway and AwayOf their time away.
	Snooze(ctx context.Context, userID, actionID, until string) error
	Unsnooze(ctx context.Context, userID, actionID string) (bool, error)
	Snoozes(ctx context.Context, userID string) (map[string]store.Snooze, error)
	EndSnoozes(ctx context.Context, actionID string) error
	SetAway(ctx context.Context, userID, lastDay string) error
	EndAway(ctx context.Context, userID, today string) (bool, error)
	AwayOf(ctx context.Context, userID string) (store.Away, error)
	// The topic watches (package topics), handed to topics.Service as
	// they are, audited.
	topics.Store
}

// NotifyDefaults are the organisation's notification settings
// (store.Defaults).
type NotifyDefaults = store.Defaults

// homeSettings is what the Home tab's Notifications section shows of set.
func homeSettings(d NotifyDefaults, set store.Settings) blocks.NotificationSettings {
	eff := d.Effective(set)
	return blocks.NotificationSettings{RemindOn: eff.RemindOn, RemindAt: eff.RemindAt, RemindAtOwn: !set.RemindAt.IsZero(),
		WeekdaysOnly: eff.WeekdaysOnly, AssignDMs: eff.AssignDMs}
}
