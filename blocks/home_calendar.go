package blocks

import (
	"strings"

	"github.com/slack-go/slack"
)

// The Home tab's Calendar section's buttons.
const (
	// ActionCalendarGet makes the person's private calendar address.
	ActionCalendarGet = "home:calendar_get"
	// ActionCalendarReset replaces it; the old one stops at once.
	ActionCalendarReset = "home:calendar_reset"
)

// HomeCalendar is the Home tab's Calendar section: the person's private
// deadline feed and the organisation's public meeting feed. Every field is
// written by the bot (addresses it made), so nothing is escaped again.
type HomeCalendar struct {
	// Private is the person's private feed address; "" when they have
	// none yet (a "Get my calendar link" button then) or when PrivateOff.
	Private string
	// PrivateOff says the private feeds are not available (no store, no
	// PUBLIC_URL); Unavailable that the store cannot be read just now.
	PrivateOff, Unavailable bool
	// Public is the public feed of every committee's meetings
	// (PUBLIC_CALENDAR); "" when off.
	Public string
	// Note is the answer to a click, shown on top (mrkdwn by the bot).
	Note string
}

// calendarHelp is the one line on subscribing, for every application.
const calendarHelp = "Subscribe to it from Google Calendar (_Other calendars → From URL_), Outlook (_Add calendar → Subscribe from web_) or Apple Calendar (_File → New Calendar Subscription_): it updates itself."

// homeCalendarBlocks is the Calendar section: a divider and a header; the
// note; the private address as code (easy to copy) with "Reset link"
// (ActionCalendarReset, confirmed first), or "Get my calendar link"
// (ActionCalendarGet); how to subscribe; the public feed when on.
func homeCalendarBlocks(c HomeCalendar) []slack.Block {
	out := []slack.Block{slack.NewDividerBlock(), header("Calendar")}
	if note := strings.TrimSpace(c.Note); note != "" {
		out = append(out, section(truncateMrkdwn(note, MaxSectionText)))
	}
	switch {
	case c.PrivateOff:
	case c.Unavailable:
		out = append(out, section(":warning: I can't reach my database right now, so your calendar link can't be shown. Reopen this tab in a few minutes."))
	case c.Private == "":
		out = append(out,
			section("*Your deadlines in your calendar.* A private calendar of your open actions that have a deadline, for Google Calendar, Outlook or Apple Calendar."),
			slack.NewActionBlock("", button(ActionCalendarGet, "", "Get my calendar link")))
	default:
		reset := button(ActionCalendarReset, "", "Reset link")
		reset.Confirm = slack.NewConfirmationBlockObject(
			plain("Reset your calendar link?"),
			plain("The link you have stops working at once, in every calendar subscribed to it. You'll get a new one here."),
			plain("Reset"), plain("Cancel"))
		reset.Confirm.Style = slack.StyleDanger
		out = append(out,
			section("*Your deadlines* (open actions with a deadline), private to you:\n`"+c.Private+"`"),
			contextLine(calendarHelp+" Anyone with the link sees your deadlines: keep it to yourself, and reset it if it leaks."),
			slack.NewActionBlock("", reset))
	}
	if c.Public != "" {
		out = append(out, section("*Every committee's meetings:* `"+c.Public+"`\nOne committee's: put its name before `.ics`, as in `/calendar/finance.ics`."))
	}
	if len(out) == 2 {
		return nil
	}
	return out
}
