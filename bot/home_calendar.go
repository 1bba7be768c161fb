package bot

import (
	"context"
	"errors"
	"log/slog"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/calendar"
)

const (
	msgCalendarMade  = ":white_check_mark: Here is your calendar link. Paste it into your calendar application as a subscription."
	msgCalendarReset = ":white_check_mark: Your calendar link is new: the old one has stopped working. Subscribe to this one instead."
	msgCalendarDown  = ":warning: I can't reach my database right now, so your calendar link can't be changed. Nothing is lost: try again in a few minutes."
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
		link, _, err := cu.cal.PrivateURL(ctx, user, false)
		if err != nil {
			cu.log.WarnContext(ctx, "app home: calendar link", "user", user, "error", err)
			v.Unavailable = true
		}
		v.Private = link
	}
	return v
}

// clickCalendar makes (get) or replaces (reset) the clicker's private
// calendar address and shows it on their Home tab.
func (c *clicks) clickCalendar(ctx context.Context, in *interaction, reset bool) {
	var note string
	var err error
	if reset {
		_, err = c.calendar.cal.ResetPrivateURL(ctx, in.User.ID)
		note = msgCalendarReset
	} else {
		_, _, err = c.calendar.cal.PrivateURL(ctx, in.User.ID, true)
		note = msgCalendarMade
	}
	switch {
	case errors.Is(err, calendar.ErrPrivateOff):
		note = staleButton(ctx)
	case err != nil:
		c.log.WarnContext(ctx, "calendar link", "user", in.User.ID, "reset", reset, "error", err)
		note = msgCalendarDown
	}
	c.answerOnHome(ctx, in, homeState{calendarNote: note})
}
