package blocks

import (
	"cmp"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"

	"github.com/slack-go/slack"
)

// ActionDigestMine is the "My actions here" button of a digest: its value
// is the committee key, and the click shows the clicker their own actions
// of that committee, ephemerally, with the usual buttons.
const ActionDigestMine = "digest:mine"

// EventDigestPosted is the metadata event type of a weekly digest.
const EventDigestPosted = "recordsbot_digest_posted"

// Digest limits: a committee with more than this is shown by its counts
// and the top of its list (overdue first), and "My actions here" or
// /actions for the rest.
const (
	digestMaxGroups  = 15 // assignees shown
	digestMaxPerList = 8  // actions shown per assignee
	digestMaxChanges = 5  // lines per kind of change
	digestMaxMinutes = 10 // minutes listed
)

// Digest is one weekly digest of a committee, for a channel that follows
// it.
type Digest struct {
	// Lang is the channel's language (ORG_LANGUAGE or the follow's).
	Lang         lang.Lang
	Committee    string
	CommitteeKey string // the button's value
	// Since is when the last digest was posted; zero for the first, which
	// then says nothing of changes.
	Since time.Time
	// Groups are the open and in-progress actions by assignee, in the
	// order shown (those with overdue actions first).
	Groups []DigestGroup
	// Completed, NewlyAssigned and NewlyOverdue are the changes since the
	// last digest, rows as in Groups, each naming its assignee.
	Completed, NewlyAssigned, NewlyOverdue []ActionRow
	// Minutes are the minutes announced in the channel since the last
	// digest.
	Minutes []DigestMinutes
	// Counted: the channel may not read people's actions
	// (actions.Service.ChannelMayName), so they are counted, not listed.
	Counted bool
}

// DigestGroup is one assignee's actions.
type DigestGroup struct {
	// Name is the assignee as the records name them ("" for unassigned).
	Name string
	// Mention, when set, is their Slack user ID, shown as a mention
	// (which pings them) instead of Name.
	Mention string
	// Items are their actions, overdue first, as RowOf builds them for a
	// channel (actions.ChannelView); the group's name stands for their
	// assignee.
	Items []ActionRow
}

// DigestMinutes is minutes announced since the last digest.
type DigestMinutes struct {
	Title string
	URL   string // "" = no link
	Draft bool
}

// DigestMetadata is the message metadata of a digest: its ledger key and
// committee.
func DigestMetadata(key, committeeKey string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventDigestPosted, EventPayload: map[string]any{
		"key": key, "committee": committeeKey,
	}}
}

