package bot

import (
	"context"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
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
	// SetFollowChoice sets whether a follow hears what (store.Hearable),
	// one field in one statement.
	SetFollowChoice(ctx context.Context, channelID, committeeKey, what string, on bool) (bool, error)
	// SetDigestChoice records a follow's weekly digest schedule and
	// mentions.
	SetDigestChoice(ctx context.Context, channelID, committeeKey string, schedule *clocktime.Weekly, mentions bool) error
	// SetFollowLanguage sets the language code a follow's channel posts
	// are written in ("" for ORG_LANGUAGE).
	SetFollowLanguage(ctx context.Context, channelID, committeeKey, code string) (bool, error)
	// Digest returns a follow's digest choice (and what the last saw).
	Digest(ctx context.Context, channelID, committeeKey string) (store.Digest, error)
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
