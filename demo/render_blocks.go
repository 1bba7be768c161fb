package demo

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// control is something on a message that can be pressed: a button, or one
// option of an overflow menu or a select.
type control struct {
	Label   string
	BlockID string
	// Element is the element's JSON as the message holds it; Slack sends
	// parts of it back in the click.
	Element json.RawMessage
	// ActionID and Value are the element's, read with the rest of it.
	ActionID, Value string
	// Option is the chosen option's value, for a menu shown as one control
	// per option (an overflow menu).
	Option string
	// Choices are the options of a select menu, shown as one control: the
	// click names the option it chooses.
	Choices []choice
	// URL is where a link button takes the browser.
	URL string
	// Date is set for a date picker: the click names the day picked,
	// YYYY-MM-DD, which Slack sends as selected_date
	// (https://docs.slack.dev/tools/bolt-js/reference/interfaces/DatepickerAction;
	// slackfake.Click.Date).
	Date bool
	// Picked is the day a click on a date picker picks.
	Picked string
	// Selected, for one box of a checkbox group, are the boxes ticked
	// once this one is ticked or unticked: Slack sends every box then
	// ticked (selected_options), and slackfake.Sender builds them from
	// the click's Selected.
	Selected []string
}

// choice is one option of a select menu.
type choice struct{ Label, Value string }

// kitBlock is a Block Kit block, with the fields of every type recordsbot
// sends. Elements stay raw: a context element's "text" is a string, an
// interactive element's an object.
type kitBlock struct {
	Type      string            `json:"type"`
	BlockID   string            `json:"block_id"`
	Text      *kitText          `json:"text"`
	Fields    []kitText         `json:"fields"`
	Accessory json.RawMessage   `json:"accessory"`
	Elements  []json.RawMessage `json:"elements"`
	ImageURL  string            `json:"image_url"`
	AltText   string            `json:"alt_text"`
	// Label, Hint and Element are an input block's (in a modal).
	Label   *kitText `json:"label"`
	Hint    *kitText `json:"hint"`
	Element struct {
		InitialValue string   `json:"initial_value"`
		Placeholder  *kitText `json:"placeholder"`
	} `json:"element"`
}

// kitText is a text object.
type kitText struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji bool   `json:"emoji"`
}

// kitElement is an interactive element, or an element of a context block.
type kitElement struct {
	Type     string          `json:"type"`
	ActionID string          `json:"action_id"`
	Value    string          `json:"value"`
	Text     json.RawMessage `json:"text"`
	URL      string          `json:"url"`
	Style    string          `json:"style"`
	AltText  string          `json:"alt_text"`
	ImageURL string          `json:"image_url"`
	Options  []kitOption     `json:"options"`
	// InitialOption is a select menu's selected option; Placeholder its
	// text when none is.
	InitialOption *kitOption `json:"initial_option"`
	Placeholder   *kitText   `json:"placeholder"`
	// InitialDate is a date picker's day shown when it loads.
	InitialDate string `json:"initial_date"`
	// InitialOptions are a checkbox group's ticked boxes.
	InitialOptions []kitOption `json:"initial_options"`
}

// kitOption is an option of a menu.
type kitOption struct {
	Text  kitText `json:"text"`
	Value string  `json:"value"`
	// Description is shown under the option in lighter text (checkboxes
	// and radio buttons); nil for none.
	Description *kitText `json:"description"`
}

// text renders a text object.
func (r *renderer) text(t kitText, fg string) string {
	if t.Type == "mrkdwn" {
		return r.mrkdwn(t.Text, fg)
	}
	return r.plainText(t)
}

// blocks renders a list of blocks as lines, numbering each control with
// press, which records it and returns its number.
func (r *renderer) blocks(raw []json.RawMessage, press func(control) int) []string {
	var lines []string
	for i, rb := range raw {
		var b kitBlock
		if err := json.Unmarshal(rb, &b); err != nil {
			lines = append(lines, r.p.grey("[a block that is not JSON]"))
			continue
		}
		switch b.Type {
		case "header", "section", "divider", "image", "input":
			// Slack leaves space above these; actions and context blocks
			// sit right under the block they belong to.
			if i > 0 {
				lines = append(lines, "")
			}
		}
		switch b.Type {
		case "header":
			title := ""
			if b.Text != nil {
				title = r.plainText(*b.Text)
			}
			if r.p.on {
				lines = append(lines, r.p.bold(title))
			} else {
				lines = append(lines, title, strings.Repeat("─", max(visibleWidth(title), 3)))
			}
		case "section":
			if b.Text != nil {
				lines = append(lines, strings.Split(r.text(*b.Text, fgDefault), "\n")...)
			}
			lines = append(lines, r.fields(b.Fields)...)
			if len(b.Accessory) > 0 {
				lines = append(lines, r.controls(b.BlockID, []json.RawMessage{b.Accessory}, press))
			}
		case "context":
			var parts []string
			for _, e := range b.Elements {
				var el kitElement
				if json.Unmarshal(e, &el) != nil {
					continue
				}
				switch el.Type {
				case "mrkdwn", "plain_text":
					var t kitText
					if json.Unmarshal(e, &t) != nil {
						continue // not a text object: left out, as an unreadable element is
					}
					parts = append(parts, r.text(t, fgGrey))
				case "image":
					parts = append(parts, "["+el.AltText+"]")
				}
			}
			for _, l := range strings.Split(strings.Join(parts, "  "), "\n") {
				lines = append(lines, r.p.grey(l))
			}
		case "actions":
			lines = append(lines, r.controls(b.BlockID, b.Elements, press))
		case "divider":
			lines = append(lines, r.p.grey(strings.Repeat("─", 40)))
		case "input":
			lines = append(lines, r.input(b)...)
		case "image":
			lines = append(lines, fmt.Sprintf("[image: %s] %s", b.AltText, b.ImageURL))
		default:
			lines = append(lines, r.p.grey("["+b.Type+" block, not shown here]"))
		}
	}
	return lines
}

