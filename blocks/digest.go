package blocks

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

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
	Committee    string
	CommitteeKey string // the button's value
	// Since is when the last digest was posted; zero for the first, which
	// then says nothing of changes.
	Since time.Time
	// Groups are the open and in-progress actions by assignee, in the
	// order shown (those with overdue actions first).
	Groups []DigestGroup
	// Completed, NewlyAssigned and NewlyOverdue are the changes since the
	// last digest.
	Completed, NewlyAssigned, NewlyOverdue []DigestItem
	// Minutes are the minutes announced in the channel since the last
	// digest.
	Minutes []DigestMinutes
}

// DigestGroup is one assignee's actions.
type DigestGroup struct {
	// Name is the assignee as the records name them ("" for unassigned).
	Name string
	// Mention, when set, is their Slack user ID, shown as a mention
	// (which pings them) instead of Name.
	Mention string
	// Items are their actions, overdue first.
	Items []DigestItem
}

// DigestItem is one action in a digest.
type DigestItem struct {
	ID              string
	Title           string
	Assignee        string // shown in the changes; the groups name their assignee
	Deadline        time.Time
	DeadlineHasTime bool
	Overdue         bool
	InProgress      bool
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
	name := cmp.Or(inline(d.Committee, 100), "Committee")
	open, overdue := 0, 0
	for _, g := range d.Groups {
		for _, it := range g.Items {
			open++
			if it.Overdue {
				overdue++
			}
		}
	}
	counts := fmt.Sprintf("*%s* open", words.Count(open, "action", "actions"))
	if overdue > 0 {
		counts += fmt.Sprintf(", *%d overdue*", overdue)
	}
	counts += "."
	fallback := fmt.Sprintf("Weekly digest of %s: %s open, %d overdue", oneLine(d.Committee), words.Count(open, "action", "actions"), overdue)
	if !d.Since.IsZero() {
		counts += fmt.Sprintf(" Since %s: %d completed, %d newly assigned, %d newly overdue, %s.",
			Date(d.Since, false), len(d.Completed), len(d.NewlyAssigned), len(d.NewlyOverdue), fmt.Sprintf("%d minutes published", len(d.Minutes)))
	}
	bl := []slack.Block{header(":spiral_calendar_pad: Weekly digest: " + oneLine(cmp.Or(d.Committee, "Committee"))), section(counts)}
	// What is left of the message's text budget: each section takes what
	// fits of it (and of a section's own limit), cut with "…and K more".
	budget := MaxMessageText - runes(fallback) - measure(bl...) - 200
	add := func(title string, lines []string, max int) {
		if len(lines) == 0 || budget < 200 {
			return
		}
		text, used := fitLines(title, lines, max, min(MaxSectionText, budget))
		budget -= used
		bl = append(bl, section(text))
	}
	if !d.Since.IsZero() {
		add("*:white_check_mark: Completed*", changeLines(d.Completed), digestMaxChanges)
		add("*:inbox_tray: Newly assigned*", changeLines(d.NewlyAssigned), digestMaxChanges)
		add("*:alarm_clock: Newly overdue*", changeLines(d.NewlyOverdue), digestMaxChanges)
	}
	var mins []string
	for _, m := range d.Minutes {
		t := inline(cmp.Or(m.Title, "Minutes"), 150)
		if m.URL != "" {
			t = "<" + m.URL + "|" + t + ">"
		}
		if m.Draft {
			t += " (draft)"
		}
		mins = append(mins, "• "+t)
	}
	add("*Minutes published since the last digest*", mins, digestMaxMinutes)
	if open == 0 {
		bl = append(bl, section(fmt.Sprintf("Nothing open for *%s*. :tada:", name)))
	}
	bl = append(bl, slack.NewDividerBlock())
	for i, g := range d.Groups {
		if i == digestMaxGroups || budget < 400 {
			rest := 0
			for _, g := range d.Groups[i:] {
				rest += len(g.Items)
			}
			bl = append(bl, contextLine(fmt.Sprintf("…and %s of %d more people — *My actions here* shows yours, `/actions` everyone's you may see",
				words.Count(rest, "action", "actions"), len(d.Groups)-i)))
			break
		}
		who := cmp.Or(inline(g.Name, 80), "Unassigned")
		if g.Mention != "" {
			who = "<@" + g.Mention + ">"
		}
		var lines []string
		for _, it := range g.Items {
			lines = append(lines, "• "+digestItem(it, false))
		}
		add("*"+who+"*", lines, digestMaxPerList)
	}
	bl = append(bl, slack.NewActionBlock("digest-buttons", button(ActionDigestMine, d.CommitteeKey, "My actions here")))
	return Message{Text: fallback, Blocks: bl}
}

// changeLines is the items of one kind of change, with their assignees.
func changeLines(items []DigestItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, "• "+digestItem(it, true))
	}
	return out
}

// fitLines is title and then up to max of lines, as many as fit in limit
// characters with "…and K more" after them, and its length.
func fitLines(title string, lines []string, max, limit int) (string, int) {
	const moreWidth = 24 // "\n…and 1234 more"
	out := title + fmt.Sprintf(" (%d)", len(lines))
	n := runes(out)
	for i, l := range lines {
		if i == max || n+1+runes(l)+moreWidth > limit {
			more := fmt.Sprintf("\n…and %d more", len(lines)-i)
			return out + more, n + runes(more)
		}
		out += "\n" + l
		n += 1 + runes(l)
	}
	return out, n
}

// digestItem is one action on one line: its title, in progress, the
// deadline (overdue marked) and, with who, the assignee's name.
func digestItem(it DigestItem, who bool) string {
	s := inline(cmp.Or(it.Title, it.ID), 150)
	if it.Overdue {
		s = ":red_circle: " + s
	}
	var notes []string
	if it.InProgress {
		notes = append(notes, "in progress")
	}
	if d := Date(it.Deadline, it.DeadlineHasTime); d != "" {
		notes = append(notes, pick(it.Overdue, "was due ", "due ")+d)
	}
	if who && it.Assignee != "" {
		notes = append(notes, inline(it.Assignee, 80))
	}
	if len(notes) > 0 {
		s += " — " + strings.Join(notes, ", ")
	}
	return s
}
