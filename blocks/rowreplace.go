package blocks

// Redrawing a message Slack holds: a click's answer replaces one row of the
// message as Slack sent it back, keeping every other block as it was.

import (
	"encoding/json"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/jsonappend"
)

// ReplaceRow returns msg (a message's blocks as Slack sent them) with the
// blocks of row r replaced by freshly built ones. The row's section (block
// BlockActionRow+ID, in any revision) is replaced in place; its buttons
// block (BlockActionButtons+ID), and the Snooze block of a message sent
// before Snooze moved into it (BlockSnooze+ID), are dropped wherever they
// are, and the fresh one, if the row now has buttons, follows the section. The fresh row's
// title is shortened as needed to keep the message within MaxMessageText
// (less a reserve for the fallback text) and drops its buttons rather than
// push the message past MaxMessageBlocks.
//
// Every other block is kept as it was, whatever its type, but for its
// block_id when r.Rev is set: the updated message is a new version, whose
// blocks Slack wants under new block IDs (see RowBlockID). Other rows get
// their IDs in revision r.Rev; blocks with IDs of other origins (Slack
// gives a block without one an ID of its own) lose them, so Slack assigns
// fresh ones. Without r.Rev every other block is kept byte for byte.
//
// ok is false, and out nil, when the row's section is not in msg. Blocks
// that are not JSON objects are kept and never match.
func ReplaceRow(msg []json.RawMessage, r ActionRow) (out []json.RawMessage, ok bool) {
	if r.ID == "" {
		return nil, false
	}
	at, kept, others := -1, 0, 0
	for i, raw := range msg {
		switch id := rawBlockID(raw); {
		case matchesRow(id, BlockActionRow, r.ID) && at < 0:
			at = i
		case matchesRow(id, BlockActionButtons, r.ID), matchesRow(id, BlockSnooze, r.ID):
		default:
			kept++
			others += rawText(raw)
		}
	}
	if at < 0 {
		return nil, false
	}
	fresh, _ := fitRow(r.Lang, r, MaxMessageText-fallbackReserve-others)
	if kept+len(fresh) > MaxMessageBlocks {
		fresh = fresh[:1]
	}
	freshJSON := make([]json.RawMessage, len(fresh))
	for i, b := range fresh {
		j, err := json.Marshal(b)
		if err != nil {
			// Unreachable: the blocks are slack-go types built here.
			return nil, false
		}
		freshJSON[i] = j
	}
	out = make([]json.RawMessage, 0, kept+len(fresh))
	for i, raw := range msg {
		switch {
		case i == at:
			out = append(out, freshJSON...)
		case matchesRow(rawBlockID(raw), BlockActionButtons, r.ID), matchesRow(rawBlockID(raw), BlockSnooze, r.ID):
		case r.Rev != "":
			out = append(out, reviseBlockID(raw, r.Rev))
		default:
			out = append(out, raw)
		}
	}
	return out, true
}

// reviseBlockID returns raw with its block_id in revision rev: a row's ID,
// or a reminder's own (RecountReminder), gets the new revision, any other
// ID is removed. A block without an ID,
// or that is not a JSON object, is returned as it was.
func reviseBlockID(raw json.RawMessage, rev string) json.RawMessage {
	id := rawBlockID(raw)
	if id == "" {
		return raw
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	delete(obj, "block_id")
	for _, prefix := range []string{BlockActionButtons, BlockActionRow, blockReminder} {
		if rest, ok := strings.CutPrefix(id, prefix); ok {
			if i := strings.LastIndex(rest, revSep); i >= 0 {
				rest = rest[:i]
			}
			if next := RowBlockID(prefix, rest, rev); len(next) <= MaxBlockID {
				obj["block_id"] = jsonappend.String(nil, next)
			}
			break
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return b
}

// rawBlockID is the block_id of a raw block, "" when it has none or is not
// an object.
func rawBlockID(raw json.RawMessage) string {
	var b struct {
		BlockID string `json:"block_id"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	return b.BlockID
}

// rawText is the text size of a raw block as Check counts it.
func rawText(raw json.RawMessage) int {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return 0
	}
	return countText(v)
}

// RawBlock is a block kept as JSON, so a message Slack sent can be sent
// back (chat.update) without decoding every element type. It implements
// slack.Block and json.Marshaler, so it can go to slack.MsgOptionBlocks
// next to slack-go's own blocks.
type RawBlock json.RawMessage

// BlockType returns the block's "type", or "" when the JSON has none or is
// not an object.
func (b RawBlock) BlockType() slack.MessageBlockType {
	var v struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	return slack.MessageBlockType(v.Type)
}

// ID returns the block's "block_id", or "" when it has none.
func (b RawBlock) ID() string { return rawBlockID(json.RawMessage(b)) }

// MarshalJSON returns the JSON unchanged; an empty RawBlock is null.
// encoding/json still rejects invalid JSON at this point.
func (b RawBlock) MarshalJSON() ([]byte, error) {
	if len(b) == 0 {
		return []byte("null"), nil
	}
	return b, nil
}

// RawBlock is sent as it is.
var (
	_ slack.Block    = RawBlock(nil)
	_ json.Marshaler = RawBlock(nil)
)

// RawBlocks wraps each block of msg as a RawBlock.
func RawBlocks(msg []json.RawMessage) []slack.Block {
	out := make([]slack.Block, len(msg))
	for i, raw := range msg {
		out[i] = RawBlock(raw)
	}
	return out
}

// OwnBlocks returns the blocks of msg (a message as Slack sent it) that
// are of the kinds this package builds: header, section, divider, context
// and actions blocks whose elements are buttons, overflow menus, static
// select menus, date pickers (a row's Snooze controls), text and images. Slack refuses a chat.update that sends back a block it shows but
// does not accept from apps (invalid_blocks); the blocks kept here are
// always accepted, so an update can be retried with them.
func OwnBlocks(msg []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range msg {
		var b struct {
			Type      string `json:"type"`
			Accessory *struct {
				Type string `json:"type"`
			} `json:"accessory"`
			Elements []struct {
				Type string `json:"type"`
			} `json:"elements"`
		}
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		ok := false
		switch b.Type {
		case "header", "divider":
			ok = true
		case "section":
			ok = b.Accessory == nil || ownElements[b.Accessory.Type]
		case "context", "actions":
			ok = len(b.Elements) > 0
			for _, e := range b.Elements {
				ok = ok && ownElements[e.Type]
			}
		}
		if ok {
			out = append(out, raw)
		}
	}
	return out
}

// ownElements are the element and text types this package builds.
var ownElements = map[string]bool{"button": true, "overflow": true, "static_select": true, "datepicker": true, "mrkdwn": true, "plain_text": true, "image": true}
