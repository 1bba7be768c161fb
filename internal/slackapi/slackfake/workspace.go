package slackfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// workspace is what the fake Slack knows: its users, channels, messages and
// views. The Server guards it with its lock.
type workspace struct {
	now       func() time.Time
	botUserID string
	users     map[string]User
	// notInChannel holds the channels the bot has been taken out of.
	notInChannel map[string]bool
	// channels holds the conversations described with AddChannel; others
	// are public channels.
	channels map[string]Channel
	// openConversations holds the DMs opened with conversations.open or by
	// posting to a user ID.
	openConversations map[string]bool
	messages          []storedMessage // in the order they were posted
	responsePosts     []ResponsePost
	views             []View          // every publish, oldest first
	homeViews         map[string]View // the latest publish per user
	viewIDs           map[string]string
	// triggers are the trigger_ids handed out, modals the modals opened
	// with them, by view ID (see modals.go).
	triggers map[string]*trigger
	modals   map[string]*modal
	unfurls  []Unfurl
	// workObjects are the entity types the app has Work Object previews
	// on for (WithWorkObjects); panels each user's flexpane (see
	// workobjects.go).
	workObjects []string
	panels      map[string]Panel
	// screen holds the ephemeral messages people see (see screen.go);
	// responseContexts what each response_url was handed out for.
	screen           []Ephemeral
	responseContexts map[string]responseContext
	// revised is the extension's Revised hook; nil without one.
	revised func(where string, before, after, kept []string)
	// scopes are the bot token's granted scopes; nil grants all. See
	// WithScopes.
	scopes []string
	lastTS int64 // the last message timestamp handed out, in µs
	seq    int   // numbers view IDs and hashes
}

// storedMessage is a Message with what Slack shows of it but the Message
// type does not carry.
type storedMessage struct {
	Message
	editedTS string // when chat.update last changed it; "" if never
}

func newWorkspace() workspace {
	return workspace{
		now:               time.Now,
		botUserID:         DefaultBotUserID,
		users:             make(map[string]User),
		notInChannel:      make(map[string]bool),
		channels:          make(map[string]Channel),
		openConversations: make(map[string]bool),
		homeViews:         make(map[string]View),
		viewIDs:           make(map[string]string),
		responseContexts:  make(map[string]responseContext),
	}
}

// nextTS hands out a message timestamp. Slack's timestamps are a message's
// ID within its channel, so they must never repeat: this one is the clock in
// microseconds, bumped past the last one handed out when the clock has not
// moved on (as a fake clock often has not).
func (ws *workspace) nextTS() string {
	us := max(ws.now().UnixMicro(), ws.lastTS+1)
	ws.lastTS = us
	return formatTS(us)
}

// formatTS formats microseconds since the epoch the way Slack writes
// timestamps, such as "1700000000.000100".
func formatTS(us int64) string {
	return fmt.Sprintf("%d.%06d", us/1e6, us%1e6)
}

// parseTS reads a Slack timestamp such as "1700000000.000100" or
// "1700000000" into microseconds, so timestamps compare as numbers rather
// than strings.
func parseTS(ts string) (int64, bool) {
	secStr, fracStr, _ := strings.Cut(ts, ".")
	sec, err := strconv.ParseInt(secStr, 10, 64)
	if err != nil || sec < 0 {
		return 0, false
	}
	if len(fracStr) > 6 {
		fracStr = fracStr[:6]
	}
	var frac int64
	if fracStr != "" {
		frac, err = strconv.ParseInt(fracStr+strings.Repeat("0", 6-len(fracStr)), 10, 64)
		if err != nil || frac < 0 {
			return 0, false
		}
	}
	return sec*1e6 + frac, true
}