// input is a modal's text input: its label, a box with what it holds (or
// its placeholder, greyed) and its hint.
func (r *renderer) input(b kitBlock) []string {
	var lines []string
	if b.Label != nil {
		lines = append(lines, r.p.bold(r.plainText(*b.Label)))
	}
	box := b.Element.InitialValue
	if box == "" && b.Element.Placeholder != nil {
		box = r.p.grey(b.Element.Placeholder.Text)
	}
	lines = append(lines, "[ "+box+" ]")
	if b.Hint != nil {
		lines = append(lines, r.p.grey(r.plainText(*b.Hint)))
	}
	return lines
}

// fields lays a section's fields out in two columns, as Slack does.
func (r *renderer) fields(fields []kitText) []string {
	if len(fields) == 0 {
		return nil
	}
	cells := make([][]string, len(fields))
	left := 0
	for i, f := range fields {
		cells[i] = strings.Split(r.text(f, fgDefault), "\n")
		if i%2 == 0 {
			for _, l := range cells[i] {
				left = max(left, visibleWidth(l))
			}
		}
	}
	const gap, widest = 4, 40
	var lines []string
	for i := 0; i < len(cells); i += 2 {
		if i+1 == len(cells) || left > widest {
			lines = append(lines, cells[i]...)
			if i+1 < len(cells) {
				lines = append(lines, cells[i+1]...)
			}
			continue
		}
		a, b := cells[i], cells[i+1]
		for k := range max(len(a), len(b)) {
			var l, rt string
			if k < len(a) {
				l = a[k]
			}
			if k < len(b) {
				rt = b[k]
			}
			lines = append(lines, strings.TrimRight(padRight(l, left+gap)+rt, " "))
		}
	}
	return lines
}

// controls renders interactive elements as one line of numbered controls:
// "[1] Complete  [2] Start  [3] ⋯ Cancel". A link button shows where it
// goes; a menu shows each option as a control of its own.
func (r *renderer) controls(blockID string, elements []json.RawMessage, press func(control) int) string {
	var parts []string
	for _, raw := range elements {
		var el kitElement
		if err := json.Unmarshal(raw, &el); err != nil {
			continue
		}
		switch {
		case el.Type == "static_select" && len(el.Options) > 0:
			parts = append(parts, r.selectMenu(blockID, raw, el, press))
		case el.Type == "checkboxes":
			parts = append(parts, r.checkboxes(blockID, raw, el, press))
		case el.Type == "datepicker":
			parts = append(parts, r.datePicker(blockID, raw, el, press))
		case len(el.Options) > 0:
			for _, o := range el.Options {
				label := r.plainText(o.Text)
				n := press(control{Label: label, BlockID: blockID, Element: raw, ActionID: el.ActionID, Value: el.Value, Option: o.Value})
				parts = append(parts, r.number(n)+" ⋯ "+label)
			}
		case el.Type == "button":
			var t kitText
			_ = json.Unmarshal(el.Text, &t) // a button without text still gets a number
			label := r.plainText(t)
			n := press(control{Label: label, BlockID: blockID, Element: raw, ActionID: el.ActionID, Value: el.Value, URL: el.URL})
			shown := label
			switch el.Style {
			case "primary":
				shown = r.p.fg(fgGreen, label)
			case "danger":
				shown = r.p.fg(fgRed, label)
			}
			if el.URL != "" {
				shown = r.p.underline(label) + " (" + el.URL + ")"
			}
			parts = append(parts, r.number(n)+" "+shown)
		default:
			parts = append(parts, r.p.grey("["+el.Type+"]"))
		}
	}
	return "  " + strings.Join(parts, "   ")
}

