package blocks

import (
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// helpLine is one form of a command and what it does: the command's
// English keyword (kw, "" for none: the command alone), its argument (a
// catalogue key, "" for none) and what it does (a catalogue key). Help
// shows the form with the English keyword, then the same form with each
// of the reader's aliases for it (lang.Aliases), which the parsers honour
// (lang.Keyword).
type helpLine struct {
	kw   string
	arg  lang.Key
	does lang.Key
}

// commandHelp is the help of one slash command.
type commandHelp struct {
	command string
	summary lang.Key
	lines   []helpLine
}

// commands is the help of every command, in the order Help shows them.
var commands = []commandHelp{
	{
		command: "/actions",
		summary: "help.actions.summary",
		lines: []helpLine{
			{"", "", "help.actions.open"},
			{"", "help.arg.status", "help.actions.status"},
			{"overdue", "", "help.actions.overdue"},
			{"snoozed", "", "help.actions.snoozed"},
			{"", "help.arg.user", "help.actions.user"},
			{"meeting", "help.arg.id", "help.actions.meeting"},
			{"complete", "help.arg.id", "help.actions.complete"},
			{"history", "help.arg.id", "help.actions.history"},
			{"help", "", "help.this_help"},
		},
	},
	{
		command: "/minutes",
		summary: "help.minutes.summary",
		lines: []helpLine{
			{"", "", "help.minutes.newest"},
			{"", "help.arg.committee", "help.minutes.committee"},
			{"", "help.arg.meeting", "help.minutes.meeting"},
			{"search", "help.arg.words", "help.minutes.search"},
			{"follow", "help.arg.committee", "help.minutes.follow"},
			{"following", "", "help.minutes.following"},
			{"follow", "help.arg.digest", "help.minutes.digest"},
			{"follow", "help.arg.language", "help.minutes.language"},
		},
	},
	{
		command: "/meetings",
		summary: "help.meetings.summary",
		lines: []helpLine{
			{"", "", "help.meetings.latest"},
			{"", "help.arg.committee", "help.meetings.committee"},
			{"", "help.arg.id", "help.meetings.one"},
		},
	},
}

// helpStatuses are the statuses /actions <status> takes, as help lists
// them: the keyword shown and the keyword its aliases stand for.
var helpStatuses = [...]struct{ shown, kw string }{
	{"open", "open"}, {"in_progress", "in-progress"}, {"complete", "completed"},
	{"cancelled", "cancelled"}, {"deferred", "deferred"}, {"all", "all"},
}

// helpVerbs are the other status changes /actions takes like complete.
var helpVerbs = [...]string{"done", "start", "defer", "cancel", "reopen"}

// keywordList is words as `code`, each followed by l's aliases for it:
// "`open` (`ouvertes`), `all` (`toutes`)". kw(i) is the keyword whose
// aliases follow the i-th word.
func keywordList(l lang.Lang, n int, word, kw func(int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + word(i) + "`")
		if as := l.Aliases(kw(i)); len(as) > 0 {
			b.WriteString(" (`" + strings.Join(as, "`, `") + "`)")
		}
	}
	return b.String()
}

// doesText is what the line does, in l, with the lists it names filled.
func (hl helpLine) doesText(l lang.Lang) string {
	switch hl.does {
	case "help.actions.status":
		return l.F(hl.does, "statuses", keywordList(l, len(helpStatuses),
			func(i int) string { return helpStatuses[i].shown }, func(i int) string { return helpStatuses[i].kw }))
	case "help.actions.complete":
		word := func(i int) string { return helpVerbs[i] }
		return l.F(hl.does, "verbs", keywordList(l, len(helpVerbs), word, word))
	case "help.minutes.follow":
		word := func(int) string { return "unfollow" }
		return l.F(hl.does, "unfollow", keywordList(l, 1, word, word))
	}
	return l.T(hl.does)
}

// text renders the help as mrkdwn in l. Forms are escaped: their
// <placeholders> would otherwise be read as links.
func (h commandHelp) text(l lang.Lang) string {
	var b strings.Builder
	b.WriteString("*`" + h.command + "`* — " + l.T(h.summary))
	for _, hl := range h.lines {
		arg := ""
		if hl.arg != "" {
			arg = " " + l.T(hl.arg)
		}
		b.WriteString("\n• `" + Escape(form(h.command, hl.kw, arg)) + "`")
		if hl.kw != "" {
			for _, alias := range l.Aliases(hl.kw) {
				b.WriteString(" · `" + Escape(form(h.command, alias, arg)) + "`")
			}
		}
		b.WriteString(" — " + hl.doesText(l))
	}
	return b.String()
}

// form is one way to type a command: "/actions overdue", "/actions
// meeting <id>".
func form(command, word, arg string) string {
	if word != "" {
		command += " " + word
	}
	return command + arg
}

// Help builds the help for command ("/actions", "/minutes", "/meetings",
// with or without the slash; anything else, "" included, gives all three)
// in l, with l's command aliases beside the English keywords. note, when
// non-empty, is shown first (such as "I didn't understand …") and is the
// notification text; it is mrkdwn written by the bot, not escaped, and is
// shortened to 3000 characters.
func Help(l lang.Lang, command, note string) Message {
	name := "/" + strings.TrimPrefix(strings.ToLower(strings.TrimSpace(command)), "/")
	var blocks []slack.Block
	if note != "" {
		blocks = append(blocks, section(truncateMrkdwn(note, MaxSectionText)))
	}
	text := l.T("help.title")
	var shown []commandHelp
	for _, h := range commands {
		if h.command == name {
			shown = []commandHelp{h}
			text = l.F("help.title_command", "command", h.command)
		}
	}
	if shown == nil {
		shown = commands
		blocks = append(blocks, header(text))
	}
	for _, h := range shown {
		blocks = append(blocks, section(h.text(l)))
	}
	tip := l.T("help.tip")
	if l.HasAliases() {
		tip += " " + l.T("help.english_works")
	}
	blocks = append(blocks, contextLine(tip))
	if note != "" {
		text = truncateMrkdwn(note, MaxSectionText)
	}
	return Message{Text: text, Blocks: blocks}
}

// Notice builds a short message of one section; text is mrkdwn written by
// the bot (escape any record or user text in it with Escape). Text longer
// than 3000 characters is shortened without cutting an entity or a <…>
// sequence; the fallback text is the same. An empty text is shown as "…",
// since Slack rejects an empty section.
func Notice(text string) Message {
	if strings.TrimSpace(text) == "" {
		text = ellipsis
	}
	text = truncateMrkdwn(text, MaxSectionText)
	return Message{Text: text, Blocks: []slack.Block{section(text)}}
}
