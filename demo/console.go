package demo

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot/slacktest"
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
	me   recordstest.Person

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
	hinted         bool
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
)

// origin is where a message is, which decides how a click on it is sent.
type origin struct {
	kind    originKind
	channel string
	ts      string
}

// cursor counts what of the stand-in's record has been shown.
type cursor struct{ messages, updates, posts, views, unfurls int }

// screen is the output of one command: its buttons are numbered from 1.
type screen struct {
	buttons []button
	shown   int // messages shown
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
		r: renderer{
			p:        palette{on: opts.Color},
			now:      opts.Now,
			loc:      opts.Location,
			handles:  map[string]string{slacktest.DefaultBotUserID: "recordsbot"},
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

// run reads commands from in until it ends, `quit`, or ctx is cancelled,
// all of which end the console cleanly. A non-interactive console returns
// an error when any command failed, so a script can tell.
func (c *console) run(ctx context.Context, in io.Reader) error {
	c.banner()
	lines, readErr := make(chan string), make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	// A blocking read of stdin cannot be interrupted, so it happens here
	// and the loop below waits on it and on ctx together. The goroutine
	// ends at the end of input or, once run has returned, before it hands
	// over another line.
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-done:
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()

	for {
		if c.opts.Interactive {
			c.printf("%s", c.prompt())
		}
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			return c.stopped()
		case line, ok = <-lines:
		}
		if !ok {
			if err := <-readErr; err != nil {
				return fmt.Errorf("read commands: %w", err)
			}
			if c.opts.Interactive {
				c.printf("\n")
			}
			return c.result()
		}
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
	switch strings.ToLower(word) {
	case "quit", "exit", "/quit", "/exit":
		return true, nil
	case "help", "/help", "?":
		c.help()
		return false, nil
	case "/as", "as":
		return false, c.switchTo(rest)
	case "/who", "who":
		c.who()
		return false, nil
	case "click", "press":
		n, err := strconv.Atoi(strings.Trim(rest, "[]"))
		if err != nil {
			return false, errors.New("click needs a button number, like: click 3")
		}
		return false, c.click(ctx, n)
	case "home":
		return false, c.home(ctx)
	case "remind":
		return false, c.remind(ctx)
	case "dms", "dm":
		return false, c.dms()
	case "post", "say":
		return false, c.post(ctx, rest)
	case "json":
		c.opts.JSON = !c.opts.JSON
		state := "off"
		if c.opts.JSON {
			state = "on"
		}
		c.printf("%s\n\n", c.r.p.grey("Block Kit JSON is "+state+"."))
		return false, nil
	}
	if n, err := strconv.Atoi(strings.Trim(word, "[]")); err == nil && rest == "" {
		return false, c.click(ctx, n)
	}
	if strings.HasPrefix(word, "/") {
		return false, c.slash(ctx, word, rest)
	}
	if strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://") {
		return false, c.post(ctx, line)
	}
	return false, fmt.Errorf("unknown command %q; type help to see the commands", word)
}

func (c *console) banner() {
	p := c.r.p
	c.printf("%s — the real bot with a stand-in for Slack and an in-memory records service, all in this process.\n", p.bold("recordsbot demo"))
	c.printf("  bot       %s  (its minutes pages open in your browser)\n", c.env.botURL)
	c.printf("  you are   @%s (%s) · /as bob to be someone else · /who lists everyone\n", handle(c.me), c.me.Name)
	c.printf("  try       /actions, then click 1 · /minutes finance · /meetings · home · remind · help · quit\n\n")
}

func (c *console) help() {
	rows := [][2]string{
		{"/actions [open|overdue|all|@bob|help…]", "your actions, with buttons (/actions help: everything it takes)"},
		{"/minutes [committee|meeting]", "the latest minutes, or one meeting's"},
		{"/meetings [committee|meeting]", "meetings and agendas"},
		{"click N   (or just N)", "press button [N] of the messages above"},
		{"home", "open your App Home tab"},
		{"remind", "run the daily reminder job and show the DMs it sends"},
		{"dms", "show the DMs recordsbot has sent you"},
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

// person finds a demo person by handle, first or full name, or Slack ID,
// case-insensitively; a unique prefix of a handle is enough.
func (c *console) person(name string) (recordstest.Person, error) {
	name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if name == "" {
		return recordstest.Person{}, errors.New("say who, like: /as bob")
	}
	var prefixed []recordstest.Person
	for _, p := range c.env.people {
		if name == handle(p) || name == strings.ToLower(p.Name) || name == strings.ToLower(p.SlackID) {
			return p, nil
		}
		if strings.HasPrefix(handle(p), name) {
			prefixed = append(prefixed, p)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], nil
	}
	return recordstest.Person{}, fmt.Errorf("there is no one called %q in the demo; /who lists everyone", name)
}

func (c *console) switchTo(name string) error {
	p, err := c.person(name)
	if err != nil {
		return err
	}
	c.me = p
	// Ephemeral messages and the Home tab belong to whoever saw them.
	c.buttons = nil
	c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("You are now @%s (%s).", handle(p), p.Name)))
	return nil
}

func (c *console) who() {
	open := map[string]int{}
	for _, a := range c.env.records.Actions() {
		if a.Status == "open" || a.Status == "in_progress" {
			open[strings.ToLower(a.AssigneeEmail)]++
		}
	}
	c.printf("The people in the demo's records and Slack workspace:\n")
	for _, p := range c.env.people {
		mark := "  "
		if p.SlackID == c.me.SlackID {
			mark = c.r.p.bold("→ ")
		}
		c.printf("%s%s %s %s %s %d open actions\n", mark,
			padRight("@"+handle(p), 9), padRight(p.Name, 15), padRight(p.Email, 20), padRight(p.SlackID, 10), open[strings.ToLower(p.Email)])
	}
	c.printf("\n")
}

func (c *console) slackUser() slacktest.User {
	return slacktest.User{ID: c.me.SlackID, Name: handle(c.me)}
}

// slash sends a slash command and shows the bot's reply and follow-ups.
func (c *console) slash(ctx context.Context, command, text string) error {
	resp, err := c.env.send.SlashCommand(ctx, slacktest.Command{
		User: c.slackUser(), Command: command, Text: text,
		ChannelID: demoChannel, ChannelName: demoChannelName,
	})
	if err != nil {
		return fmt.Errorf("send %s to the bot: %w", command, err)
	}
	c.responseChannel[resp.ResponseURLID] = demoChannel
	if resp.Status != http.StatusOK {
		return fmt.Errorf("the bot answered %s with HTTP %d: %s", command, resp.Status, bytes.TrimSpace(resp.Body))
	}
	sc := &screen{}
	if len(bytes.TrimSpace(resp.Body)) > 0 {
		if err := c.showReply(sc, resp.Body, demoChannel, false); err != nil {
			return fmt.Errorf("the bot's reply to %s: %w", command, err)
		}
	}
	return c.settle(ctx, sc)
}

// click presses button n as the current person.
func (c *console) click(ctx context.Context, n int) error {
	if len(c.buttons) == 0 {
		return errors.New("there are no buttons to click yet; try /actions first")
	}
	if n < 1 || n > len(c.buttons) {
		return fmt.Errorf("there is no button [%d]; the buttons above are [1] to [%d]", n, len(c.buttons))
	}
	b := c.buttons[n-1]
	click := slacktest.Click{User: c.slackUser(), BlockID: b.BlockID, Element: b.Element, Option: b.Option}
	switch b.where.kind {
	case inEphemeral:
		click.Ephemeral, click.ChannelID = true, b.where.channel
	case inMessage:
		m, ok := c.message(b.where.channel, b.where.ts)
		if !ok {
			return errors.New("that message is gone")
		}
		click.ChannelID, click.MessageTS, click.MessageBlocks = m.Channel, m.TS, m.Blocks
	case inHome:
		v, ok := c.env.slack.HomeView(c.me.SlackID)
		if !ok {
			return errors.New("your Home tab is empty; type home to open it")
		}
		click.View = v
	}
	c.printf("%s\n", c.r.p.grey(fmt.Sprintf("@%s clicks “%s”", handle(c.me), b.Label)))
	if b.URL != "" {
		c.printf("%s\n", c.r.p.grey("Slack opens "+b.URL+" in the browser: open it yourself to see the page."))
	}
	resp, err := c.env.send.Click(ctx, click)
	if err != nil {
		return fmt.Errorf("send the click to the bot: %w", err)
	}
	c.responseChannel[resp.ResponseURLID] = click.ChannelID
	c.clickResponses[resp.ResponseURLID] = true
	if resp.Status != http.StatusOK {
		return fmt.Errorf("the bot answered the click with HTTP %d: %s", resp.Status, bytes.TrimSpace(resp.Body))
	}
	return c.settle(ctx, &screen{})
}

// home opens the App Home tab: Slack sends app_home_opened and the bot
// publishes the view.
func (c *console) home(ctx context.Context) error {
	ev := map[string]any{
		"type":     "app_home_opened",
		"user":     c.me.SlackID,
		"channel":  "D" + c.me.SlackID,
		"tab":      "home",
		"event_ts": c.slackTS(),
	}
	if err := c.event(ctx, ev); err != nil {
		return err
	}
	return c.settle(ctx, &screen{})
}

// remind runs the reminder job, as the daily `recordsbot remind` does, and
// shows the DMs it sent. The job sends each person one reminder a day, so
// running it again sends nothing new; its summary line says so.
func (c *console) remind(ctx context.Context) error {
	sum, err := c.env.remind(ctx)
	c.printf("%s\n", c.r.p.grey(sum.String()))
	if err != nil {
		return fmt.Errorf("reminder job: %w", err)
	}
	return c.settle(ctx, &screen{quiet: "(no new DMs: everyone due a reminder has had today's)"})
}

// dms shows every message in the current person's DM with the bot.
func (c *console) dms() error {
	msgs := c.env.slack.Messages("D" + c.me.SlackID)
	if len(msgs) == 0 {
		c.printf("%s\n\n", c.r.p.grey("recordsbot hasn't sent you a DM yet; remind runs the job that does."))
		return nil
	}
	sc := &screen{}
	for _, m := range msgs {
		c.showMessage(sc, m, "")
	}
	c.finish(sc)
	return nil
}

// post shows a message the current person posts in #general and, for
// each link to the bot's own pages in it, sends link_shared as Slack does
// for an app's unfurl domain.
func (c *console) post(ctx context.Context, text string) error {
	if text == "" {
		return errors.New("post what? For example: post " + c.env.botURL + "/minutes/<meeting id>")
	}
	c.card(fmt.Sprintf("@%s in #%s", handle(c.me), demoChannelName), []string{text}, nil)
	bot, err := url.Parse(c.env.botURL)
	if err != nil {
		return fmt.Errorf("bot URL: %w", err)
	}
	var links []map[string]string
	for _, f := range strings.Fields(text) {
		f = strings.Trim(f, "<>()[].,;\"'")
		if u, err := url.Parse(f); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host == bot.Host {
			links = append(links, map[string]string{"domain": u.Hostname(), "url": f})
		}
	}
	if len(links) == 0 {
		c.printf("%s\n\n", c.r.p.grey("Slack tells the bot only about links to its own domain ("+bot.Host+"), so nothing more happens."))
		return nil
	}
	ts := c.slackTS()
	err = c.event(ctx, map[string]any{
		"type":       "link_shared",
		"channel":    demoChannel,
		"user":       c.me.SlackID,
		"message_ts": ts,
		"unfurl_id":  "U" + strings.ReplaceAll(ts, ".", ""),
		"source":     "conversations_history",
		"event_ts":   ts,
		"links":      links,
	})
	if err != nil {
		return err
	}
	return c.settle(ctx, &screen{})
}

// event sends an Events API callback.
func (c *console) event(ctx context.Context, inner map[string]any) error {
	c.events++
	resp, err := c.env.send.Event(ctx, fmt.Sprintf("Ev%08d", c.events), inner, 0)
	if err != nil {
		return fmt.Errorf("send %s to the bot: %w", inner["type"], err)
	}
	if resp.Status != http.StatusOK {
		return fmt.Errorf("the bot answered %s with HTTP %d", inner["type"], resp.Status)
	}
	return nil
}

// slackTS is a fresh Slack-style timestamp for things the console makes
// up (events, people's messages).
func (c *console) slackTS() string {
	now := c.opts.Now()
	return fmt.Sprintf("%d.%06d", now.Unix(), c.events)
}

// settle waits until the bot has finished everything the last request set
// off — its follow-ups run after it answers, as Slack requires — then
// shows all that reached the stand-in for Slack, and finishes the screen.
func (c *console) settle(ctx context.Context, sc *screen) error {
	wctx, cancel := context.WithTimeout(ctx, c.opts.Settle)
	defer cancel()
	waitErr := c.env.bot.Wait(wctx)
	c.showNew(sc)
	c.finish(sc)
	if waitErr != nil && ctx.Err() == nil {
		return fmt.Errorf("the bot is still working after %s; what it sends later shows up after your next command", c.opts.Settle)
	}
	return nil
}

// finish ends a screen: its buttons become the ones `click` presses,
// unless it had none, when the earlier ones stay pressable.
func (c *console) finish(sc *screen) {
	if sc.shown == 0 {
		c.printf("%s\n\n", c.r.p.grey(cmp.Or(sc.quiet, "(the bot sent nothing back)")))
	}
	if len(sc.buttons) == 0 {
		return
	}
	c.buttons = sc.buttons
	if !c.hinted {
		c.hinted = true
		c.printf("%s\n\n", c.r.p.grey("Press a button with click N, or just N."))
	}
}

// showNew shows what the stand-in for Slack recorded since the last time:
// new messages, updated ones, response_url posts, Home views and unfurls.
func (c *console) showNew(sc *screen) {
	sl := c.env.slack
	msgs := sl.Messages("")
	updates := sl.Calls("chat.update")
	posts := sl.ResponsePosts("")
	views := sl.Views("")
	unfurls := sl.Unfurls()
	seen := c.seen
	c.seen = cursor{len(msgs), len(updates), len(posts), len(views), len(unfurls)}

	type key struct{ channel, ts string }
	shown := map[key]bool{}
	var others []slacktest.Message
	for _, m := range msgs[min(seen.messages, len(msgs)):] {
		shown[key{m.Channel, m.TS}] = true
		if c.othersDM(m) {
			others = append(others, m)
			continue
		}
		c.showMessage(sc, m, "")
	}
	for _, call := range updates[min(seen.updates, len(updates)):] {
		if call.Error != "" || call.Status != http.StatusOK {
			continue
		}
		k := key{dmChannel(call.Params.Get("channel")), call.Params.Get("ts")}
		if shown[k] {
			continue
		}
		shown[k] = true
		if m, ok := c.message(k.channel, k.ts); ok && !c.othersDM(m) {
			c.showMessage(sc, m, " · updated")
		}
	}
	for _, p := range posts[min(seen.posts, len(posts)):] {
		ch := c.responseChannel[p.ID]
		if ch == "" {
			ch = demoChannel
		}
		if err := c.showReply(sc, p.Body, ch, c.clickResponses[p.ID]); err != nil {
			c.printf("%s\n", c.r.p.fg(fgYellow, "✗ a response_url post that is not a message: "+err.Error()))
		}
	}
	// A view replaces the one before; only the latest is on screen.
	newViews := views[min(seen.views, len(views)):]
	for i, v := range newViews {
		later := slices.ContainsFunc(newViews[i+1:], func(w slacktest.View) bool { return w.UserID == v.UserID })
		if !later && v.UserID == c.me.SlackID {
			c.showHome(sc, v.View)
		}
	}
	for _, u := range unfurls[min(seen.unfurls, len(unfurls)):] {
		c.showUnfurl(sc, u)
	}
	if len(others) > 0 {
		slices.SortFunc(others, func(a, b slacktest.Message) int {
			return strings.Compare(c.r.handles[strings.TrimPrefix(a.Channel, "D")], c.r.handles[strings.TrimPrefix(b.Channel, "D")])
		})
		var lines []string
		for _, m := range others {
			to := strings.TrimPrefix(m.Channel, "D")
			lines = append(lines, fmt.Sprintf("%s  %s", padRight("@"+c.r.handles[to], 9), c.r.mrkdwn(m.Text, fgDefault)))
		}
		c.card("recordsbot · DMs to other people", lines, nil)
		c.printf("%s\n\n", c.r.p.grey("To see one with its buttons: /as NAME, then dms."))
		sc.shown++
	}
}

// othersDM reports whether m is a DM to someone other than the current
// person, which Slack would not show them.
func (c *console) othersDM(m slacktest.Message) bool {
	return strings.HasPrefix(m.Channel, "D") && m.Channel != "D"+c.me.SlackID
}

// dmChannel is the channel a chat call's "channel" names: a user ID means
// the DM with that user, as the stand-in for Slack stores it.
func dmChannel(ch string) string {
	if strings.HasPrefix(ch, "U") || strings.HasPrefix(ch, "W") {
		return "D" + ch
	}
	return ch
}

// message returns the current version of the bot's message ts in channel.
func (c *console) message(channel, ts string) (slacktest.Message, bool) {
	for _, m := range c.env.slack.Messages(channel) {
		if m.TS == ts && !m.Ephemeral {
			return m, true
		}
	}
	return slacktest.Message{}, false
}

// reply is a message as the bot answers a request or posts it to a
// response_url.
type reply struct {
	ResponseType    string            `json:"response_type"`
	ReplaceOriginal bool              `json:"replace_original"`
	DeleteOriginal  bool              `json:"delete_original"`
	Text            string            `json:"text"`
	Blocks          []json.RawMessage `json:"blocks"`
	Attachments     json.RawMessage   `json:"attachments"`
}

// showReply shows a reply to a request made in channel. replaceable says
// whether Slack honours replace_original and delete_original for it: for
// a click's response_url, never for a slash command's (see
// slacktest.Server.Screen), so the console shows what Slack would.
func (c *console) showReply(sc *screen, body []byte, channel string, replaceable bool) error {
	var r reply
	if err := json.Unmarshal(body, &r); err != nil {
		return err
	}
	title := "recordsbot · only visible to you"
	if r.ResponseType == "in_channel" {
		title = "recordsbot · in " + c.channelName(channel)
	}
	if r.DeleteOriginal && replaceable {
		c.card(title, []string{c.r.p.grey("(deletes the earlier message)")}, nil)
		sc.shown++
		return nil
	}
	if r.ReplaceOriginal && replaceable {
		title += " · replaces the earlier message"
	}
	c.showContent(sc, title, origin{kind: inEphemeral, channel: channel}, r.Text, r.Blocks, r.Attachments)
	return nil
}

// showMessage shows a message the bot posted; suffix adds to its title.
func (c *console) showMessage(sc *screen, m slacktest.Message, suffix string) {
	where := origin{kind: inMessage, channel: m.Channel, ts: m.TS}
	var title string
	switch {
	case m.Ephemeral:
		title = "recordsbot · only visible to you, in " + c.channelName(m.Channel)
		where = origin{kind: inEphemeral, channel: m.Channel}
	case strings.HasPrefix(m.Channel, "D"):
		title = "recordsbot · DM to you"
	default:
		title = "recordsbot · in " + c.channelName(m.Channel)
	}
	var blocks []json.RawMessage
	if len(m.Blocks) > 0 {
		if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
			c.card(title+suffix, []string{c.r.p.grey("(blocks that are not a JSON list)")}, nil)
			sc.shown++
			return
		}
	}
	c.showContent(sc, title+suffix, where, m.Text, blocks, m.Attachments)
}

