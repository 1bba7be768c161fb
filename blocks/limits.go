package blocks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"
)

// Block Kit's limits (https://docs.slack.dev/reference/block-kit), counted in
// characters, and recordsbot's own text budget. The builders keep within
// them; Check and friends prove it.
const (
	MaxMessageBlocks   = 50   // blocks in a message
	MaxViewBlocks      = 100  // blocks in a Home tab (or modal) view
	MaxSectionText     = 3000 // a section's text, and any text object
	MaxSectionFields   = 10   // fields of a section
	MaxFieldText       = 2000 // one field of a section
	MaxHeaderText      = 150  // a header's plain text
	MaxButtonText      = 75   // a button's label
	MaxButtonValue     = 2000 // a button's value
	MaxActionID        = 255  // an element's action_id
	MaxBlockID         = 255  // a block's block_id
	MaxActionsElements = 25   // elements of an actions block
	MaxContextElements = 10   // elements of a context block
	MinOverflowOptions = 2    // options of an overflow menu, at least…
	MaxOverflowOptions = 5    // …and at most
	MaxOptionText      = 75   // an option's label
	MaxOptionValue     = 150  // an option's value
	MaxURL             = 3000 // a button's or option's url

	// MaxMessageText is recordsbot's budget for all the text of one message:
	// every text object in its blocks plus the fallback text. Slack starts
	// rejecting or truncating messages somewhere around 12,000 characters of
	// text; the budget keeps a safe margin below that.
	MaxMessageText = 11000
	// MaxViewText is recordsbot's budget for the text of a Home view. Slack
	// documents none, but a dashboard longer than this is unreadable and
	// slow to render.
	MaxViewText = 2 * MaxMessageText
)

// Modal limits (https://docs.slack.dev/reference/views/modal-views): the
// title, submit and close texts are plain_text of at most 24 characters;
// private_metadata at most 3000, callback_id at most 255.
const (
	MaxModalTitle    = 24
	MaxModalButton   = 24
	MaxModalMetadata = 3000
	MaxCallbackID    = 255
)

// MaxMetadataIDs is recordsbot's own cap on the action IDs a message's
// metadata lists (an assignment DM, a reminder): Slack documents no size
// for event_payload, and the metadata is for finding the message again,
// not for reading every action back; action_count always has the full
// count. A message shows fewer rows than this anyway (MaxMessageBlocks).
const MaxMetadataIDs = 50

// MetadataIDs is ids as message metadata carries them: comma-separated
// (event_payload takes no array of strings,
// https://docs.slack.dev/messaging/message-metadata), at most
// MaxMetadataIDs of them.
func MetadataIDs(ids []string) string {
	return strings.Join(ids[:min(len(ids), MaxMetadataIDs)], ",")
}

// Check reports every way blocks, the blocks of one message, break Block
// Kit's limits or the text budget MaxMessageText. It marshals blocks and
// walks the JSON, so it judges exactly what Slack would receive, including
// RawBlock values and block types this package never builds (only their
// block_id and text are checked). It returns nil when all is well, else an
// error listing each violation with its JSON path.
func Check(blocks []slack.Block) error {
	return check(blocks, MaxMessageBlocks, MaxMessageText, 0)
}

// CheckMessage is Check for a whole message: the fallback text counts
// against the budget too, and a message must have text or blocks.
func CheckMessage(m Message) error {
	if m.Text == "" && len(m.Blocks) == 0 {
		return errors.New("message: no text and no blocks")
	}
	err := check(m.Blocks, MaxMessageBlocks, MaxMessageText, utf8.RuneCountInString(m.Text))
	if doubleEscaped(m.Text) {
		err = errors.Join(fmt.Errorf("text: escaped twice: %q", m.Text), err)
	}
	return err
}

// doubleEscapes are what text escaped twice for mrkdwn shows: "R&D"
// escaped once is "R&amp;D", which Slack shows as "R&D"; escaped again it
// shows "R&amp;D".
var doubleEscapes = []string{"&amp;amp;", "&amp;lt;", "&amp;gt;"}

func doubleEscaped(s string) bool {
	for _, d := range doubleEscapes {
		if strings.Contains(s, d) {
			return true
		}
	}
	return false
}

// escapedOnce fails every "text" string under v that was escaped twice.
func (c *checker) escapedOnce(path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "text" && doubleEscaped(s) {
				c.failf(path+"."+k, "escaped twice: %q", s)
			}
			c.escapedOnce(path+"."+k, e)
		}
	case []any:
		for i, e := range x {
			c.escapedOnce(fmt.Sprintf("%s[%d]", path, i), e)
		}
	}
}

// CheckView is Check for a Home tab: up to MaxViewBlocks blocks and
// MaxViewText characters of text, and the view type must be "home".
func CheckView(v slack.HomeTabViewRequest) error {
	err := check(v.Blocks.BlockSet, MaxViewBlocks, MaxViewText, 0)
	if v.Type != slack.VTHomeTab {
		err = errors.Join(fmt.Errorf("view: type %q, want %q", v.Type, slack.VTHomeTab), err)
	}
	return err
}

