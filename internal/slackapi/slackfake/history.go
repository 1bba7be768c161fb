package slackfake

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The history methods: what the bot reads back of channels and threads.

// conversationsHistory answers conversations.history with the channel's
// messages newest first, as Slack does: not thread replies, not ephemeral
// messages, and metadata only when include_all_metadata is set. It honours
// limit (default 100, at most 999), oldest, latest, inclusive and cursor.
func conversationsHistory(ws *workspace, p url.Values) (reply, error) {
	channel := p.Get("channel")
	if channel == "" {
		return nil, slackError("channel_not_found")
	}
	if ws.notInChannel[channel] {
		return nil, slackError("not_in_channel")
	}
	limit := 100
	if s := p.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, slackError("invalid_limit")
		}
		if n > 0 {
			limit = min(n, 999)
		}
	}
	oldest, hasOldest, err := tsArg(p, "oldest", "invalid_ts_oldest")
	if err != nil {
		return nil, err
	}
	latest, hasLatest, err := tsArg(p, "latest", "invalid_ts_latest")
	if err != nil {
		return nil, err
	}
	cursor, hasCursor, err := decodeCursor(p.Get("cursor"))
	if err != nil {
		return nil, err
	}
	inclusive := truthy(p.Get("inclusive"))
	withMetadata := truthy(p.Get("include_all_metadata")) && ws.granted("metadata.message:read")

	page := []messageJSON{} // never null: slack-go and Slack both expect a list
	hasMore, next := false, ""
	// Stored messages are in posting order, which is timestamp order.
	for _, m := range slices.Backward(ws.messages) {
		if m.Channel != channel || m.Ephemeral || (m.ThreadTS != "" && m.ThreadTS != m.TS) {
			continue
		}
		ts, _ := parseTS(m.TS)
		switch {
		case hasCursor && ts > cursor,
			hasOldest && (ts < oldest || ts == oldest && !inclusive),
			hasLatest && (ts > latest || ts == latest && !inclusive):
			continue
		}
		if len(page) == limit {
			hasMore, next = true, encodeCursor(m.TS)
			break
		}
		page = append(page, newMessageJSON(m, withMetadata))
	}
	return reply{
		"messages":          page,
		"has_more":          hasMore,
		"pin_count":         0,
		"response_metadata": map[string]string{"next_cursor": next},
	}, nil
}

// conversationsReplies answers conversations.replies: the thread whose
// parent is at "ts" in "channel", the parent first, then its replies,
// oldest first, with metadata when include_all_metadata is set and
// granted (https://docs.slack.dev/reference/methods/conversations.replies:
// thread replies appear here, not in conversations.history). A ts that is
// no message is "thread_not_found".
func conversationsReplies(ws *workspace, p url.Values) (reply, error) {
	channel, ts := p.Get("channel"), p.Get("ts")
	if channel == "" {
		return nil, slackError("channel_not_found")
	}
	if ws.notInChannel[channel] {
		return nil, slackError("not_in_channel")
	}
	withMetadata := truthy(p.Get("include_all_metadata")) && ws.granted("metadata.message:read")
	page := []messageJSON{}
	found := false
	for _, m := range ws.messages {
		if m.Channel != channel || m.Ephemeral {
			continue
		}
		switch {
		case m.TS == ts:
			found = true
			page = append([]messageJSON{newMessageJSON(m, withMetadata)}, page...)
		case m.ThreadTS == ts:
			page = append(page, newMessageJSON(m, withMetadata))
		}
	}
	if !found {
		return nil, slackError("thread_not_found")
	}
	return reply{"messages": page, "has_more": false, "response_metadata": map[string]string{"next_cursor": ""}}, nil
}

// messageJSON is a message as chat.postMessage and conversations.history
// describe one.
type messageJSON struct {
	Type        string          `json:"type"`
	User        string          `json:"user"`
	BotID       string          `json:"bot_id"`
	AppID       string          `json:"app_id"`
	Team        string          `json:"team"`
	Text        string          `json:"text"`
	TS          string          `json:"ts"`
	ThreadTS    string          `json:"thread_ts,omitempty"`
	Blocks      json.RawMessage `json:"blocks,omitempty"`
	Attachments json.RawMessage `json:"attachments,omitempty"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Edited      *editedJSON     `json:"edited,omitempty"`
}

type editedJSON struct {
	User string `json:"user"`
	TS   string `json:"ts"`
}

func newMessageJSON(m storedMessage, withMetadata bool) messageJSON {
	out := messageJSON{
		Type:        "message",
		User:        m.User,
		BotID:       BotID,
		AppID:       AppID,
		Team:        TeamID,
		Text:        m.Text,
		TS:          m.TS,
		ThreadTS:    m.ThreadTS,
		Blocks:      m.Blocks,
		Attachments: m.Attachments,
	}
	if withMetadata {
		out.Metadata = m.Metadata
	}
	if m.Edited {
		out.Edited = &editedJSON{User: m.User, TS: m.editedTS}
	}
	return out
}

// tsArg reads the timestamp argument key, answering code when it is not
// one.
func tsArg(p url.Values, key, code string) (us int64, ok bool, err error) {
	s := p.Get(key)
	if s == "" {
		return 0, false, nil
	}
	us, ok = parseTS(s)
	if !ok {
		return 0, false, slackError(code)
	}
	return us, true, nil
}

// Cursors look like Slack's: base64 of "next_ts:" and the timestamp of the
// first message of the next page.
const cursorPrefix = "next_ts:"

func encodeCursor(ts string) string {
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + ts))
}

func decodeCursor(cursor string) (us int64, ok bool, err error) {
	if cursor == "" {
		return 0, false, nil
	}
	raw, decodeErr := base64.StdEncoding.DecodeString(cursor)
	ts, found := strings.CutPrefix(string(raw), cursorPrefix)
	if decodeErr == nil && found {
		if us, ok := parseTS(ts); ok {
			return us, true, nil
		}
	}
	return 0, false, slackError("invalid_cursor")
}

// truthy reads a boolean argument the way Slack does, which takes both
// "1" and "true".
func truthy(s string) bool { return s == "1" || s == "true" }