// selectMenu renders a select menu as one numbered control showing its
// selected option (or placeholder) and how to choose another: a menu of
// two dozen times would bury the rest of the message as one number each.
// Slack shows initial_option as selected when the menu loads, else the
// placeholder
// (https://docs.slack.dev/tools/node-slack-sdk/reference/types/interfaces/StaticSelect),
// and sends the chosen one as selected_option
// (https://docs.slack.dev/tools/bolt-js/reference/interfaces/StaticSelectAction),
// which slackfake.Sender builds from the click's Option.
func (r *renderer) selectMenu(blockID string, raw json.RawMessage, el kitElement, press func(control) int) string {
	choices := make([]choice, 0, len(el.Options))
	for _, o := range el.Options {
		choices = append(choices, choice{Label: r.plainText(o.Text), Value: o.Value})
	}
	shown := ""
	switch {
	case el.InitialOption != nil:
		shown = r.plainText(el.InitialOption.Text)
	case el.Placeholder != nil:
		shown = r.p.grey(r.plainText(*el.Placeholder))
	}
	n := press(control{Label: shown, BlockID: blockID, Element: raw, ActionID: el.ActionID, Value: el.Value, Choices: choices})
	var options string
	if len(choices) <= 4 {
		labels := make([]string, len(choices))
		for i, c := range choices {
			labels[i] = c.Label
		}
		options = strings.Join(labels, ", ")
	} else {
		options = choices[0].Label + ", " + choices[1].Label + " … " + choices[len(choices)-1].Label
	}
	return r.number(n) + " ▾ " + shown + " " + r.p.grey(fmt.Sprintf("(choose: click %d %s; one of %s)", n, choices[min(1, len(choices)-1)].Label, options))
}

// datePicker renders a date picker as one numbered control showing its
// initial_date (or placeholder) and how to pick a day: Slack shows the
// calendar and sends the day picked as selected_date
// (https://docs.slack.dev/reference/block-kit/block-elements/date-picker-element).
func (r *renderer) datePicker(blockID string, raw json.RawMessage, el kitElement, press func(control) int) string {
	shown := el.InitialDate
	if shown == "" && el.Placeholder != nil {
		shown = r.p.grey(r.plainText(*el.Placeholder))
	}
	n := press(control{Label: shown, BlockID: blockID, Element: raw, ActionID: el.ActionID, Value: el.Value, Date: true})
	return r.number(n) + " 📅 " + shown + " " + r.p.grey(fmt.Sprintf("(pick a day: click %d YYYY-MM-DD)", n))
}

// checkboxes renders a checkbox group as one numbered control per box,
// ☑ ticked or ☐ not; pressing one ticks or unticks it
// (https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element).
func (r *renderer) checkboxes(blockID string, raw json.RawMessage, el kitElement, press func(control) int) string {
	ticked := map[string]bool{}
	for _, o := range el.InitialOptions {
		ticked[o.Value] = true
	}
	var parts []string
	for _, o := range el.Options {
		var after []string
		for _, x := range el.Options {
			if ticked[x.Value] != (x.Value == o.Value) {
				after = append(after, x.Value)
			}
		}
		label := r.plainText(o.Text)
		box := "☐"
		if ticked[o.Value] {
			box = "☑"
		}
		n := press(control{Label: label, BlockID: blockID, Element: raw, ActionID: el.ActionID, Value: el.Value, Selected: after})
		part := r.number(n) + " " + box + " " + label
		if o.Description != nil && o.Description.Text != "" {
			// Slack shows it under the label, lighter; one line here.
			part += " " + r.p.grey("("+r.plainText(*o.Description)+")")
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "   ")
}

func (r *renderer) number(n int) string {
	return r.p.bold(r.p.fg(fgYellow, "["+strconv.Itoa(n)+"]"))
}

// attachments renders legacy attachments (an unfurl is one): their blocks,
// or their text, behind a bar as Slack shows them.
func (r *renderer) attachments(raw json.RawMessage, press func(control) int) []string {
	var atts []struct {
		Blocks   []json.RawMessage `json:"blocks"`
		Text     string            `json:"text"`
		Fallback string            `json:"fallback"`
	}
	if err := json.Unmarshal(raw, &atts); err != nil {
		return nil
	}
	var lines []string
	for _, a := range atts {
		var inner []string
		switch {
		case len(a.Blocks) > 0:
			inner = r.blocks(a.Blocks, press)
		case a.Text != "":
			inner = strings.Split(r.mrkdwn(a.Text, fgDefault), "\n")
		default:
			inner = []string{a.Fallback}
		}
		for _, l := range inner {
			lines = append(lines, r.p.grey("▌")+" "+l)
		}
	}
	return lines
}

// blockKitBuilderURL links to Slack's Block Kit Builder showing payload, a
// JSON object such as {"blocks":[…]} or a Home view. The builder reads the
// payload from the URL fragment, percent-encoded.
func blockKitBuilderURL(payload []byte) string {
	return "https://app.slack.com/block-kit-builder/#" + url.PathEscape(string(payload))
}
