package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Snooze is one action left out of a person's reminders.
type Snooze struct {
	ActionID string
	// Until is the local date (YYYY-MM-DD, the person's zone) from which
	// they are reminded of it again.
	Until string
	// At is when it was snoozed.
	At time.Time
}

// checkDay refuses a day that is not YYYY-MM-DD.
func checkDay(what, day string) error {
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return fmt.Errorf("%s: %w: %q is not a date (YYYY-MM-DD)", what, ErrInvalid, day)
	}
	return nil
}

// Snooze leaves actionID out of userID's reminders until the local day
// until (YYYY-MM-DD), replacing an earlier snooze of it. Whether they may
// (only the assignee, for themselves) and whether the day makes sense are
// the caller's to decide. Errors: ErrInvalid for an empty user or action
// or a day that is not a date; ErrUnavailable when the store is down.
func (s *Store) Snooze(ctx context.Context, userID, actionID, until string) error {
	if userID == "" || actionID == "" {
		return fmt.Errorf("snooze: %w: user and action are required", ErrInvalid)
	}
	if err := checkDay("snooze", until); err != nil {
		return err
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO snoozes (user_id, action_id, until_day, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, action_id) DO UPDATE SET until_day = excluded.until_day, created_at = excluded.created_at`),
		userID, actionID, until, ms(s.now()))
	return s.wrap("snooze", err)
}

// Unsnooze ends userID's snooze of actionID; existed is false when there
// was none. Errors: ErrUnavailable when the store is down.
func (s *Store) Unsnooze(ctx context.Context, userID, actionID string) (existed bool, err error) {
	res, err := s.conn().ExecContext(ctx, s.q(`DELETE FROM snoozes WHERE user_id = ? AND action_id = ?`), userID, actionID)
	if err != nil {
		return false, s.wrap("unsnooze", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("unsnooze", err)
}

// EndSnoozes ends every snooze of actionID, whoever made it: the action
// was completed or cancelled. Errors: ErrUnavailable when the store is
// down.
func (s *Store) EndSnoozes(ctx context.Context, actionID string) error {
	_, err := s.conn().ExecContext(ctx, s.q(`DELETE FROM snoozes WHERE action_id = ?`), actionID)
	return s.wrap("end snoozes", err)
}

// Snoozes returns userID's snoozes by action ID, ended ones (Until on or
// before today, their local date) included: the reader decides. Errors:
// ErrUnavailable when the store is down.
func (s *Store) Snoozes(ctx context.Context, userID string) (map[string]Snooze, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT action_id, until_day, created_at FROM snoozes WHERE user_id = ?`), userID)
	if err != nil {
		return nil, s.wrap("read snoozes", err)
	}
	defer rows.Close()
	out := map[string]Snooze{}
	for rows.Next() {
		var sn Snooze
		var at int64
		if err := rows.Scan(&sn.ActionID, &sn.Until, &at); err != nil {
			return nil, s.wrap("read snoozes", err)
		}
		sn.At = fromMS(at)
		out[sn.ActionID] = sn
	}
	return out, s.wrap("read snoozes", rows.Err())
}

// Away is a person's "I'm away": no reminders nor assignment DMs up to
// and including LastDay, then one catch-up DM.
type Away struct {
	// LastDay is the last local date (YYYY-MM-DD) away; "" when the
	// person never said they were away.
	LastDay string
	// Since is when they said so.
	Since time.Time
	// CaughtUp is set once the catch-up DM went out.
	CaughtUp bool
}

// On reports whether the person is away on the local date today
// (YYYY-MM-DD).
func (a Away) On(today string) bool { return a.LastDay != "" && today <= a.LastDay }

// CatchUpDue reports whether the catch-up DM is owed on today: the away
// days are over and it has not gone out.
func (a Away) CatchUpDue(today string) bool {
	return a.LastDay != "" && !a.CaughtUp && today > a.LastDay
}

// SetAway records userID away up to and including lastDay (YYYY-MM-DD).
// Setting it again while away moves the day and keeps Since, so the
// catch-up still covers the whole time away. Errors: ErrInvalid for an
// empty user or a day that is not a date; ErrUnavailable when the store
// is down.
func (s *Store) SetAway(ctx context.Context, userID, lastDay string) error {
	if userID == "" {
		return fmt.Errorf("set away: %w: user is required", ErrInvalid)
	}
	if err := checkDay("set away", lastDay); err != nil {
		return err
	}
	_, err := s.conn().ExecContext(ctx, s.q(`
		INSERT INTO away (user_id, last_day, since, caught_up) VALUES (?, ?, ?, 0)
		ON CONFLICT (user_id) DO UPDATE SET last_day = excluded.last_day,
			since = CASE WHEN away.caught_up = 0 THEN away.since ELSE excluded.since END,
			caught_up = 0`),
		userID, lastDay, ms(s.now()))
	return s.wrap("set away", err)
}

