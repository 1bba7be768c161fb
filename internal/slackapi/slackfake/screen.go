package slackfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// What a person sees of the app's ephemeral answers.
//
// Slack shows the answers to a slash command and to a button click only to
// the person who asked, in the channel where they asked. Which of those
// answers stay on screen is where real Slack differs from what an app might
// expect, so the Server keeps, per user and channel, the ephemeral messages
// that person would see:
//
//   - The HTTP (or Socket Mode) ack of a slash command adds one message when
//     it carries text or blocks; an empty 200 adds none.
//   - A post to a slash command's response_url always adds one, whatever its
//     flags: replace_original and delete_original are honoured only for
//     messages with interactive components, not for the command's own ack
//     (slackapi/bolt-js#2287, slackapi/bolt-python#1268: Slack staff
//     confirm that a command's response_url cannot update its earlier
//     ephemeral reply).
//   - A post to a block_actions response_url honours replace_original and
//     delete_original for the message the button was in
//     (https://api.slack.com/interactivity/handling#updating_message_response);
//     without them it adds a new message.
//   - Slack ignores the body of the ack of a block_actions request.
//
// Screen returns that list; tests assert on it as on what the user sees.

// Ephemeral is a message only one person sees.
type Ephemeral struct {
	// ID stands for the message_ts Slack gives an ephemeral message; a
	// click on one of its buttons carries it as container.message_ts.
	ID      string
	User    string
	Channel string
	Text    string
	Blocks  json.RawMessage
	// From says what put it on screen: "ack", "response_url" or
	// "chat.postEphemeral".
	From string
	// Replaced counts the replace_original posts that changed it.
	Replaced int
	// IgnoredFlags lists the flags (replace_original, delete_original) a
	// post asked for that Slack does not honour there, for tests that want
	// to say so.
	IgnoredFlags []string
}

// responseContext is what a response_url was handed out for.
type responseContext struct {
	user, channel string
	// interactive is true for a block_actions response_url.
	interactive bool
	// messageID is the message the button was in: an ephemeral's ID, or a
	// channel message's ts when ephemeral is false.
	messageID string
	ephemeral bool
}

// Screen returns the ephemeral messages user sees in channel, oldest
// first. A message deleted with delete_original is gone from it.
func (s *Server) Screen(user, channel string) []Ephemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Ephemeral
	for _, e := range s.ws.screen {
		if e.User == user && e.Channel == channel {
			e.Blocks = bytes.Clone(e.Blocks)
			e.IgnoredFlags = append([]string(nil), e.IgnoredFlags...)
			out = append(out, e)
		}
	}
	return out
}

// registerResponseURL records what the response_url id answers.
func (s *Server) registerResponseURL(id string, rc responseContext) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ws.responseContexts[id] = rc
}

// recordAck puts the visible part of a slash command's ack on the user's
// screen: nothing for an empty body, a message for text or blocks. A body
// that is not JSON is shown as plain text, as Slack does.
func (s *Server) recordAck(user, channel string, body []byte) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return
	}
	text, blocks, ok := visibleContent(body)
	if !ok {
		text = string(body)
	}
	if text == "" && blocks == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok && s.ext.Shown != nil {
		s.ext.Shown("ack", body)
	}
	s.ws.addEphemeralLocked(Ephemeral{User: user, Channel: channel, Text: text, Blocks: blocks, From: "ack"})
	s.signalLocked()
}

// ephemeralWith returns the ID of the newest ephemeral message user sees in
// channel that holds a block with blockID, or "".
func (s *Server) ephemeralWith(user, channel, blockID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.ws.screen) - 1; i >= 0; i-- {
		e := s.ws.screen[i]
		if e.User == user && e.Channel == channel && hasBlockID(e.Blocks, blockID) {
			return e.ID
		}
	}
	return ""
}

func (ws *workspace) addEphemeralLocked(e Ephemeral) {
	ws.seq++
	e.ID = fmt.Sprintf("%s.e%06d", formatTS(ws.now().UnixMicro()), ws.seq)
	ws.screen = append(ws.screen, e)
}

