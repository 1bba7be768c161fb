package demo

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

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
	var others, replies []slackfake.Message
	for _, m := range msgs[min(seen.messages, len(msgs)):] {
		shown[key{m.Channel, m.TS}] = true
		switch {
		case c.othersDM(m):
			others = append(others, m)
		case isReply(m):
			// A reply reads below its parent, which may be updated just
			// below: it waits until the updates are shown.
			replies = append(replies, m)
		default:
			c.showMessage(sc, m, "")
		}
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
			c.showMessage(sc, m, updatedSuffix)
		}
	}
	for _, m := range replies {
		c.showMessage(sc, m, "")
	}
	for _, p := range posts[min(seen.posts, len(posts)):] {
		if err := c.showReply(sc, p.Body, p.ID); err != nil {
			c.printf("%s\n", c.r.p.fg(fgYellow, "✗ a response_url post that is not a message: "+err.Error()))
		}
	}
	// A view replaces the one before; only the latest is on screen.
	newViews := views[min(seen.views, len(views)):]
	for i, v := range newViews {
		later := slices.ContainsFunc(newViews[i+1:], func(w slackfake.View) bool { return w.UserID == v.UserID })
		if !later && v.UserID == c.me.SlackID {
			c.showHome(sc, v.View)
		}
	}
	for _, u := range unfurls[min(seen.unfurls, len(unfurls)):] {
		c.showUnfurl(sc, u)
	}
	c.showModals(sc)
	if len(others) > 0 {
		slices.SortFunc(others, func(a, b slackfake.Message) int {
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
func (c *console) othersDM(m slackfake.Message) bool {
	return strings.HasPrefix(m.Channel, "D") && m.Channel != "D"+c.me.SlackID
}

// isReply reports whether m is a reply in a thread rather than a message
// of its own: a reply's thread_ts is its parent's ts, while a parent that
// has replies carries a thread_ts equal to its own ts
// (https://docs.slack.dev/reference/events/message/message_replied/:
// "compare a thread_ts to the top-level ts value, when they differ the
// latter is a reply to the former").
func isReply(m slackfake.Message) bool { return m.ThreadTS != "" && m.ThreadTS != m.TS }

// dmChannel is the channel a chat call's "channel" names: a user ID means
// the DM with that user, as the stand-in for Slack stores it.
func dmChannel(ch string) string {
	if strings.HasPrefix(ch, "U") || strings.HasPrefix(ch, "W") {
		return "D" + ch
	}
	return ch
}

// message returns the current version of the bot's message ts in channel.
func (c *console) message(channel, ts string) (slackfake.Message, bool) {
	for _, m := range c.env.slack.Messages(channel) {
		if m.TS == ts && !m.Ephemeral {
			return m, true
		}
	}
	return slackfake.Message{}, false
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

// showReply shows a reply to the request whose response_url has the id
// responseID, in the request's channel (responseChannel). Slack honours
// replace_original and delete_original for a click's response_url
// (clickResponses), never for a slash command's (see
// slackfake.Server.Screen), so the console shows what Slack would.
func (c *console) showReply(sc *screen, body []byte, responseID string) error {
	var r reply
	if err := json.Unmarshal(body, &r); err != nil {
		return err
	}
	channel := cmp.Or(c.responseChannel[responseID], demoChannel)
	replaceable := c.clickResponses[responseID]
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
	where := origin{kind: inEphemeral, channel: channel}
	press := c.presser(sc, where)
	if r.ReplaceOriginal && replaceable {
		press = c.replacingPresser(sc, where)
	}
	c.showContent(sc, title, press, r.Text, r.Blocks, r.Attachments)
	return nil
}

// showMessage shows a message the bot posted; suffix adds to its title.
func (c *console) showMessage(sc *screen, m slackfake.Message, suffix string) {
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
	if isReply(m) {
		title += " · reply in the thread of an earlier post"
	}
	var blocks []json.RawMessage
	if len(m.Blocks) > 0 {
		if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
			c.card(title+suffix, []string{c.r.p.grey("(blocks that are not a JSON list)")}, nil)
			sc.shown++
			return
		}
	}
	press := c.presser(sc, where)
	if suffix == updatedSuffix {
		press = c.replacingPresser(sc, where)
	}
	c.showContent(sc, title+suffix, press, m.Text, blocks, m.Attachments)
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
	lines := c.r.blocks(v.Blocks, c.replacingPresser(sc, where))
	c.card("recordsbot · your Home tab", lines, view)
	sc.shown++
}

func (c *console) showUnfurl(sc *screen, u slackfake.Unfurl) {
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
// it has neither, as a card, numbering its controls with press.
func (c *console) showContent(sc *screen, title string, press func(control) int, text string, blocks []json.RawMessage, atts json.RawMessage) {
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

// presser numbers controls on sc, remembering where they are: content
// shown there for the first time.
func (c *console) presser(sc *screen, where origin) func(control) int {
	return numberer(sc, where, nil)
}

// replacingPresser is presser for content that replaces what was shown at
// where (a click's replace_original, chat.update, a view republished):
// each control that was there keeps its number, so the numbers a person
// reads stay right while the message is on screen: after clicking [1]
// Complete, [2] is still the button it was. A control that is gone leaves
// its number unused; a new one gets a number after every number kept.
func (c *console) replacingPresser(sc *screen, where origin) func(control) int {
	kept := map[string]int{}
	for i, b := range c.buttons {
		if b.where == where && b.Element != nil {
			kept[b.key()] = i + 1
			sc.reserved = max(sc.reserved, i+1)
		}
	}
	return numberer(sc, where, kept)
}

// numberer numbers controls on sc at where, giving a control in kept (by
// key) its old number while that number is free.
func numberer(sc *screen, where origin, kept map[string]int) func(control) int {
	return func(ctl control) int {
		b := button{control: ctl, where: where}
		if n, ok := kept[b.key()]; ok && (n > len(sc.buttons) || sc.buttons[n-1].Element == nil) {
			delete(kept, b.key())
			for len(sc.buttons) < n {
				sc.buttons = append(sc.buttons, button{})
			}
			sc.buttons[n-1] = b
			return n
		}
		for len(sc.buttons) < sc.reserved {
			sc.buttons = append(sc.buttons, button{})
		}
		sc.buttons = append(sc.buttons, b)
		return len(sc.buttons)
	}
}

// key names a control within its message across redraws: its action and
// value (a status button's value names the action and the status it
// sets), the option or box it stands for, and the action whose row it is
// on (a row's Snooze controls are the same on every row: the row's block
// ID names the action, blocks.ActionOfRowBlock).
func (b button) key() string {
	row, _ := blocks.ActionOfRowBlock(b.BlockID)
	return b.ActionID + "\x00" + b.Value + "\x00" + b.URL + "\x00" + b.Option + "\x00" + b.Label + "\x00" + row
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
