package blocks

import (
	"cmp"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes/body"
)

const (
	// minutesExcerptMax is how much of the body a minutes message shows.
	minutesExcerptMax = 800
	// unfurlExcerptMax keeps an unfurl to two or three lines.
	unfurlExcerptMax = 280
)

// minutesStatus is the status field of v's minutes, in v's language:
// drafts are flagged wherever shown.
func minutesStatus(v MinutesView) string {
	if v.Draft {
		return v.Lang.T("minutes.draft_mark")
	}
	return v.Lang.T("minutes.approved")
}

// Minutes builds the minutes summary message: a header with the title
// ("Minutes" when empty), fields for committee, date and status (drafts are
// marked ":warning: Draft — not yet approved"), the opening of the body (see
// Mrkdwn: about 800 characters of Slack text, escaped once), a
// "Read the full minutes" link button when v.URL is an http(s) URL, "Share
// in channel" (ActionMinutesShare, value v.MeetingID) when v.Shareable and
// the ID is set, and "Shared by @user" when v.SharedBy is set.
func Minutes(v MinutesView) Message {
	l := v.Lang
	title := truncate(cmp.Or(oneLine(v.Title), l.T("minutes.untitled")), MaxHeaderText)
	blocks := []slack.Block{header(title)}

	blocks = append(blocks, minutesSummary(v, minutesExcerptMax)...)
	buttons := readButton(v)
	if v.Shareable && v.MeetingID != "" && len(v.MeetingID) <= MaxButtonValue {
		buttons = append(buttons, button(ActionMinutesShare, v.MeetingID, l.T("minutes.share")))
	}
	if len(buttons) > 0 {
		blocks = append(blocks, slack.NewActionBlock("", buttons...))
	}
	if line := revisionsLine(l, v); line != "" {
		blocks = append(blocks, contextLine(line)) // blocks/versions.go
	}
	if v.SharedBy != "" {
		blocks = append(blocks, contextLine(l.F("minutes.shared_by", "who", mention(l, v.SharedBy))))
	}
	return Message{Text: minutesFallback(v, title), Blocks: blocks}
}

// minutesFallback is "Minutes: <title> (<committee>, <date>), draft".
func minutesFallback(v MinutesView, title string) string {
	var about []string
	if c := inline(v.Committee, 100); c != "" {
		about = append(about, c)
	}
	l := v.Lang
	if d := plainDate(l, v.Date, v.DateHasTime); d != "" {
		about = append(about, d)
	}
	key, keyAbout := lang.Key("minutes.fallback"), lang.Key("minutes.fallback_about")
	if v.Draft {
		key, keyAbout = "minutes.fallback_draft", "minutes.fallback_draft_about"
	}
	if len(about) > 0 {
		return l.F(keyAbout, "title", Escape(title), "about", strings.Join(about, ", "))
	}
	return l.F(key, "title", Escape(title))
}

// UnfurlMinutes builds the compact unfurl of a minutes link: one section
// with the title, a line "committee · date · status" (drafts marked), two or
// three lines of the body and a "Read the full minutes" link when v.URL is
// an http(s) URL. Fallback is the plain-text title.
func UnfurlMinutes(v MinutesView) slack.Attachment {
	l := v.Lang
	title := cmp.Or(oneLine(v.Title), l.T("minutes.untitled"))
	lines := []string{"*" + escapeTrunc(title, 200) + "*"}
	var meta []string
	if c := inline(v.Committee, 80); c != "" {
		meta = append(meta, c)
	}
	if d := Date(l, v.Date, v.DateHasTime); d != "" {
		meta = append(meta, d)
	}
	meta = append(meta, minutesStatus(v))
	lines = append(lines, strings.Join(meta, " · "))
	// One run of text rather than paragraphs keeps the unfurl to two or
	// three lines.
	if ex := oneLine(Excerpt(body.OneLine(body.PlainText(v.Body, v.Format)), unfurlExcerptMax)); ex != "" {
		lines = append(lines, escapeTrunc(ex, 2*unfurlExcerptMax))
	}
	if lk := link(v.URL, l.T("minutes.read_full")); lk != "" {
		lines = append(lines, lk)
	}
	return slack.Attachment{
		Fallback: l.F("minutes.fallback", "title", truncate(title, 200)),
		Blocks:   slack.Blocks{BlockSet: []slack.Block{section(strings.Join(lines, "\n"))}},
	}
}

// minutesSummary is the body of a minutes message and of an announcement:
// committee, date and status as fields, then the first lines (at most
// excerpt characters).
func minutesSummary(v MinutesView, excerpt int) []slack.Block {
	l := v.Lang
	var fields []*slack.TextBlockObject
	if c := inline(v.Committee, 200); c != "" {
		fields = append(fields, mrkdwn("*"+l.T("minutes.field.committee")+"*\n"+c))
	}
	if d := Date(l, v.Date, v.DateHasTime); d != "" {
		fields = append(fields, mrkdwn("*"+l.T("minutes.field.date")+"*\n"+d))
	}
	fields = append(fields, mrkdwn("*"+l.T("minutes.field.status")+"*\n"+minutesStatus(v)))
	out := []slack.Block{slack.NewSectionBlock(nil, fields, nil)}
	if ex := Mrkdwn(v.Body, v.Format, min(excerpt, MaxSectionText)); ex != "" {
		out = append(out, section(ex))
	}
	return out
}

// readButton is "Read the full minutes" when v.URL is a safe http(s) URL.
func readButton(v MinutesView) []slack.BlockElement {
	if !safeURL(v.URL, MaxURL) {
		return nil
	}
	b := button(ActionOpenLink, "", v.Lang.T("minutes.read_full"))
	b.URL = v.URL
	return []slack.BlockElement{b}
}
