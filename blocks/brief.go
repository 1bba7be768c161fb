package blocks

import (
	"cmp"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// EventBriefPosted is the metadata event type of a pre-meeting brief.
const EventBriefPosted = "recordsbot_brief_posted"

// briefMaxAgenda is the agenda items shown; the rest are counted.
const briefMaxAgenda = 25

// Brief is the pre-meeting brief of one meeting, for a channel that
// follows its committee.
type Brief struct {
	// Lang is the channel's language (ORG_LANGUAGE or the follow's).
	Lang      lang.Lang
	Committee string
	// Title is the meeting's title; Date and DateHasTime when it is.
	Title       string
	Date        time.Time
	DateHasTime bool
	Location    string
	// Agenda is the meeting's agenda as the records list it.
	Agenda []BriefAgendaItem
	// Open are the actions still to do from the committee's earlier
	// meetings, by assignee (names only: a brief pings nobody).
	Open []DigestGroup
	// LatestMinutes and LatestURL name and link the committee's latest
	// minutes; "" when there are none.
	LatestMinutes, LatestURL string
	// CalendarURL is the meeting's one-event calendar ("Add to
	// calendar"); "" for none.
	CalendarURL string
	// Counted: the channel may not read people's actions
	// (actions.Service.ChannelMayName), so Open is counted, not listed.
	Counted bool
}

// BriefAgendaItem is one item of the agenda.
type BriefAgendaItem struct {
	Number, Title string
}

// BriefMetadata is the message metadata of a brief: its ledger key, the
// meeting and its date (RFC 3339), which a moved meeting's update changes.
func BriefMetadata(key, meetingID string, date time.Time) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventBriefPosted, EventPayload: map[string]any{
		"key": key, "meeting": meetingID, "date": date.UTC().Format(time.RFC3339),
	}}
}

// BriefMessage builds the brief: a header, when and where, the agenda, the
// actions still open (one heading, then by assignee), and below a divider
// the link to the latest minutes and "Add to calendar" (b.CalendarURL,
// when safe). Long
// lists are cut with "…and K more" so it always fits Block Kit's limits.
func BriefMessage(b Brief) Message {
	lg := b.Lang
	title := oneLine(cmp.Or(b.Title, b.Committee, lg.T("brief.meeting")))
	when := Date(lg, b.Date, b.DateHasTime)
	fallback := lg.F("brief.fallback", "title", title, "when", plainDate(lg, b.Date, b.DateHasTime))
	head := lg.F("brief.meets", "committee", inline(cmp.Or(b.Committee, lg.T("brief.the_committee")), 100), "when", when)
	if b.Location != "" {
		head = lg.F("brief.meets_where", "committee", inline(cmp.Or(b.Committee, lg.T("brief.the_committee")), 100), "when", when, "where", inline(b.Location, 200))
	}
	bl := []slack.Block{header(lg.F("brief.header", "title", title)), section(head)}
	budget := MaxMessageText - runes(fallback) - measure(bl...) - 200
	add := func(title string, lines []string, max int) {
		if budget < 200 {
			return
		}
		text, used := fitLines(lg, title, lines, max, min(MaxSectionText, budget))
		budget -= used
		bl = append(bl, section(text))
	}
	var agenda []string
	for _, it := range b.Agenda {
		l := inline(cmp.Or(it.Title, lg.T("brief.untitled_item")), 200)
		// An item's own number is its bullet ("1. Apologies", not
		// "• 1. Apologies"); items without one get the bullet.
		if it.Number != "" {
			l = inline(it.Number, 10) + ". " + l
		} else {
			l = "• " + l
		}
		agenda = append(agenda, l)
	}
	if len(agenda) == 0 {
		bl = append(bl, section(lg.T("brief.no_agenda")))
	} else {
		add(lg.T("brief.agenda"), agenda, briefMaxAgenda)
	}
	listed := b.Open
	switch {
	case len(b.Open) == 0:
		bl = append(bl, section(lg.T("brief.none_open")))
	case b.Counted:
		open, overdue := countOpen(b.Open)
		bl = append(bl, section(lg.T("brief.open_heading")+"\n"+openCounts(lg, open, overdue)+" "+lg.T("actions.channel_counted")))
		listed = nil
	default:
		// One heading, then each person's actions under their name: the
		// heading said again per person read as a list of headings.
		bl = append(bl, section(lg.T("brief.open_heading")))
	}
	for _, g := range listed {
		var lines []string
		for _, it := range g.Items {
			lines = append(lines, "• "+groupedLine(lg, it))
		}
		add("*"+cmp.Or(inline(g.Name, 80), lg.T("digest.unassigned"))+"*", lines, digestMaxPerList)
	}
	// The links close the brief, set apart from the last person's list by
	// a divider: a context line straight under a section reads as part of
	// it.
	var tail []slack.Block
	if b.LatestURL != "" {
		tail = append(tail, contextLine(lg.F("brief.latest", "link", "<"+b.LatestURL+"|"+inline(cmp.Or(b.LatestMinutes, lg.T("brief.minutes")), 150)+">")))
	}
	if l := link(b.CalendarURL, lg.T("calendar.add")); l != "" {
		tail = append(tail, contextLine(":calendar: "+l))
	}
	if len(tail) > 0 {
		bl = append(append(bl, slack.NewDividerBlock()), tail...)
	}
	return Message{Text: fallback, Blocks: bl}
}
