package blocks

import (
	"cmp"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// EventMinutesEdited marks a post telling of minutes changed after their
// approval; event_payload.key is its ledger key.
const EventMinutesEdited = "recordsbot_minutes_edited"

// editParagraphsMax bounds the changed paragraphs an edit's post shows;
// the link shows them all.
const editParagraphsMax = 5

// ChangeRun is a run of words of a comparison: kept, added or removed.
type ChangeRun struct {
	Added, Removed bool
	Text           string
}

// MinutesEdit is the post telling of minutes changed after approval.
type MinutesEdit struct {
	Lang      lang.Lang
	Title     string
	Committee string
	// Changes counts the places changed; Paragraphs are the changed
	// paragraphs, their runs in order.
	Changes    int
	Paragraphs [][]ChangeRun
	// URL is the public comparison; "" for none.
	URL string
	// Admin marks the DM to an admin, which says why they hear of it.
	Admin bool
}

// MinutesEditMessage builds the edit's post: what changed after approval
// and how much, the changed paragraphs with added words in bold and
// removed ones struck through (record text escaped once), and "See what
// changed" when the comparison has a page.
func MinutesEditMessage(e MinutesEdit) Message {
	lg := e.Lang
	title := cmp.Or(inline(e.Title, 150), lg.T("minutes.untitled"))
	head := lg.N("versions.edited_alert", e.Changes, "title", title, "committee", inline(e.Committee, 80))
	out := []slack.Block{section(truncateMrkdwn(head, MaxSectionText))}
	for i, p := range e.Paragraphs {
		if i == editParagraphsMax {
			out = append(out, contextLine(lg.N("digest.and_more", len(e.Paragraphs)-i)))
			break
		}
		out = append(out, section(truncateMrkdwn("> "+changeLine(p), MaxSectionText)))
	}
	if safeURL(e.URL, MaxURL) {
		b := button(ActionOpenLink, "", lg.T("versions.see_changes"))
		b.URL = e.URL
		out = append(out, slack.NewActionBlock("", b))
	}
	if e.Admin {
		out = append(out, contextLine(lg.T("versions.admin_why")))
	}
	return Message{Text: head, Blocks: out}
}

// changeLine is a changed paragraph as mrkdwn: each run's text escaped
// and unstyled (literalText), added runs *bold*, removed ones ~struck~.
func changeLine(runs []ChangeRun) string {
	var parts []string
	for _, r := range runs {
		t := unstyled(Escape(oneLine(truncate(r.Text, 400))))
		switch {
		case r.Added:
			t = "*" + t + "*"
		case r.Removed:
			t = "~" + t + "~"
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}

// MinutesEditMetadata is an edit post's message metadata: its ledger key
// and the meeting.
func MinutesEditMetadata(key, meetingID string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventMinutesEdited, EventPayload: map[string]any{"key": key, "meeting_id": meetingID}}
}

// revisionsLine is the line a minutes view shows of its versions: "Approved
// on 17 March; 4 changes since the draft of 3 March" (or "as drafted"),
// and "Edited after approval on …" when it was, with "See what changed"
// when the comparison has a page; "" when nothing is known.
func revisionsLine(lg lang.Lang, v MinutesView) string {
	r := v.Revisions
	var parts []string
	switch {
	case r.Draft.IsZero():
	case r.Changes == 0:
		parts = append(parts, lg.F("versions.as_drafted", "approved", dateOn(lg, r.Approved), "draft", dateOn(lg, r.Draft)))
	default:
		parts = append(parts, lg.N("versions.approved_changes", r.Changes, "approved", dateOn(lg, r.Approved), "draft", dateOn(lg, r.Draft)))
	}
	if !r.Edited.IsZero() {
		parts = append(parts, lg.N("versions.edited_changes", r.EditChanges, "date", dateOn(lg, r.Edited)))
	}
	if len(parts) == 0 {
		return ""
	}
	line := ":memo: " + strings.Join(parts, " ")
	if safeURL(v.ChangesURL, MaxURL) {
		line += " <" + v.ChangesURL + "|" + lg.T("versions.see_changes") + ">"
	}
	return line
}
