package blocks

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/internal/lang"

	"github.com/slack-go/slack"
)

const (
	// homeMinutesMax is how many committees' minutes the Home tab lists.
	homeMinutesMax = 20
)

// Home builds the App Home view: a header "Your actions"; notes when
// v.Unmapped or v.RecordsError is set (mrkdwn written by the bot, whose
// record text is already escaped, so they are not escaped again; a note
// that does not start with an emoji gets ":warning: "); the action rows with their buttons (see ActionRowBlocks), or
// v.Actions.Empty ("You have no open actions." when empty) when there are
// none and nothing went wrong; the position and the truncation note as in
// Actions; "Show more" (ActionHomeMore, value v.MoreOffset in decimal) when
// MoreOffset > 0; then a divider, "Latest minutes" with one compact section
// per committee (at most 20; a "Read" link only for safe http(s) URLs),
// preceded by a "Search minutes" button (ActionHomeSearch) when v.Search,
// the Notifications section when v.Notifications is set, the Calendar
// section (homeCalendarBlocks) when v.Calendar is, a divider and a
// line of help on the commands.
//
// v.User is not shown: the caller publishes the view to that user.
//
// The view stays within MaxViewBlocks and MaxViewText: rows that do not fit
// are left off (the position line says so) and titles shrink as in Actions.
func Home(v HomeView) slack.HomeTabViewRequest {
	lg := v.Lang
	head := []slack.Block{header(lg.T("home.your_actions"))}
	for _, note := range []string{v.Unmapped, v.RecordsError} {
		if note = strings.TrimSpace(note); note != "" {
			if !strings.HasPrefix(note, ":") {
				note = ":warning: " + note
			}
			head = append(head, section(truncateMrkdwn(note, MaxSectionText)))
		}
	}

	list := v.Actions
	list.Lang = lg
	list.Offset = max(list.Offset, 0)
	total := max(list.Total, list.Offset+len(list.Rows))
	var after []slack.Block
	if len(list.Rows) == 0 && v.Unmapped == "" && v.RecordsError == "" {
		head = append(head, section(escapeTrunc(cmp.Or(strings.TrimSpace(list.Empty), lg.T("home.no_open_actions")), MaxSectionText)))
	}
	if list.Truncated {
		after = append(after, contextLine(truncatedNote(list)))
	}
	if v.MoreOffset > 0 {
		after = append(after, slack.NewActionBlock("", button(ActionHomeMore, strconv.Itoa(v.MoreOffset), lg.T("list.show_more"))))
	}
	after = append(after, slack.NewDividerBlock(), header(lg.T("home.latest_minutes")))
	if v.Search {
		after = append(after, slack.NewActionBlock("", button(ActionHomeSearch, "", lg.T("home.search_minutes"))))
	}
	after = append(after, homeMinutes(lg, v.Minutes)...)
	if v.Topics != nil {
		after = append(after, HomeTopics(lg, *v.Topics)...) // blocks/topics.go
	}
	if v.Notifications != nil {
		after = append(after, settingsBlocks(lg, *v.Notifications)...)
	}
	if v.Calendar != nil {
		after = append(after, homeCalendarBlocks(lg, *v.Calendar)...)
	}
	after = append(after, awayRhythmBlocks(lg, v.AwayRhythm)...) // blocks/home_steer.go
	if rc := v.RecentChanges; rc != nil {
		c := *rc
		c.Lang = lg                                       // the Home tab's reader
		after = append(after, recentChangesBlocks(&c)...) // blocks/home_audit.go
	}
	after = append(after, slack.NewDividerBlock(), contextLine(lg.T("home.help")))

	pos := position(lg, list.Offset, len(list.Rows), total)
	maxBlocks := MaxViewBlocks - len(head) - len(after) - 1
	maxText := MaxViewText - measure(head...) - measure(after...) - measure(pos)
	rows, shown, _ := fitRows(lg, list.Rows, maxBlocks, maxText, make(map[string]bool))

	blocks := append(head, rows...)
	if shown > 0 && (list.Offset > 0 || list.Offset+shown < total) {
		blocks = append(blocks, position(lg, list.Offset, shown, total))
	}
	blocks = append(blocks, after...)
	return slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}}
}

// homeMinutes is one compact section per committee's latest minutes.
func homeMinutes(lg lang.Lang, list []MinutesView) []slack.Block {
	if len(list) == 0 {
		return []slack.Block{contextLine(lg.T("home.no_minutes"))}
	}
	var out []slack.Block
	for _, m := range list[:min(len(list), homeMinutesMax)] {
		title := cmp.Or(inline(m.Title, 100), lg.T("minutes.untitled"))
		var meta []string
		if c := inline(m.Committee, 50); c != "" {
			meta = append(meta, c)
		}
		if d := Date(lg, m.Date, m.DateHasTime); d != "" {
			meta = append(meta, d)
		}
		if m.Draft {
			meta = append(meta, lg.T("home.draft"))
		}
		if l := link(m.URL, lg.T("home.read")); l != "" {
			meta = append(meta, l)
		}
		text := "*" + title + "*"
		if len(meta) > 0 {
			text += "\n" + strings.Join(meta, " · ")
		}
		out = append(out, section(text))
	}
	if rest := len(list) - homeMinutesMax; rest > 0 {
		out = append(out, contextLine(lg.N("home.more_committees", rest)))
	}
	return out
}
