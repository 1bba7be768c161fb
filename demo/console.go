package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// consoleOptions configure a console. The zero value is a plain,
// non-interactive console speaking as Alice.
type consoleOptions struct {
	// JSON also prints each message's Block Kit JSON and a Block Kit
	// Builder link.
	JSON bool
	// Color styles the output with ANSI sequences.
	Color bool
	// Interactive shows a prompt before each command. Without it each
	// command is echoed after the prompt instead, so the output of a script
	// reads like a session, and the console reports failed commands in its
	// result.
	Interactive bool
	// As is the handle (first name) of the person to start as; default
	// "alice".
	As string
	// Now and Location are the reader's clock and time zone for dates;
	// defaults time.Now and time.Local.
	Now      func() time.Time
	Location *time.Location
	// Settle bounds the wait for the bot's follow-ups after each command;
	// default 20 s, more than the bot's own 15 s work timeout.
	Settle time.Duration
}

// console speaks for Slack to the demo's bot: it turns typed commands into
// the requests Slack would send (slash commands, button clicks, events),
// then shows what the bot did — its inline reply and everything it sent
// the stand-in for Slack meanwhile — rendered for the terminal, with every
// button numbered so the next command can press it.
type console struct {
	env  *demoEnv
	out  *errWriter
	opts consoleOptions
	r    renderer
	me   recordsfake.Person

	// buttons are the numbered controls of the latest output that had any;
	// `click N` presses buttons[N-1].
	buttons []button
	// seen is how much of the stand-in's record has been shown.
	seen cursor
	// responseChannel maps the id of each response_url the console sent to
	// the channel of the request, so an ephemeral message that arrives
	// through it is clicked in the right place.
	responseChannel map[string]string
	// clickResponses holds the response_url ids of clicks: only there does
	// Slack honour replace_original and delete_original; a slash
	// command's follow-up always arrives as a new message.
	clickResponses map[string]bool
	events         int
	failed         int
	// assigned numbers the actions `assign` adds.
	assigned int
	hinted   bool
	// modalHashes holds the version of each modal last shown.
	modalHashes map[string]string
	// reads is each person's Slack language as `lang` set it, by Slack
	// user ID: the screen draws date tokens in the speaker's (renderer.lang).
	reads map[string]lang.Lang
}

// button is a numbered control and the message it is on.
type button struct {
	control
	where origin
}

type originKind int

const (
	// inEphemeral is a message only its reader sees: a slash command's
	// reply or a response_url post. Slack sends no copy of it with a
	// click.
	inEphemeral originKind = iota
	// inMessage is a message the bot posted (a DM, a shared summary),
	// clicked with its ts and its current blocks.
	inMessage
	// inHome is the App Home view, clicked with the view.
	inHome
	// inModal is a modal, clicked with the view as Slack serves it.
	inModal
)

// origin is where a message is, which decides how a click on it is sent.
type origin struct {
	kind    originKind
	channel string
	ts      string
	view    string // a modal's view ID
}

// updatedSuffix ends the title of a message chat.update changed.
const updatedSuffix = " · updated"

// cursor counts what of the stand-in's record has been shown.
type cursor struct{ messages, updates, posts, views, unfurls int }

// screen is the output of one command: its buttons are numbered from 1.
type screen struct {
	// buttons are numbered by their index plus one; a control that left
	// a redrawn message leaves a hole (a zero button).
	buttons []button
	// reserved is the highest number a redrawn message keeps: new
	// controls are numbered after it.
	reserved int
	shown    int // messages shown
	// quiet is what to say when the command showed no message; default
	// "(the bot sent nothing back)".
	quiet string
}

func newConsole(env *demoEnv, out io.Writer, opts consoleOptions) (*console, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Settle <= 0 {
		opts.Settle = 20 * time.Second
	}
	if opts.As == "" {
		opts.As = "alice"
	}
	c := &console{
		env:             env,
		out:             &errWriter{w: out},
		opts:            opts,
		responseChannel: map[string]string{},
		clickResponses:  map[string]bool{},
		modalHashes:     map[string]string{},
		reads:           map[string]lang.Lang{},
		r: renderer{
			p:        palette{on: opts.Color},
			now:      opts.Now,
			loc:      opts.Location,
			handles:  map[string]string{slackfake.DefaultBotUserID: "recordsbot"},
			channels: map[string]string{demoChannel: demoChannelName},
		},
	}
	for _, p := range env.people {
		c.r.handles[p.SlackID] = handle(p)
	}
	me, err := c.person(opts.As)
	if err != nil {
		return nil, fmt.Errorf("--as: %w", err)
	}
	c.me = me
	return c, nil
}