// showResponseLocked applies a response_url post to what its user sees.
// It returns the flags Slack ignored.
func (ws *workspace) showResponseLocked(rc responseContext, body []byte) {
	var flags struct {
		ReplaceOriginal json.RawMessage `json:"replace_original"`
		DeleteOriginal  json.RawMessage `json:"delete_original"`
	}
	_ = json.Unmarshal(body, &flags)
	replace, del := flagSet(flags.ReplaceOriginal), flagSet(flags.DeleteOriginal)
	text, blocks, _ := visibleContent(body)
	if !rc.interactive {
		e := Ephemeral{User: rc.user, Channel: rc.channel, Text: text, Blocks: blocks, From: "response_url"}
		if replace {
			e.IgnoredFlags = append(e.IgnoredFlags, "replace_original")
		}
		if del {
			e.IgnoredFlags = append(e.IgnoredFlags, "delete_original")
		}
		ws.addEphemeralLocked(e)
		return
	}
	if rc.ephemeral {
		for i := range ws.screen {
			e := &ws.screen[i]
			if e.ID != rc.messageID {
				continue
			}
			switch {
			case del:
				ws.screen = append(ws.screen[:i], ws.screen[i+1:]...)
				return
			case replace:
				ws.revisedLocked("response_url replace of "+e.ID, e.Blocks, blocks, nil)
				e.Text, e.Blocks, e.Replaced = text, blocks, e.Replaced+1
				return
			}
			break
		}
	} else if m := ws.findMessage(rc.channel, rc.messageID); m != nil && (del || replace) {
		// A response_url can change or remove the (non-ephemeral) message
		// the button was in, even the bot's own DM.
		if del {
			for i := range ws.messages {
				if &ws.messages[i] == m {
					ws.messages = append(ws.messages[:i], ws.messages[i+1:]...)
					break
				}
			}
			return
		}
		ws.revisedLocked("response_url replace of "+m.TS, m.Blocks, blocks, nil)
		m.Text, m.Blocks, m.Edited = text, blocks, true
		return
	}
	ws.addEphemeralLocked(Ephemeral{User: rc.user, Channel: rc.channel, Text: text, Blocks: blocks, From: "response_url"})
}

// flagSet reads a boolean flag as Slack does: true or "true".
func flagSet(raw json.RawMessage) bool {
	s := strings.Trim(string(raw), `"`)
	return s == "true"
}

// visibleContent returns the text and blocks of a message body.
func visibleContent(body []byte) (text string, blocks json.RawMessage, ok bool) {
	var m struct {
		Text   string          `json:"text"`
		Blocks json.RawMessage `json:"blocks"`
	}
	if json.Unmarshal(body, &m) != nil {
		return "", nil, false
	}
	if b := bytes.TrimSpace(m.Blocks); len(b) > 0 && !bytes.Equal(b, []byte("null")) && !bytes.Equal(b, []byte("[]")) {
		blocks = bytes.Clone(m.Blocks)
	}
	return m.Text, blocks, true
}

// blockIDs returns the block_id of every block in a JSON array of blocks.
func blockIDs(blocks json.RawMessage) []string {
	var list []struct {
		BlockID string `json:"block_id"`
	}
	if json.Unmarshal(blocks, &list) != nil {
		return nil
	}
	var out []string
	for _, b := range list {
		if b.BlockID != "" {
			out = append(out, b.BlockID)
		}
	}
	return out
}

func hasBlockID(blocks json.RawMessage, id string) bool {
	for _, b := range blockIDs(blocks) {
		if b == id {
			return true
		}
	}
	return false
}

// revisedLocked tells the extension of a new version of a message or
// view, whose blocks were before and are after (see [Extension.Revised]).
func (ws *workspace) revisedLocked(where string, before, after json.RawMessage, kept []string) {
	if ws.revised != nil {
		ws.revised(where, blockIDs(before), blockIDs(after), kept)
	}
}

// PutMessage stores m in its channel as Slack would hold it, without the
// checks chat.postMessage makes: the way to give a channel a message that
// holds what an app could not send (a block Slack writes itself), to see
// what the app does with the echo of it. The author defaults to the bot
// and the ts to a fresh one; PutMessage returns the ts.
func (s *Server) PutMessage(m Message) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.TS == "" {
		m.TS = s.ws.nextTS()
	}
	if m.User == "" {
		m.User = s.ws.botUserID
	}
	if strings.HasPrefix(m.Channel, "D") && m.User == s.ws.botUserID {
		// The bot wrote in it: a DM of its own.
		s.ws.openConversations[m.Channel] = true
	}
	m = m.clone()
	if m.Blocks != nil {
		m.Blocks = s.ws.assignBlockIDs(m.Blocks)
	}
	s.ws.messages = append(s.ws.messages, storedMessage{Message: m})
	s.signalLocked()
	return m.TS
}

// Channel kinds for AddChannel.
const (
	ChannelPublic  = "public"
	ChannelPrivate = "private"
	ChannelMPIM    = "mpim" // a group DM
	ChannelIM      = "im"   // a DM between two people, not with the bot
)

// Channel is a conversation described with AddChannel. A channel the
// Server was not told about is public, and the bot is in it unless
// SetBotInChannel says otherwise; a "D…" ID is a DM, the bot's own only
// once it has been opened (conversations.open, a post to a user ID, or
// PutMessage).
type Channel struct {
	ID        string
	Name      string // as a slash command or payload names it, such as "mpdm-alice--bob-1"
	Kind      string // ChannelPublic, ChannelPrivate, ChannelMPIM or ChannelIM
	BotMember bool
}

// AddChannel describes a conversation, replacing any description with the
// same ID.
func (s *Server) AddChannel(c Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ws.channels[c.ID] = c
	s.signalLocked()
}
