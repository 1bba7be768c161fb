package blocks

import (
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
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

// homeCalendarBlocks is the Calendar section: a divider and a header; the
// note; the private address as code (easy to copy) with "Reset link"
// (ActionCalendarReset, confirmed first), or "Get my calendar link"
// (ActionCalendarGet); how to subscribe; the public feed when on.
func homeCalendarBlocks(l lang.Lang, c HomeCalendar) []slack.Block {
	out := []slack.Block{slack.NewDividerBlock(), header(l.T("calendar.header"))}
	if note := strings.TrimSpace(c.Note); note != "" {
		out = append(out, section(truncateMrkdwn(note, MaxSectionText)))
	}
	switch {
	case c.PrivateOff:
	case c.Unavailable:
		out = append(out, section(l.T("calendar.unavailable")))
	case c.Private == "":
		out = append(out,
			section(l.T("calendar.offer")),
			slack.NewActionBlock("", button(ActionCalendarGet, "", l.T("calendar.get"))))
	default:
		reset := button(ActionCalendarReset, "", l.T("calendar.reset"))
		reset.Confirm = slack.NewConfirmationBlockObject(
			plain(l.T("calendar.reset_confirm_title")),
			plain(l.T("calendar.reset_confirm_text")),
			plain(l.T("calendar.reset_confirm")), plain(l.T("calendar.reset_deny")))
		reset.Confirm.Style = slack.StyleDanger
		out = append(out,
			section(l.F("calendar.private", "url", "`"+c.Private+"`")),
			contextLine(l.T("calendar.help")),
			slack.NewActionBlock("", reset))
	}
	if c.Public != "" {
		out = append(out, section(l.F("calendar.public", "url", "`"+c.Public+"`")))
	}
	if len(out) == 2 {
		return nil
	}
	return out
}
