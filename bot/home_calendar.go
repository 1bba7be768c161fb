package bot

import (
	"context"
	"errors"
	"log/slog"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// calendarUI is the Home tab's Calendar section and its buttons.
type calendarUI struct {
	cal *calendar.Service
	log *slog.Logger
}

// homeSection is user's Calendar section with note on top, or nil when
// there is neither a private nor a public calendar to offer.
func (cu *calendarUI) homeSection(ctx context.Context, user, note string) *blocks.HomeCalendar {
	if cu.cal == nil || !cu.cal.PrivateOn() && cu.cal.FeedURL("") == "" {
		return nil
	}
	v := &blocks.HomeCalendar{Public: cu.cal.FeedURL(""), Note: note, PrivateOff: !cu.cal.PrivateOn()}
	if cu.cal.PrivateOn() {
		link, _, err := cu.cal.PrivateURL(ctx, user)
		if err != nil {
			cu.log.WarnContext(ctx, "app home: calendar link", "user", user, "error", err)
			v.Unavailable = true
		}
		v.Private = link
	}
	return v
}

// clickCalendar makes (ActionCalendarGet) or replaces
// (ActionCalendarReset) the clicker's private calendar address and shows
// it on their Home tab.
func (c *clicks) clickCalendar(ctx context.Context, in *interaction, actionID string) {
	var note string
	var err error
	reset := actionID == blocks.ActionCalendarReset
	if reset {
		_, err = c.calendar.cal.ResetPrivateURL(ctx, in.User.ID)
		note = lang.FromContext(ctx).T("calendar.was_reset")
	} else {
		_, err = c.calendar.cal.EnsurePrivateURL(ctx, in.User.ID)
		note = lang.FromContext(ctx).T("calendar.made")
	}
	switch {
	case errors.Is(err, calendar.ErrPrivateOff):
		note = staleButton(ctx)
	case err != nil:
		c.log.WarnContext(ctx, "calendar link", "user", in.User.ID, "reset", reset, "error", err)
		note = lang.FromContext(ctx).T("calendar.down")
	}
	c.answerOnHome(ctx, in, homeState{calendarNote: note})
}
