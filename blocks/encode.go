package blocks

import (
	"encoding/json"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/jsonappend"
)

// AppendJSON appends bs as a JSON array, byte for byte as encoding/json
// marshals the same []slack.Block. The shapes this package builds for
// messages (header, section with text or fields, context with text, actions
// with buttons and overflow menus, divider) are written directly: encoding
// them through encoding/json costs reflection, and a json.Marshal of every
// actions and context block's elements (slack-go's MarshalJSON methods)
// whose output encoding/json then compacts again. That was a tenth of an
// uncached /actions (docs/performance.md). Anything else (an accessory, an
// image, a confirm dialog, a RawBlock, a field this writer does not know)
// goes through encoding/json, value by value, which writes the same bytes
// it would write inside the array. TestAppendJSONMatchesEncodingJSON and
// FuzzAppendJSON hold the two encodings to each other.
//
// A nil or empty bs is written as null and [] as encoding/json writes them.
// The error is encoding/json's, for a value it refuses.
func AppendJSON(dst []byte, bs []slack.Block) ([]byte, error) {
	if bs == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	for i, b := range bs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendBlock(dst, b); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// appendBlock appends one block.
func appendBlock(dst []byte, b slack.Block) ([]byte, error) {
	switch b := b.(type) {
	case *slack.HeaderBlock:
		if b != nil && b.Level == 0 {
			dst = typed(dst, string(b.Type))
			if b.Text != nil {
				dst = jsonappend.Member(dst, "text")
				dst = appendText(dst, b.Text)
			}
			dst = blockID(dst, b.BlockID)
			return append(dst, '}'), nil
		}
	case *slack.SectionBlock:
		if b != nil && b.Accessory == nil && !b.Expand {
			dst = typed(dst, string(b.Type))
			if b.Text != nil {
				dst = jsonappend.Member(dst, "text")
				dst = appendText(dst, b.Text)
			}
			dst = blockID(dst, b.BlockID)
			if len(b.Fields) > 0 {
				dst = jsonappend.Member(dst, "fields")
				dst = append(dst, '[')
				for i, f := range b.Fields {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = appendText(dst, f)
				}
				dst = append(dst, ']')
			}
			return append(dst, '}'), nil
		}
	case *slack.ContextBlock:
		if b != nil && textsOnly(b.ContextElements.Elements) {
			dst = typed(dst, string(b.Type))
			dst = blockID(dst, b.BlockID)
			dst = jsonappend.Member(dst, "elements")
			if b.ContextElements.Elements == nil {
				return append(dst, "null}"...), nil
			}
			dst = append(dst, '[')
			for i, e := range b.ContextElements.Elements {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendText(dst, e.(*slack.TextBlockObject))
			}
			return append(dst, "]}"...), nil
		}
	case *slack.ActionBlock:
		if b != nil {
			dst = typed(dst, string(b.Type))
			dst = blockID(dst, b.BlockID)
			dst = jsonappend.Member(dst, "elements")
			if b.Elements == nil || b.Elements.ElementSet == nil {
				return append(dst, "null}"...), nil
			}
			dst = append(dst, '[')
			for i, e := range b.Elements.ElementSet {
				if i > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = appendElement(dst, e); err != nil {
					return dst, err
				}
			}
			return append(dst, "]}"...), nil
		}
	case *slack.DividerBlock:
		if b != nil {
			dst = typed(dst, string(b.Type))
			dst = blockID(dst, b.BlockID)
			return append(dst, '}'), nil
		}
	}
	return marshal(dst, b)
}

// appendElement appends one element of an actions block.
func appendElement(dst []byte, e slack.BlockElement) ([]byte, error) {
	switch e := e.(type) {
	case *slack.ButtonBlockElement:
		if e != nil && e.Confirm == nil && e.AccessibilityLabel == "" && e.AgentPrompt == "" &&
			e.AgentPromptDisplay == "" && len(e.VisibleToUserIDs) == 0 {
			dst = append(dst, '{')
			if e.Type != "" {
				dst = jsonappend.Member(dst, "type")
				dst = jsonappend.String(dst, string(e.Type))
			}
			dst = jsonappend.Member(dst, "text")
			dst = appendText(dst, e.Text)
			dst = optional(dst, "action_id", e.ActionID)
			dst = optional(dst, "url", e.URL)
			dst = optional(dst, "value", e.Value)
			dst = optional(dst, "style", string(e.Style))
			return append(dst, '}'), nil
		}
	case *slack.OverflowBlockElement:
		if e != nil && e.Confirm == nil && optionsPlain(e.Options) {
			dst = typed(dst, string(e.Type))
			dst = optional(dst, "action_id", e.ActionID)
			dst = jsonappend.Member(dst, "options")
			if e.Options == nil {
				return append(dst, "null}"...), nil
			}
			dst = append(dst, '[')
			for i, o := range e.Options {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, '{')
				dst = jsonappend.Member(dst, "text")
				dst = appendText(dst, o.Text)
				dst = jsonappend.Member(dst, "value")
				dst = jsonappend.String(dst, o.Value)
				dst = optional(dst, "url", o.URL)
				dst = append(dst, '}')
			}
			return append(dst, "]}"...), nil
		}
	}
	return marshal(dst, e)
}

// appendText appends a text object; nil is null.
func appendText(dst []byte, t *slack.TextBlockObject) []byte {
	if t == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	dst = jsonappend.Member(dst, "type")
	dst = jsonappend.String(dst, t.Type)
	dst = jsonappend.Member(dst, "text")
	dst = jsonappend.String(dst, t.Text)
	if t.Emoji != nil {
		dst = jsonappend.Member(dst, "emoji")
		dst = appendBool(dst, *t.Emoji)
	}
	if t.Verbatim {
		dst = jsonappend.Member(dst, "verbatim")
		dst = appendBool(dst, true)
	}
	return append(dst, '}')
}

// textsOnly reports whether every element of a context block is a text
// object (not nil), the one kind appendBlock writes itself.
func textsOnly(els []slack.MixedElement) bool {
	for _, e := range els {
		if t, ok := e.(*slack.TextBlockObject); !ok || t == nil {
			return false
		}
	}
	return true
}

// optionsPlain reports whether every option has only the fields
// appendElement writes (no description) and is not nil.
func optionsPlain(opts []*slack.OptionBlockObject) bool {
	for _, o := range opts {
		if o == nil || o.Description != nil {
			return false
		}
	}
	return true
}

// typed opens an object with its "type" member.
func typed(dst []byte, typ string) []byte {
	dst = append(dst, '{')
	dst = jsonappend.Member(dst, "type")
	return jsonappend.String(dst, typ)
}

// blockID appends "block_id" unless it is empty (omitempty).
func blockID(dst []byte, id string) []byte { return optional(dst, "block_id", id) }

// optional appends the member name with the string s unless s is empty.
func optional(dst []byte, name, s string) []byte {
	if s == "" {
		return dst
	}
	dst = jsonappend.Member(dst, name)
	return jsonappend.String(dst, s)
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// marshal appends v as encoding/json writes it.
func marshal(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}