func check(blocks []slack.Block, maxBlocks, maxText, extraText int) error {
	list, err := decode(blocks)
	if err != nil {
		return err
	}
	c := checker{blockIDs: make(map[string]string)}
	if len(list) > maxBlocks {
		c.failf("blocks", "%d blocks, limit %d", len(list), maxBlocks)
	}
	text := extraText
	for i, b := range list {
		path := fmt.Sprintf("blocks[%d]", i)
		c.block(path, b)
		c.escapedOnce(path, b)
		text += countText(b)
	}
	if text > maxText {
		c.failf("blocks", "%d characters of text, budget %d", text, maxText)
	}
	return errors.Join(c.errs...)
}

// decode marshals blocks and reads them back as generic JSON.
func decode(blocks []slack.Block) ([]any, error) {
	raw, err := json.Marshal(blocks)
	if err != nil {
		return nil, fmt.Errorf("marshal blocks: %w", err)
	}
	var list []any
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("decode blocks: %w", err)
	}
	return list, nil
}

// measure is the text blocks count against a budget, as Check counts it. A
// block that cannot be marshalled never fits.
func measure(blocks ...slack.Block) int {
	// The builders' own block types are counted directly: measuring runs
	// for every row of every message, and a JSON round trip per row was
	// most of the cost of building a reply. Anything else is counted from
	// its JSON.
	n := 0
	var other []slack.Block
	for _, b := range blocks {
		if c, ok := countBlock(b); ok {
			n += c
		} else {
			other = append(other, b)
		}
	}
	if len(other) == 0 {
		return n
	}
	return n + measureJSON(other...)
}

// countBlock counts the text of the block types the builders make; ok is
// false for any other.
func countBlock(b slack.Block) (n int, ok bool) {
	switch b := b.(type) {
	case *slack.SectionBlock:
		n = countTextObject(b.Text)
		for _, f := range b.Fields {
			n += countTextObject(f)
		}
		if b.Accessory != nil {
			return 0, false
		}
		return n, true
	case *slack.HeaderBlock:
		return countTextObject(b.Text), true
	case *slack.DividerBlock:
		return 0, true
	case *slack.ContextBlock:
		for _, e := range b.ContextElements.Elements {
			t, ok := e.(*slack.TextBlockObject)
			if !ok {
				return 0, false
			}
			n += countTextObject(t)
		}
		return n, true
	case *slack.ActionBlock:
		if b.Elements == nil {
			return 0, true
		}
		for _, e := range b.Elements.ElementSet {
			switch e := e.(type) {
			case *slack.ButtonBlockElement:
				n += countTextObject(e.Text)
			case *slack.OverflowBlockElement:
				for _, o := range e.Options {
					if o != nil {
						n += countTextObject(o.Text)
					}
				}
			case *slack.SelectBlockElement:
				// A row's Snooze menu (blocks/snooze.go): its
				// placeholder and options; anything richer from JSON.
				if e.InitialOption != nil || len(e.OptionGroups) > 0 {
					return 0, false
				}
				n += countTextObject(e.Placeholder)
				for _, o := range e.Options {
					if o != nil {
						n += countTextObject(o.Text) + countTextObject(o.Description)
					}
				}
			case *slack.DatePickerBlockElement:
				if e.Confirm != nil {
					return 0, false
				}
				n += countTextObject(e.Placeholder)
			default:
				return 0, false
			}
		}
		return n, true
	}
	return 0, false
}

func countTextObject(t *slack.TextBlockObject) int {
	if t == nil {
		return 0
	}
	return utf8.RuneCountInString(t.Text)
}

// measureJSON counts text as Slack sees it in the blocks' JSON.
func measureJSON(blocks ...slack.Block) int {
	list, err := decode(blocks)
	if err != nil {
		return math.MaxInt / 2
	}
	n := 0
	for _, b := range list {
		n += countText(b)
	}
	return n
}

// countText adds up the characters of every text object (plain_text or
// mrkdwn) anywhere in v: the text a reader sees and Slack's size limit
// counts. Values, URLs and IDs are not text.
func countText(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		if isTextObject(v) {
			s, _ := v["text"].(string)
			n += utf8.RuneCountInString(s)
		}
		for _, e := range v {
			n += countText(e) // strings, the text included, count 0 here
		}
	case []any:
		for _, e := range v {
			n += countText(e)
		}
	}
	return n
}

func isTextObject(m map[string]any) bool {
	t, _ := m["type"].(string)
	_, ok := m["text"].(string)
	return ok && (t == "plain_text" || t == "mrkdwn")
}

// checker collects violations while walking one list of blocks.
type checker struct {
	errs     []error
	blockIDs map[string]string // block_id -> path of the block that has it
}

func (c *checker) failf(path, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...)))
}