// DigestMessage builds the digest: a header, the counts (and the changes'
// counts), the changes, the minutes, each assignee's actions (overdue
// first) and the "My actions here" button. Long lists are cut to their top
// with "…and K more", so a message always fits Block Kit's limits.
func DigestMessage(d Digest) Message {
	lg := d.Lang
	name := cmp.Or(inline(d.Committee, 100), lg.T("digest.committee"))
	open, overdue := countOpen(d.Groups)
	counts := openCounts(lg, open, overdue)
	fallback := lg.F("digest.fallback", "committee", oneLine(d.Committee), "open", lg.N("count.actions", open), "overdue", lg.Int(overdue))
	if !d.Since.IsZero() {
		counts = lg.F("digest.since", "counts", counts, "date", dateOnly(lg, d.Since),
			"completed", lg.Int(len(d.Completed)), "assigned", lg.Int(len(d.NewlyAssigned)), "overdue", lg.Int(len(d.NewlyOverdue)),
			"minutes", lg.N("digest.minutes_published", len(d.Minutes)))
	}
	bl := []slack.Block{header(lg.F("digest.header", "committee", oneLine(cmp.Or(d.Committee, lg.T("digest.committee"))))), section(counts)}
	// What is left of the message's text budget: each section takes what
	// fits of it (and of a section's own limit), cut with "…and K more".
	budget := MaxMessageText - runes(fallback) - measure(bl...) - 200
	add := func(title string, lines []string, max int) {
		if len(lines) == 0 || budget < 200 {
			return
		}
		text, used := fitLines(lg, title, lines, max, min(MaxSectionText, budget))
		budget -= used
		bl = append(bl, section(text))
	}
	if d.Counted && open > 0 {
		bl = append(bl, section(lg.T("actions.channel_counted")))
	}
	if !d.Since.IsZero() && !d.Counted {
		add(lg.T("digest.completed"), changeLines(lg, d.Completed), digestMaxChanges)
		add(lg.T("digest.newly_assigned"), changeLines(lg, d.NewlyAssigned), digestMaxChanges)
		add(lg.T("digest.newly_overdue"), changeLines(lg, d.NewlyOverdue), digestMaxChanges)
	}
	var mins []string
	for _, m := range d.Minutes {
		t := inline(cmp.Or(m.Title, lg.T("minutes.untitled")), 150)
		if m.URL != "" {
			t = "<" + m.URL + "|" + t + ">"
		}
		if m.Draft {
			t = lg.F("digest.draft", "title", t)
		}
		mins = append(mins, "• "+t)
	}
	add(lg.T("digest.minutes_since"), mins, digestMaxMinutes)
	if open == 0 {
		bl = append(bl, section(lg.F("digest.nothing_open", "committee", name)))
	}
	bl = append(bl, slack.NewDividerBlock())
	groups := d.Groups
	if d.Counted {
		groups = nil
	}
	for i, g := range groups {
		if i == digestMaxGroups || budget < 400 {
			rest := 0
			for _, g := range groups[i:] {
				rest += len(g.Items)
			}
			bl = append(bl, contextLine(lg.N("digest.more_people", len(groups)-i, "actions", lg.N("count.actions", rest))))
			break
		}
		who := cmp.Or(inline(g.Name, 80), lg.T("digest.unassigned"))
		if g.Mention != "" {
			who = "<@" + g.Mention + ">"
		}
		var lines []string
		for _, it := range g.Items {
			lines = append(lines, "• "+groupedLine(lg, it))
		}
		add("*"+who+"*", lines, digestMaxPerList)
	}
	bl = append(bl, slack.NewActionBlock("digest-buttons", button(ActionDigestMine, d.CommitteeKey, lg.T("digest.mine"))))
	return Message{Text: fallback, Blocks: bl}
}

// countOpen is how many actions groups hold, and how many of them are
// overdue.
func countOpen(groups []DigestGroup) (open, overdue int) {
	for _, g := range groups {
		for _, it := range g.Items {
			open++
			if it.Overdue {
				overdue++
			}
		}
	}
	return open, overdue
}

// openCounts says how many actions are open, and how many overdue.
func openCounts(lg lang.Lang, open, overdue int) string {
	if overdue > 0 {
		return lg.F("digest.counts_overdue", "open", lg.N("digest.open", open), "overdue", lg.N("digest.overdue", overdue))
	}
	return lg.F("digest.counts", "open", lg.N("digest.open", open))
}

// changeLines is the rows of one kind of change, with their assignees.
func changeLines(lg lang.Lang, rows []ActionRow) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, "• "+rowLine(lg, r))
	}
	return out
}

// fitLines is title and then up to max of lines, as many as fit in limit
// characters with "…and K more" after them, and its length.
func fitLines(lg lang.Lang, title string, lines []string, max, limit int) (string, int) {
	const moreWidth = 32 // "\n…and 1234 more", in the longest language
	out := title + " (" + lg.Int(len(lines)) + ")"
	n := runes(out)
	for i, l := range lines {
		if i == max || n+1+runes(l)+moreWidth > limit {
			more := "\n" + lg.N("digest.and_more", len(lines)-i)
			return out + more, n + runes(more)
		}
		out += "\n" + l
		n += 1 + runes(l)
	}
	return out, n
}

// groupedLine is r on one line under its assignee's name, which is not
// said again.
func groupedLine(lg lang.Lang, r ActionRow) string {
	r.Assignee = ""
	return rowLine(lg, r)
}