// run reads commands from in, line by line, until it ends, `quit`, or ctx
// is cancelled, all of which end the console cleanly. A non-interactive
// console returns an error when any command failed, so a script can tell.
func (c *console) run(ctx context.Context, in io.Reader) error {
	return c.runFrom(ctx, newPlainLines(in, c.out))
}

// runFrom is run reading from src: a terminal's line editor (Run) or
// plain lines.
func (c *console) runFrom(ctx context.Context, src lineSource) error {
	c.banner()
	type read struct {
		line string
		err  error
	}
	asks, reads := make(chan string), make(chan read)
	done := make(chan struct{})
	defer close(done)
	// A blocking read of stdin cannot be interrupted, so it happens here
	// and the loop below waits on it and on ctx together. A line is read
	// only when the loop asks for one, with the prompt of that moment (it
	// changes with /as), so a line editor holds the terminal only while a
	// line is typed. The goroutine ends at the end of input or, once run
	// has returned, before it reads or hands over another line.
	go func() {
		for {
			var prompt string
			select {
			case prompt = <-asks:
			case <-done:
				return
			}
			line, err := src.readLine(prompt)
			select {
			case reads <- read{line, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()

	for {
		prompt := ""
		if c.opts.Interactive {
			prompt = c.prompt()
		}
		select {
		case <-ctx.Done():
			return c.stopped()
		case asks <- prompt:
		}
		var r read
		select {
		case <-ctx.Done():
			return c.stopped()
		case r = <-reads:
		}
		if r.err != nil {
			if !errors.Is(r.err, io.EOF) {
				return fmt.Errorf("read commands: %w", r.err)
			}
			if c.opts.Interactive {
				c.printf("\n")
			}
			return c.result()
		}
		line := r.line
		if !c.opts.Interactive && strings.TrimSpace(line) != "" {
			c.printf("%s%s\n", c.prompt(), line)
		}
		quit, err := c.do(ctx, line)
		if ctx.Err() != nil {
			return c.stopped()
		}
		if err != nil {
			c.failed++
			c.printf("%s\n\n", c.r.p.fg(fgYellow, "✗ "+err.Error()))
		}
		if c.out.err != nil {
			return fmt.Errorf("write output: %w", c.out.err)
		}
		if quit {
			return c.result()
		}
	}
}

// stopped ends a console whose context was cancelled (Ctrl-C): that is
// the person leaving, not a failure.
func (c *console) stopped() error {
	c.printf("\n")
	if c.out.err != nil {
		return fmt.Errorf("write output: %w", c.out.err)
	}
	return nil
}

// result is what a console that read all its commands returns.
func (c *console) result() error {
	if c.out.err != nil {
		return fmt.Errorf("write output: %w", c.out.err)
	}
	if c.failed > 0 && !c.opts.Interactive {
		if c.failed == 1 {
			return errors.New("1 command of the demo script failed")
		}
		return fmt.Errorf("%d commands of the demo script failed", c.failed)
	}
	return nil
}

func (c *console) prompt() string {
	return c.r.p.bold(c.r.p.fg(fgCyan, handle(c.me)+">")) + " "
}

// do runs one command line. quit is true for `quit`. The error is for the
// person at the console: what went wrong and what to do instead.
func (c *console) do(ctx context.Context, line string) (quit bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return false, nil
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch lower := strings.ToLower(word); lower {
	case "quit", "exit", "/quit", "/exit":
		return true, nil
	default:
		if run, ok := consoleCommands[lower]; ok {
			return false, run(c, ctx, rest)
		}
	}
	if n, err := strconv.Atoi(strings.Trim(word, "[]")); err == nil {
		return false, c.click(ctx, n, rest)
	}
	if strings.HasPrefix(word, "/") {
		return false, c.slash(ctx, word, rest)
	}
	if strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://") {
		return false, c.post(ctx, line)
	}
	return false, fmt.Errorf("unknown command %q; type help to see the commands", word)
}

// consoleCommand runs one of the console's own commands with the rest of
// its line.
type consoleCommand func(c *console, ctx context.Context, rest string) error

// consoleCommands are the console's own commands, by their words in lower
// case (help lists them). Any other word is a button's number, a slash
// command, or a link to post (do).
var consoleCommands = map[string]consoleCommand{
	"help":     (*console).helpCommand,
	"/help":    (*console).helpCommand,
	"?":        (*console).helpCommand,
	"as":       withRest((*console).switchTo),
	"/as":      withRest((*console).switchTo),
	"who":      (*console).whoCommand,
	"/who":     (*console).whoCommand,
	"click":    (*console).clickCommand,
	"press":    (*console).clickCommand,
	"home":     withCtx((*console).home),
	"lang":     withRest((*console).lang),
	"/lang":    withRest((*console).lang),
	"calendar": (*console).calendar,
	"history":  (*console).history,
	"search":   (*console).searchModal,
	"remind":   (*console).remind,
	"snooze":   (*console).snooze, // demo/console_steer.go
	"unsnooze": (*console).unsnooze,
	"away":     (*console).away,
	"holiday":  withRest((*console).holiday),
	"watch":    withCtx((*console).watch),
	"digest":   (*console).digest,
	"brief":    (*console).brief,
	"publish":  (*console).publish,
	"approve":  (*console).approve,
	"assign":   withRest((*console).assign),
	"dms":      (*console).dmsCommand,
	"dm":       (*console).dmsCommand,
	"post":     (*console).post,
	"say":      (*console).post,
	"json":     (*console).toggleJSON,
}

// withRest is a command that needs only the rest of its line.
func withRest(run func(c *console, rest string) error) consoleCommand {
	return func(c *console, _ context.Context, rest string) error { return run(c, rest) }
}

// withCtx is a command that takes no argument.
func withCtx(run func(c *console, ctx context.Context) error) consoleCommand {
	return func(c *console, ctx context.Context, _ string) error { return run(c, ctx) }
}

// helpCommand lists the commands; it takes no argument.
func (c *console) helpCommand(context.Context, string) error {
	c.help()
	return nil
}

// whoCommand lists who the speaker can be; it takes no argument.
func (c *console) whoCommand(context.Context, string) error {
	c.who()
	return nil
}

// dmsCommand shows the speaker's DMs; it takes no argument.
func (c *console) dmsCommand(context.Context, string) error { return c.dms() }

// clickCommand clicks the button numbered first in rest; for a menu, the
// option follows: "click 5 10:00".
func (c *console) clickCommand(ctx context.Context, rest string) error {
	num, option, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(strings.Trim(num, "[]"))
	if err != nil {
		return errors.New("click needs a button number, like: click 3 (or, for a menu, click 5 10:00)")
	}
	return c.click(ctx, n, strings.TrimSpace(option))
}

// history shows what the audit trail holds of the action whose ID is
// rest: /actions history.
func (c *console) history(ctx context.Context, rest string) error {
	if rest == "" {
		return errors.New("history needs an action's ID, like: history A-101 (/actions lists them)")
	}
	return c.slash(ctx, "/actions", "history "+rest)
}

// toggleJSON turns on or off the Block Kit JSON printed under each
// message; it takes no argument.
func (c *console) toggleJSON(context.Context, string) error {
	c.opts.JSON = !c.opts.JSON
	state := "off"
	if c.opts.JSON {
		state = "on"
	}
	c.printf("%s\n\n", c.r.p.grey("Block Kit JSON is "+state+"."))
	return nil
}

func (c *console) banner() {
	p := c.r.p
	c.printf("%s — the real bot with a stand-in for Slack and an in-memory records service, all in this process.\n", p.bold("recordsbot demo"))
	c.printf("  bot       %s  (its minutes pages open in your browser)\n", c.env.botURL)
	c.printf("  archive   %s/minutes · feed %s/minutes/feed.atom\n", c.env.botURL, c.env.botURL)
	c.printf("  calendar  %s/calendar.ics · one committee: %s/calendar/finance.ics · yours: calendar\n", c.env.botURL, c.env.botURL)
	c.printf("  you are   @%s (%s) · /as bob to be someone else · /who lists everyone\n", handle(c.me), c.me.Name)
	c.printf("  try       /actions, then click 1 · /minutes finance · /meetings · home · remind · help · quit\n")
	c.printf("  notified  /minutes follow finance · publish finance · watch · approve finance · watch\n\n")
}

func (c *console) help() {
	rows := [][2]string{
		{"/actions [open|overdue|all|@bob|help…]", "your actions, with buttons (/actions help: everything it takes)"},
		{"/minutes [committee|meeting]", "the latest minutes, or one meeting's"},
		{"/minutes search WORDS", "the minutes that mention them (try /minutes search room hire)"},
		{"/meetings [committee|meeting]", "meetings and agendas"},
		{"click N   (or just N)", "press button [N] of the messages above"},
		{"click N OPTION", "choose OPTION in menu [N], like: click 5 10:00"},
		{"home", "open your App Home tab"},
		{"lang CODE", "set your Slack language: fr, de, es, en (recordsbot answers in it), or a locale it does not ship, like ja-JP (ORG_LANGUAGE then)"},
		{"calendar [reset]", "your private calendar of deadlines (the Home tab's link; reset makes a new one) and the public meeting calendars"},
		{"history ID", "who changed action ID through Slack, from where, and how it ended (/actions history ID)"},
		{"search WORDS", "type WORDS into the open window and press its button: Search minutes or Watch a topic (home, then its button, opens it)"},
		{"remind [tomorrow|+N|DATE]", "run the daily reminder job and show the DMs it sends (the demo organisation's reminder time is 00:00, so everyone is due whatever the hour); as on a later day to walk a week"},
		{"snooze N [tomorrow|workday|week|DATE]", "snooze the action of the row button [N] is on (default: until the next working day); it is left out of your reminders until then"},
		{"unsnooze N", "press Unsnooze on the row button [N] is on"},
		{"away DATE   away back", "on your Home tab: away until DATE (no reminders, then one DM of what you missed), or back early"},
		{"holiday DATE", "close DATE for the whole organisation (REMIND_HOLIDAYS): no reminders, and the next working day skips it"},
		{"dms", "show the DMs recordsbot has sent you"},
		{"/minutes follow COMMITTEE", "make #general hear of that committee's new minutes (unfollow, following)"},
		{"/minutes follow COMMITTEE language de", "write #general's posts about the committee (announcements, digest, brief) in German: en, fr, de or es, or default for ORG_LANGUAGE again"},
		{"publish COMMITTEE", "the records service publishes the committee's next draft minutes"},
		{"approve COMMITTEE", "the records service approves the committee's latest published draft"},
		{"assign NAME TITLE", "the records service assigns NAME a new action (watch then DMs them)"},
		{"watch", "run the watcher's poll once and show what it posted"},
		{"digest COMMITTEE", "post the committee's weekly digest in #general now, as on its day (following it first)"},
		{"brief COMMITTEE", "post the brief of the committee's next meeting in #general now, as BRIEF_LEAD before it (following it first)"},
		{"post TEXT", "post a message in #general (links to minutes pages unfurl)"},
		{"/as NAME   /who", "speak as someone else · list the people"},
		{"json", "turn printing Block Kit JSON on or off"},
		{"quit", "leave (or Ctrl-D)"},
	}
	c.printf("Commands (slash commands go to the bot exactly as Slack would send them):\n")
	for _, r := range rows {
		c.printf("  %s  %s\n", padRight(c.r.p.bold(r[0]), 40), r[1])
	}
	c.printf("\n")
}

// slackLocales are the Slack locales `lang` sets for a shipped language's
// code: Slack names a locale by language and region ("fr-FR"), as
// users.info returns it.
var slackLocales = map[string]string{"en": "en-US", "fr": "fr-FR", "de": "de-DE", "es": "es-ES"}

// lang sets the speaker's Slack locale, as choosing a language in Slack's
// preferences does: the stand-in's users.info and users.list return it,
// and the bot, which reads it with the profile, answers in it (or in
// ORG_LANGUAGE when recordsbot does not ship it).
func (c *console) lang(code string) error {
	code = strings.TrimSpace(code)
	if code == "" {
		return fmt.Errorf("lang needs a language, like: lang fr (shipped: %s), or a Slack locale, like: lang ja-JP", lang.Codes())
	}
	locale := code
	if l, ok := slackLocales[strings.ToLower(code)]; ok {
		locale = l
	}
	if !c.env.slack.SetLocale(c.me.SlackID, locale) {
		return fmt.Errorf("@%s is not in the stand-in's workspace", handle(c.me))
	}
	c.env.actions.Forget(c.me.SlackID)
	// Slack draws what it renders itself (date tokens) in the locale,
	// English when recordsbot ships none like it: the screen follows.
	reads := lang.ForLocale(locale, lang.English)
	c.reads[c.me.SlackID], c.r.lang = reads, reads
	c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("@%s's Slack language is now %s: recordsbot answers in %s.", handle(c.me), locale, reads.Name())))
	return nil
}

// calendar prints the calendar addresses: every committee's and one
// committee's meeting feeds, and the speaker's own deadline feed (made on
// first use, as the Home tab's button makes it; new with "calendar
// reset", whose argument is arg).
func (c *console) calendar(ctx context.Context, arg string) error {
	var link string
	var err error
	reset := arg == "reset"
	if reset {
		link, err = c.env.calendar.ResetPrivateURL(ctx, c.me.SlackID)
	} else {
		link, err = c.env.calendar.EnsurePrivateURL(ctx, c.me.SlackID)
	}
	if err != nil {
		return fmt.Errorf("calendar link: %w", err)
	}
	c.printf("Calendars to subscribe to (Google Calendar: From URL · Outlook: Subscribe from web · Apple Calendar: New Calendar Subscription):\n")
	c.printf("  every committee's meetings  %s\n", c.env.calendar.FeedURL(""))
	c.printf("  one committee's             %s\n", c.env.calendar.FeedURL("finance"))
	c.printf("  %s  %s\n", padRight("@"+handle(c.me)+"'s own deadlines", 26), link)
	if reset {
		c.printf("  (the old link now answers 404)\n")
	}
	c.printf("\n")
	return nil
}