// maxLen checks an optional string field; absent is fine.
func (c *checker) maxLen(path string, m map[string]any, key string, max int) {
	v, ok := m[key]
	if !ok {
		return
	}
	s, ok := v.(string)
	if !ok {
		c.failf(path+"."+key, "not a string")
		return
	}
	if n := utf8.RuneCountInString(s); n > max {
		c.failf(path+"."+key, "%d characters, limit %d", n, max)
	}
}

func (c *checker) block(path string, v any) {
	m, ok := v.(map[string]any)
	if !ok {
		c.failf(path, "not an object")
		return
	}
	typ, _ := m["type"].(string)
	if typ == "" {
		c.failf(path, "no type")
	}
	if id, ok := m["block_id"].(string); ok {
		c.maxLen(path, m, "block_id", MaxBlockID)
		if prev, dup := c.blockIDs[id]; dup {
			c.failf(path+".block_id", "%q already used by %s", id, prev)
		}
		c.blockIDs[id] = path
	}
	switch typ {
	case "section":
		c.section(path, m)
	case "header":
		c.plainText(path+".text", m["text"], MaxHeaderText)
	case "actions":
		els, _ := m["elements"].([]any)
		if len(els) == 0 || len(els) > MaxActionsElements {
			c.failf(path+".elements", "%d elements, want 1 to %d", len(els), MaxActionsElements)
		}
		ids := make(map[string]bool)
		for i, e := range els {
			c.element(fmt.Sprintf("%s.elements[%d]", path, i), e, ids)
		}
	case "context":
		els, _ := m["elements"].([]any)
		if len(els) == 0 || len(els) > MaxContextElements {
			c.failf(path+".elements", "%d elements, want 1 to %d", len(els), MaxContextElements)
		}
		for i, e := range els {
			if em, ok := e.(map[string]any); ok && em["type"] != "image" {
				c.text(fmt.Sprintf("%s.elements[%d]", path, i), e, MaxSectionText)
			}
		}
	}
}

func (c *checker) section(path string, m map[string]any) {
	_, hasText := m["text"]
	fields, hasFields := m["fields"].([]any)
	if !hasText && !hasFields {
		c.failf(path, "section with neither text nor fields")
	}
	if hasText {
		c.text(path+".text", m["text"], MaxSectionText)
	}
	if len(fields) > MaxSectionFields {
		c.failf(path+".fields", "%d fields, limit %d", len(fields), MaxSectionFields)
	}
	for i, f := range fields {
		c.text(fmt.Sprintf("%s.fields[%d]", path, i), f, MaxFieldText)
	}
	if acc, ok := m["accessory"]; ok {
		c.element(path+".accessory", acc, make(map[string]bool))
	}
}

// text checks a text object that may be plain_text or mrkdwn, of 1 to
// max characters; plainText one that must be plain_text.
func (c *checker) text(path string, v any, max int) {
	c.textOf(path, v, max, "plain_text", "mrkdwn")
}

func (c *checker) plainText(path string, v any, max int) {
	c.textOf(path, v, max, "plain_text")
}

// textOf checks a text object: its type, one of types, and 1 to max
// characters of text.
func (c *checker) textOf(path string, v any, max int, types ...string) {
	m, ok := v.(map[string]any)
	if !ok {
		c.failf(path, "not a text object")
		return
	}
	if t, _ := m["type"].(string); !slices.Contains(types, t) {
		c.failf(path+".type", "%q not allowed here", t)
	}
	s, ok := m["text"].(string)
	if n := utf8.RuneCountInString(s); !ok || n == 0 || n > max {
		c.failf(path+".text", "%d characters, want 1 to %d", n, max)
	}
}

// element checks an interactive element; ids holds the action_ids already
// used in the same block, where Slack wants them unique.
func (c *checker) element(path string, v any, ids map[string]bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.failf(path, "not an object")
		return
	}
	if id, ok := m["action_id"].(string); ok {
		c.maxLen(path, m, "action_id", MaxActionID)
		if ids[id] {
			c.failf(path+".action_id", "%q repeated in the block", id)
		}
		ids[id] = true
	}
	switch m["type"] {
	case "button":
		c.plainText(path+".text", m["text"], MaxButtonText)
		c.maxLen(path, m, "value", MaxButtonValue)
		c.maxLen(path, m, "url", MaxURL)
		if s, ok := m["style"]; ok && s != "primary" && s != "danger" {
			c.failf(path+".style", "%v not allowed", s)
		}
	case "overflow":
		opts, _ := m["options"].([]any)
		if len(opts) < MinOverflowOptions || len(opts) > MaxOverflowOptions {
			c.failf(path+".options", "%d options, want %d to %d", len(opts), MinOverflowOptions, MaxOverflowOptions)
		}
		for i, o := range opts {
			p := fmt.Sprintf("%s.options[%d]", path, i)
			om, ok := o.(map[string]any)
			if !ok {
				c.failf(p, "not an object")
				continue
			}
			c.plainText(p+".text", om["text"], MaxOptionText)
			c.maxLen(p, om, "value", MaxOptionValue)
			c.maxLen(p, om, "url", MaxURL)
		}
	}
}