func (c *console) showHome(sc *screen, view json.RawMessage) {
	var v struct {
		Blocks []json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		c.card("Home tab", []string{c.r.p.grey("(a view that is not JSON)")}, nil)
		sc.shown++
		return
	}
	where := origin{kind: inHome}
	lines := c.r.blocks(v.Blocks, c.presser(sc, where))
	c.card("recordsbot · your Home tab", lines, view)
	sc.shown++
}

func (c *console) showUnfurl(sc *screen, u slacktest.Unfurl) {
	var byURL map[string]json.RawMessage
	if err := json.Unmarshal(u.Unfurls, &byURL); err != nil {
		return
	}
	where := origin{kind: inMessage, channel: u.Channel, ts: u.TS}
	for _, link := range slices.Sorted(maps.Keys(byURL)) {
		att := append(append([]byte("["), byURL[link]...), ']')
		lines := c.r.attachments(att, c.presser(sc, where))
		c.card("recordsbot · unfurls "+link, lines, payload(nil, att))
		sc.shown++
	}
}

// showContent shows a message's blocks and attachments, or its text when
// it has neither, as a card.
func (c *console) showContent(sc *screen, title string, where origin, text string, blocks []json.RawMessage, atts json.RawMessage) {
	press := c.presser(sc, where)
	var lines []string
	if len(blocks) > 0 {
		lines = c.r.blocks(blocks, press)
	} else if text != "" {
		lines = strings.Split(c.r.mrkdwn(text, fgDefault), "\n")
	}
	if len(atts) > 0 && !bytes.Equal(bytes.TrimSpace(atts), []byte("null")) {
		lines = append(lines, c.r.attachments(atts, press)...)
	}
	var js []byte
	if len(blocks) > 0 || len(atts) > 0 {
		js = payload(blocks, atts)
	}
	c.card(title, lines, js)
	sc.shown++
}