// postableChannel resolves the channel argument of a chat method to the ID
// of a channel the bot can post in. Like Slack, it takes a user ID to mean
// the DM with that user, and opens that DM: a bot's post to a user ID lands
// in its DM with them and the answer's channel is the D… ID
// (slackapi/bolt-js#1585, jenkinsci/slack-plugin#821).
//
// Where the bot may not post, it answers as Slack does for a bot token
// (https://api.slack.com/methods/chat.postMessage#errors): not_in_channel
// in a public channel it is not in; channel_not_found, as if the
// conversation did not exist, in a private channel or group DM it is not
// in, and in a DM between people (a "D…" conversation the bot is not
// part of), where no invitation can help.
func (ws *workspace) postableChannel(channel string) (string, error) {
	if channel == "" {
		return "", slackError("channel_not_found")
	}
	if strings.HasPrefix(channel, "U") || strings.HasPrefix(channel, "W") {
		if _, ok := ws.users[channel]; !ok {
			return "", slackError("channel_not_found")
		}
		dm := dmID(channel)
		ws.openConversations[dm] = true
		return dm, nil
	}
	if c, ok := ws.channels[channel]; ok {
		switch {
		case c.Kind == ChannelIM:
			return "", slackError("channel_not_found")
		case (c.Kind == ChannelPrivate || c.Kind == ChannelMPIM) && !c.BotMember:
			return "", slackError("channel_not_found")
		case c.Kind == ChannelPublic && !c.BotMember:
			return "", slackError("not_in_channel")
		}
		return channel, nil
	}
	if strings.HasPrefix(channel, "D") && !ws.openConversations[channel] {
		return "", slackError("channel_not_found")
	}
	if ws.notInChannel[channel] {
		return "", slackError("not_in_channel")
	}
	return channel, nil
}

// channelKey is the channel a "channel" argument names for rate limits: a
// user ID means the bot's DM with that user, where the post lands.
func (ws *workspace) channelKey(channel string) string {
	if strings.HasPrefix(channel, "U") || strings.HasPrefix(channel, "W") {
		return dmID(channel)
	}
	return channel
}

// dmID is the ID of the bot's DM with userID.
func dmID(userID string) string { return "D" + userID }

// findMessage returns the non-ephemeral message at ts in channel, or nil.
func (ws *workspace) findMessage(channel, ts string) *storedMessage {
	for i := range ws.messages {
		m := &ws.messages[i]
		if m.Channel == channel && m.TS == ts && !m.Ephemeral {
			return m
		}
	}
	return nil
}

// applyContent sets the parts of m that p carries: text, blocks,
// attachments and metadata. Arguments p lacks leave m alone, as chat.update
// keeps what a call does not replace. Metadata that breaks Slack's schema
// is dropped and reported as the warning to answer with.
func (ws *workspace) applyContent(m *Message, p url.Values) (warning string, err error) {
	if p.Has("text") {
		m.Text = p.Get("text")
	}
	if p.Has("blocks") {
		raw, err := jsonArray(p.Get("blocks"), "invalid_blocks")
		if err != nil {
			return "", err
		}
		if err := writableBlocks(raw); err != nil {
			return "", err
		}
		m.Blocks = ws.assignBlockIDs(raw)
	}
	if p.Has("attachments") {
		raw, err := jsonArray(p.Get("attachments"), "invalid_attachments")
		if err != nil {
			return "", err
		}
		m.Attachments = raw
	}
	if p.Has("metadata") {
		raw, err := messageMetadata(p.Get("metadata"))
		if err != nil {
			return "", err
		}
		if raw != nil && !validMetadata(raw) {
			return InvalidMetadataSchema, nil // the message keeps no metadata
		}
		m.Metadata = raw
	}
	return "", nil
}

// validMetadata reports whether metadata, which messageMetadata accepted,
// also meets Slack's schema: an event_type of letters, digits, _ and -, and
// an event_payload of the values Slack allows (see validPayload).
func validMetadata(raw json.RawMessage) bool {
	var md struct {
		EventType    string `json:"event_type"`
		EventPayload any    `json:"event_payload"`
	}
	if json.Unmarshal(raw, &md) != nil || !metadataEventType.MatchString(md.EventType) {
		return false
	}
	return md.EventPayload == nil || validPayload(md.EventPayload)
}

