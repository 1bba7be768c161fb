package blocks

import (
	"strings"

	"github.com/slack-go/slack"
)

// helpLine is one form of a command and what it does.
type helpLine struct{ form, does string }

// commandHelp is the help of one slash command.
type commandHelp struct {
	command string
	summary string
	lines   []helpLine
}

// commands returns the help of every command, in the order Help shows them.
func commands() []commandHelp {
	return []commandHelp{
		{
			command: "/actions",
			summary: "your actions from committee meetings",
			lines: []helpLine{
				{"/actions", "your open actions"},
				{"/actions <status>", "your actions in that status: `open`, `in_progress`, `complete`, `cancelled`, `deferred` or `all`"},
				{"/actions overdue", "your overdue actions"},
				{"/actions snoozed", "your snoozed actions: left out of your reminders until their day; *Unsnooze* brings one back"},
				{"/actions @user", "someone else's open actions"},
				{"/actions meeting <id>", "the actions from one meeting"},
				{"/actions complete <id>", "mark an action complete; `done`, `start`, `defer`, `cancel` and `reopen` work the same way"},
				{"/actions history <id>", "who changed an action through Slack, from where, and how it ended"},
				{"/actions help", "this help"},
			},
		},
		{
			command: "/minutes",
			summary: "meeting minutes",
			lines: []helpLine{
				{"/minutes", "the newest published minutes, of any committee"},
				{"/minutes <committee>", "the latest minutes of one committee"},
				{"/minutes <meeting id or reference>", "the minutes of one meeting"},
				{"/minutes search <words>", "minutes that mention the words; \"a phrase\" in quotes, `committee:finance` to narrow"},
				{"/minutes follow <committee>", "post here when that committee's minutes are published or approved; `unfollow` stops it"},
				{"/minutes following", "the committees this channel follows, with checkboxes for what it hears of each (drafts, approvals, the weekly digest, pre-meeting briefs)"},
				{"/minutes follow <committee> digest mon 09:00", "this channel's weekly digest of the committee's actions (`digest off`; `mentions` pings the assignees)"},
				{"/minutes follow <committee> language fr", "the language of this channel's posts about the committee (announcements, digests, briefs): `en`, `fr`, `de` or `es`; `ORG_LANGUAGE` until chosen"},
			},
		},
		{
			command: "/meetings",
			summary: "committee meetings and their agendas",
			lines: []helpLine{
				{"/meetings", "the latest meetings"},
				{"/meetings <committee>", "one committee's meetings"},
				{"/meetings <id>", "one meeting with its agenda"},
			},
		},
	}
}

// text renders the help as mrkdwn. Forms are escaped: their <placeholders>
// would otherwise be read as links.
func (h commandHelp) text() string {
	var b strings.Builder
	b.WriteString("*`" + h.command + "`* — " + h.summary)
	for _, l := range h.lines {
		b.WriteString("\n• `" + Escape(l.form) + "` — " + l.does)
	}
	return b.String()
}

// helpTip closes every help message.
const helpTip = "The buttons on each action change its status, and the recordsbot *Home* tab shows your actions and the latest minutes."

// Help builds the help for command ("/actions", "/minutes", "/meetings",
// with or without the slash; anything else, "" included, gives all three).
// note, when non-empty, is shown first (such as "I didn't understand …") and
// is the notification text; it is mrkdwn written by the bot, not escaped,
// and is shortened to 3000 characters.
func Help(command, note string) Message {
	name := "/" + strings.TrimPrefix(strings.ToLower(strings.TrimSpace(command)), "/")
	var blocks []slack.Block
	if note != "" {
		blocks = append(blocks, section(truncateMrkdwn(note, MaxSectionText)))
	}
	text := "How to use recordsbot"
	var shown []commandHelp
	for _, h := range commands() {
		if h.command == name {
			shown = []commandHelp{h}
			text = "How to use " + h.command
		}
	}
	if shown == nil {
		shown = commands()
		blocks = append(blocks, header(text))
	}
	for _, h := range shown {
		blocks = append(blocks, section(h.text()))
	}
	blocks = append(blocks, contextLine(helpTip))
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