// EndAway ends userID's time away early: their last day away becomes
// yesterday (the day before today, their local date), so the next
// reminder run sends the catch-up. existed is false when they were not
// away. Errors: ErrInvalid for a day that is not a date; ErrUnavailable
// when the store is down.
func (s *Store) EndAway(ctx context.Context, userID, today string) (existed bool, err error) {
	day, perr := time.Parse(time.DateOnly, today)
	if perr != nil {
		return false, checkDay("end away", today)
	}
	yesterday := day.AddDate(0, 0, -1).Format(time.DateOnly)
	res, err := s.conn().ExecContext(ctx, s.q(`UPDATE away SET last_day = ? WHERE user_id = ? AND caught_up = 0 AND last_day >= ?`),
		yesterday, userID, today)
	if err != nil {
		return false, s.wrap("end away", err)
	}
	n, err := res.RowsAffected()
	return n > 0, s.wrap("end away", err)
}

// AwayOf returns userID's time away, the zero Away when they never said.
// Errors: ErrUnavailable when the store is down.
func (s *Store) AwayOf(ctx context.Context, userID string) (Away, error) {
	var a Away
	var since, caught int64
	err := s.conn().QueryRowContext(ctx, s.q(`SELECT last_day, since, caught_up FROM away WHERE user_id = ?`), userID).
		Scan(&a.LastDay, &since, &caught)
	if errors.Is(err, sql.ErrNoRows) {
		return Away{}, nil
	}
	if err != nil {
		return Away{}, s.wrap("read away", err)
	}
	a.Since, a.CaughtUp = fromMS(since), caught != 0
	return a, nil
}

// Holding reports whether userID's assignment DMs are held for a
// catch-up: they said they were away and the catch-up has not gone out
// (the days away, and the hours between their end and the next reminder
// run). Errors: ErrUnavailable when the store is down.
func (s *Store) Holding(ctx context.Context, userID string) (bool, error) {
	a, err := s.AwayOf(ctx, userID)
	return a.LastDay != "" && !a.CaughtUp, err
}

// Hold keeps actionIDs, newly assigned to userID while away, for the
// catch-up DM. Errors: ErrUnavailable when the store is down.
func (s *Store) Hold(ctx context.Context, userID string, actionIDs []string) error {
	for _, id := range actionIDs {
		_, err := s.conn().ExecContext(ctx, s.q(`INSERT INTO away_held (user_id, action_id, held_at) VALUES (?, ?, ?)
			ON CONFLICT (user_id, action_id) DO NOTHING`), userID, id, ms(s.now()))
		if err != nil {
			return s.wrap("hold assignment", err)
		}
	}
	return nil
}

// Held returns the IDs of the actions held for userID's catch-up, in
// the order they were held. Errors: ErrUnavailable when the store is
// down.
func (s *Store) Held(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT action_id FROM away_held WHERE user_id = ? ORDER BY held_at, action_id`), userID)
	if err != nil {
		return nil, s.wrap("read held assignments", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("read held assignments", err)
		}
		out = append(out, id)
	}
	return out, s.wrap("read held assignments", rows.Err())
}

// HeldActions returns the IDs of every action held for someone's
// catch-up: the reminder run keeps them whatever their deadline (an
// action assigned while away is in the catch-up even when it is due in a
// month). Errors: ErrUnavailable when the store is down.
func (s *Store) HeldActions(ctx context.Context) (map[string]bool, error) {
	rows, err := s.conn().QueryContext(ctx, s.q(`SELECT DISTINCT action_id FROM away_held`))
	if err != nil {
		return nil, s.wrap("read held assignments", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("read held assignments", err)
		}
		out[id] = true
	}
	return out, s.wrap("read held assignments", rows.Err())
}

// CaughtUp records that userID's catch-up DM for the time away that
// began at since went out, and forgets what was held for it; a newer
// time away is left alone. Errors: ErrUnavailable when the store is down.
func (s *Store) CaughtUp(ctx context.Context, userID string, since time.Time) error {
	res, err := s.conn().ExecContext(ctx, s.q(`UPDATE away SET caught_up = 1 WHERE user_id = ? AND since = ?`), userID, ms(since))
	if err != nil {
		return s.wrap("caught up", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return s.wrap("caught up", err)
	}
	_, err = s.conn().ExecContext(ctx, s.q(`DELETE FROM away_held WHERE user_id = ?`), userID)
	return s.wrap("caught up", err)
}

// pruneSteered deletes snoozes that ended, and times away caught up,
// before the day of before: personal data kept no longer than it is
// needed.
func (s *Store) pruneSteered(ctx context.Context, before time.Time) (int64, error) {
	day := before.UTC().Format(time.DateOnly)
	res, err := s.conn().ExecContext(ctx, s.q(`DELETE FROM snoozes WHERE until_day < ?`), day)
	if err != nil {
		return 0, s.wrap("prune snoozes", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, s.wrap("prune snoozes", err)
	}
	res, err = s.conn().ExecContext(ctx, s.q(`DELETE FROM away WHERE caught_up = 1 AND last_day < ?`), day)
	if err != nil {
		return n, s.wrap("prune away", err)
	}
	m, err := res.RowsAffected()
	return n + m, s.wrap("prune away", err)
}
