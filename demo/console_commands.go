package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// person finds a demo person by handle, first or full name, or Slack ID,
// case-insensitively; a unique prefix of a handle is enough.
func (c *console) person(name string) (recordsfake.Person, error) {
	name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if name == "" {
		return recordsfake.Person{}, errors.New("say who, like: /as bob")
	}
	var prefixed []recordsfake.Person
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
	return recordsfake.Person{}, fmt.Errorf("there is no one called %q in the demo; /who lists everyone", name)
}

func (c *console) switchTo(name string) error {
	p, err := c.person(name)
	if err != nil {
		return err
	}
	c.me = p
	c.r.lang = c.reads[p.SlackID]
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

func (c *console) slackUser() slackfake.User {
	return slackfake.User{ID: c.me.SlackID, Name: handle(c.me)}
}

// slash sends a slash command and shows the bot's reply and follow-ups.
func (c *console) slash(ctx context.Context, command, text string) error {
	resp, err := c.env.send.SlashCommand(ctx, slackfake.Command{
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
		if err := c.showReply(sc, resp.Body, resp.ResponseURLID); err != nil {
			return fmt.Errorf("the bot's reply to %s: %w", command, err)
		}
	}
	return c.settle(ctx, sc)
}

// click presses button n as the current person; for a select menu,
// option (its label or value, in any case) is the option chosen.
func (c *console) click(ctx context.Context, n int, option string) error {
	if len(c.buttons) == 0 {
		return errors.New("there are no buttons to click yet; try /actions first")
	}
	if n < 1 || n > len(c.buttons) {
		return fmt.Errorf("there is no button [%d]; the buttons above are [1] to [%d]", n, len(c.buttons))
	}
	b := c.buttons[n-1]
	if b.Element == nil {
		return fmt.Errorf("button [%d] has left the message; the others keep their numbers", n)
	}
	if err := b.choose(n, option); err != nil {
		return err
	}
	click := slackfake.Click{User: c.slackUser(), BlockID: b.BlockID, Element: b.Element, Option: b.Option, Selected: b.Selected, Date: b.Picked}
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
	case inModal:
		m, ok := c.env.slack.Modal(b.where.view)
		if !ok || !m.Open {
			return errors.New("that window is closed")
		}
		click.View = m.Served
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

// choose sets the option of a select menu b (button n) to the one named,
// by label or value in any case. Without one for a menu, or with one for
// anything else, it says how to click instead.
func (b *button) choose(n int, option string) error {
	if b.Date {
		if _, err := time.Parse(time.DateOnly, option); err != nil {
			return fmt.Errorf("[%d] is a date picker: say the day, like: click %d %s", n, n, time.Now().AddDate(0, 0, 1).Format(time.DateOnly))
		}
		b.Picked, b.Label = option, option
		return nil
	}
	if len(b.Choices) == 0 {
		if option != "" {
			return fmt.Errorf("[%d] is not a menu, so there is nothing to choose; click %d presses it", n, n)
		}
		return nil
	}
	if option == "" {
		return fmt.Errorf("[%d] is a menu: say which option, like: click %d %s", n, n, b.Choices[min(1, len(b.Choices)-1)].Label)
	}
	for _, ch := range b.Choices {
		if strings.EqualFold(ch.Label, option) || strings.EqualFold(ch.Value, option) {
			b.Option, b.Label = ch.Value, ch.Label
			return nil
		}
	}
	labels := make([]string, len(b.Choices))
	for i, ch := range b.Choices {
		labels[i] = ch.Label
	}
	return fmt.Errorf("menu [%d] has no option %q; its options are %s", n, option, strings.Join(labels, ", "))
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
func (c *console) remind(ctx context.Context, day string) error {
	at, err := remindDay(day, time.Now())
	if err != nil {
		return err
	}
	if !at.IsZero() {
		c.printf("%s\n", c.r.p.grey("The reminder job runs as on "+at.Format("Mon 2 Jan")+"."))
	}
	sum, err := c.env.remind(ctx, at)
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
	// Slack gives every event its own ID and the bot drops one it has
	// seen (a retry), so the count is the environment's: several consoles
	// on one demo (the tests run scripts one after another) must not
	// reuse an ID.
	c.events = int(c.env.events.Add(1))
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