// assignBlockIDs gives every block that has no block_id one, as Slack
// does ("If not specified, a block_id will be generated": the block_id of
// @slack/types Block), so the message as Slack echoes it back (in a
// block_actions payload, chat.update's answer, conversations.history)
// carries IDs the app never chose.
func (ws *workspace) assignBlockIDs(raw json.RawMessage) json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return raw
	}
	changed := false
	for i, b := range list {
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil || obj == nil {
			continue
		}
		if _, ok := obj["block_id"]; ok {
			continue
		}
		ws.seq++
		obj["block_id"] = jsonString("g" + strconv.FormatInt(int64(ws.seq), 36))
		if nb, err := json.Marshal(obj); err == nil {
			list[i], changed = nb, true
		}
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(list)
	if err != nil {
		return raw
	}
	return out
}

// writableBlocks refuses, as "invalid_blocks", blocks an app may not send
// in a message: a block or element type that is not Block Kit's, or a
// "call" block, which Slack shows in messages (and echoes back in a
// block_actions payload) but only creates itself. Sending such an echo
// back in chat.update is refused (https://api.slack.com/methods/chat.update:
// invalid_blocks, "Blocks submitted with this message are not valid"; the
// types apps may send: https://docs.slack.dev/reference/block-kit/blocks
// and https://docs.slack.dev/reference/block-kit/block-elements).
func writableBlocks(raw json.RawMessage) error {
	var list []struct {
		Type      string            `json:"type"`
		Elements  []json.RawMessage `json:"elements"`
		Accessory json.RawMessage   `json:"accessory"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return slackError("invalid_blocks")
	}
	for _, b := range list {
		var els []json.RawMessage
		switch b.Type {
		case "actions", "context", "input":
			els = b.Elements
		case "section":
			if len(b.Accessory) > 0 {
				els = []json.RawMessage{b.Accessory}
			}
		case "divider", "image", "header", "video", "rich_text", "file", "markdown", "table":
		default:
			return slackError("invalid_blocks")
		}
		for _, e := range els {
			var el struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(e, &el) != nil || !writableElements[el.Type] {
				return slackError("invalid_blocks")
			}
		}
	}
	return nil
}

// writableElements are the element types (and, in context blocks, text
// objects) Block Kit accepts from apps.
var writableElements = map[string]bool{
	"button": true, "overflow": true, "checkboxes": true, "radio_buttons": true, "image": true,
	"datepicker": true, "timepicker": true, "datetimepicker": true, "static_select": true,
	"external_select": true, "users_select": true, "conversations_select": true, "channels_select": true,
	"multi_static_select": true, "multi_external_select": true, "multi_users_select": true,
	"multi_conversations_select": true, "multi_channels_select": true, "plain_text_input": true,
	"email_text_input": true, "url_text_input": true, "number_input": true, "rich_text_input": true,
	"file_input": true, "workflow_button": true, "plain_text": true, "mrkdwn": true,
}

// hasContent reports whether m shows anything, which Slack demands of every
// message.
func hasContent(m Message) bool {
	return m.Text != "" || m.Blocks != nil || m.Attachments != nil
}

// jsonArray checks that s is a JSON array, returning nil for "" and "[]" so
// that an empty list counts as none.
func jsonArray(s, code string) (json.RawMessage, error) {
	var list []json.RawMessage
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		return nil, slackError(code)
	}
	if len(list) == 0 {
		return nil, nil
	}
	return json.RawMessage(s), nil
}

// messageMetadata checks that s is message metadata, an object with a
// non-empty event_type, returning nil for "".
func messageMetadata(s string) (json.RawMessage, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var md struct {
		EventType    string          `json:"event_type"`
		EventPayload json.RawMessage `json:"event_payload"`
	}
	if err := json.Unmarshal([]byte(s), &md); err != nil || md.EventType == "" {
		return nil, slackError("invalid_metadata_format")
	}
	if len(md.EventPayload) > 0 && !isJSONObject(md.EventPayload) && !bytes.Equal(md.EventPayload, []byte("null")) {
		return nil, slackError("invalid_metadata_format")
	}
	return json.RawMessage(s), nil
}

// isJSONObject reports whether b is one JSON object.
func isJSONObject(b []byte) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal(b, &obj) == nil && obj != nil
}