// presser numbers controls on sc, remembering the message they are on.
func (c *console) presser(sc *screen, where origin) func(control) int {
	return func(ctl control) int {
		sc.buttons = append(sc.buttons, button{control: ctl, where: where})
		return len(sc.buttons)
	}
}

func (c *console) channelName(id string) string {
	if name, ok := c.r.channels[id]; ok {
		return "#" + name
	}
	return id
}

// payload is the JSON Block Kit Builder previews for a message:
// {"blocks":[…]} with any attachments.
func payload(blocks []json.RawMessage, atts json.RawMessage) []byte {
	m := map[string]any{}
	if len(blocks) > 0 {
		m["blocks"] = blocks
	}
	if len(atts) > 0 {
		m["attachments"] = atts
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil // unreachable: the parts are valid JSON
	}
	return unescapeHTML(b)
}

// unescapeHTML undoes Go's HTML-safe escaping of <, > and & (\u003c,
// \u003e, \u0026) in JSON, which the bot's JSON is full of, so mrkdwn such
// as <!date^…> reads as Slack gets it. The JSON means the same either way.
// A backslash escaped itself ("\\u003c") is left alone.
func unescapeHTML(js []byte) []byte {
	out := make([]byte, 0, len(js))
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' || i+1 == len(js) {
			out = append(out, js[i])
			continue
		}
		if js[i+1] == 'u' && i+6 <= len(js) {
			var c byte
			switch strings.ToLower(string(js[i+2 : i+6])) {
			case "003c":
				c = '<'
			case "003e":
				c = '>'
			case "0026":
				c = '&'
			}
			if c != 0 {
				out = append(out, c)
				i += 5
				continue
			}
		}
		out = append(out, js[i], js[i+1])
		i++
	}
	return out
}

// card prints a message in a frame, titled with where it appeared, and
// with --json its Block Kit JSON and a Block Kit Builder link.
func (c *console) card(title string, lines []string, js []byte) {
	p := c.r.p
	c.printf("%s %s\n", p.grey("╭─"), p.bold(title))
	for _, l := range lines {
		if l == "" {
			c.printf("%s\n", p.grey("│"))
			continue
		}
		c.printf("%s %s\n", p.grey("│"), l)
	}
	c.printf("%s\n", p.grey("╰─"))
	if c.opts.JSON && len(js) > 0 {
		var compact, indented bytes.Buffer
		if json.Compact(&compact, js) == nil && json.Indent(&indented, js, "  ", "  ") == nil {
			c.printf("  %s %s\n", p.bold("Block Kit Builder:"), blockKitBuilderURL(compact.Bytes()))
			c.printf("  %s\n", indented.String())
		}
	}
	c.printf("\n")
}

func (c *console) printf(format string, args ...any) {
	fmt.Fprintf(c.out, format, args...)
}

// errWriter remembers the first write error, so output can be written
// without checking each call and the console stops once it fails.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
