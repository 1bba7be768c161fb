package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

// Settings are a person's own notification choices. A nil field means "the
// organisation's default", so the zero Settings is everyone's start and an
// admin's change of a default reaches everyone who has not chosen.
type Settings struct {
	RemindEnabled *bool          // daily reminder DMs
	RemindAt      clocktime.Time // local time they arrive; zero: the default
	WeekdaysOnly  *bool          // no reminders on Saturday and Sunday
	AssignDMs     *bool          // a DM when an action is newly assigned
	// Cadence is their reminder rhythm: nil the organisation's
	// (REMIND_CADENCE), an off Weekly daily, an on Weekly one summary a
	// week at that day and time.
	Cadence *clocktime.Weekly
	// UpdatedAt is when they were last saved; zero if never.
	UpdatedAt time.Time
}

// Settings returns userID's settings; a person who never saved any gets
// the zero Settings (every choice the default).
func (s *Store) Settings(ctx context.Context, userID string) (Settings, error) {
	all, err := s.SettingsFor(ctx, []string{userID})
	return all[userID], err
}

// SettingsFor returns the settings of the given users in one query, by user
// ID. Users who never saved any are absent: the map's zero value is their
// Settings.
func (s *Store) SettingsFor(ctx context.Context, userIDs []string) (map[string]Settings, error) {
	out := map[string]Settings{}
	if len(userIDs) == 0 {
		return out, nil
	}
	rows, err := s.conn().QueryContext(ctx, s.q(`
		SELECT user_id, remind_enabled, remind_at, weekdays_only, assign_dms, cadence, updated_at
		FROM settings WHERE user_id IN (`+s.d.jsonStrings+`)`), jsonArray(userIDs))
	if err != nil {
		return nil, s.wrap("read settings", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var enabled, weekdays, dms sql.NullInt64
		var at, cadence sql.NullString
		var updated int64
		if err := rows.Scan(&id, &enabled, &at, &weekdays, &dms, &cadence, &updated); err != nil {
			return nil, s.wrap("read settings", err)
		}
		out[id] = Settings{
			RemindEnabled: nullBool(enabled),
			RemindAt:      clockTime(at),
			WeekdaysOnly:  nullBool(weekdays),
			AssignDMs:     nullBool(dms),
			Cadence:       cadenceOf(cadence),
			UpdatedAt:     fromMS(updated),
		}
	}
	return out, s.wrap("read settings", rows.Err())
}

// SaveSettings replaces userID's settings with set (nil fields go back to
// the default). Errors: ErrInvalid for an empty user ID; ErrUnavailable
// when the store is down.
func (s *Store) SaveSettings(ctx context.Context, userID string, set Settings) error {
	if err := checkSettings("save settings", userID); err != nil {
		return err
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO settings (user_id, remind_enabled, remind_at, weekdays_only, assign_dms, cadence, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET
			remind_enabled = excluded.remind_enabled, remind_at = excluded.remind_at,
			weekdays_only = excluded.weekdays_only, assign_dms = excluded.assign_dms,
			cadence = excluded.cadence, updated_at = excluded.updated_at`),
		userID, boolParam(set.RemindEnabled), clockParam(set.RemindAt), boolParam(set.WeekdaysOnly), boolParam(set.AssignDMs), cadenceParam(set.Cadence), ms(s.now()))
	return s.wrap("save settings", err)
}

// ChangeSettings sets the fields of change that are not nil and keeps the
// rest of userID's settings as they are, in one statement: two changes made
// at the same moment (two clicks on the Home tab, a *Stop these* in a DM
// while the Home tab is open) both land, where reading, changing and saving
// the row would lose one. Errors as SaveSettings.
func (s *Store) ChangeSettings(ctx context.Context, userID string, change Settings) error {
	if err := checkSettings("change settings", userID); err != nil {
		return err
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO settings (user_id, remind_enabled, remind_at, weekdays_only, assign_dms, cadence, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET
			remind_enabled = COALESCE(excluded.remind_enabled, settings.remind_enabled),
			remind_at = COALESCE(excluded.remind_at, settings.remind_at),
			weekdays_only = COALESCE(excluded.weekdays_only, settings.weekdays_only),
			assign_dms = COALESCE(excluded.assign_dms, settings.assign_dms),
			cadence = COALESCE(excluded.cadence, settings.cadence),
			updated_at = excluded.updated_at`),
		userID, boolParam(change.RemindEnabled), clockParam(change.RemindAt), boolParam(change.WeekdaysOnly), boolParam(change.AssignDMs), cadenceParam(change.Cadence), ms(s.now()))
	return s.wrap("change settings", err)
}

// checkSettings refuses what the settings table must not hold.
func checkSettings(what, userID string) error {
	if userID == "" {
		return fmt.Errorf("%s: %w: user ID is required", what, ErrInvalid)
	}
	return nil
}

func nullBool(v sql.NullInt64) *bool {
	if !v.Valid {
		return nil
	}
	b := v.Int64 != 0
	return &b
}

// clockTime reads a stored time of day; NULL, or a value that is not
// one (the store writes none, but a hand-edited row could hold one), is
// the zero Time: the default.
func clockTime(v sql.NullString) clocktime.Time {
	if !v.Valid {
		return clocktime.Time{}
	}
	t, err := clocktime.Parse(v.String)
	if err != nil {
		return clocktime.Time{}
	}
	return t
}

func boolParam(b *bool) sql.NullInt64 {
	if b == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(boolInt(*b)), Valid: true}
}

// cadenceOf reads a stored cadence: "daily" is an off Weekly; NULL, or a
// value that does not parse, is nil (the organisation's).
func cadenceOf(v sql.NullString) *clocktime.Weekly {
	if !v.Valid {
		return nil
	}
	if v.String == "daily" {
		return &clocktime.Weekly{}
	}
	w, err := clocktime.ParseWeekly(v.String)
	if err != nil || !w.On {
		return nil
	}
	return &w
}

// cadenceParam stores a cadence as cadenceOf reads it.
func cadenceParam(w *clocktime.Weekly) sql.NullString {
	switch {
	case w == nil:
		return sql.NullString{}
	case !w.On:
		return sql.NullString{String: "daily", Valid: true}
	}
	return sql.NullString{String: w.String(), Valid: true}
}

// clockParam stores t as "HH:MM", the zero Time as NULL.
func clockParam(t clocktime.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: t.String(), Valid: true}
}
