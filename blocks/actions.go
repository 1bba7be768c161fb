package blocks

import (
	"cmp"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Sizes of an action row in a list, in escaped characters. Titles get
// rowTitleMax when the message has room and shrink towards rowTitleMin when
// a page of long rows would break the text budget; the other parts are
// short by nature and capped so that 20 rows with every field at its
// longest still fit in one message with a title of about 90 characters.
const (
	rowTitleMax     = 300
	rowTitleMin     = 40
	rowStatusMax    = 24
	rowCommitteeMax = 40
	rowMeetingMax   = 50
	rowAssigneeMax  = 40
)

// truncatedNote explains ActionList.Truncated: "N of M" when the records
// service said how many it has.
func truncatedNote(list ActionList) string {
	if list.Available > 0 && list.Read < list.Available {
		return list.Lang.N("actions.truncated_of", list.Available, "read", list.Lang.Int(list.Read))
	}
	return list.Lang.T("actions.truncated")
}

// linkable reports whether a row with this ID can carry block IDs and
// status buttons. An empty ID cannot be told apart from others, and an
// absurdly long one would overflow block_id (255); such a row is shown
// without buttons rather than with a cut ID that would act on the wrong
// action.
func linkable(r ActionRow) bool {
	return r.ID != "" && rowBlockIDLen(BlockActionButtons, r.ID, r.Rev) <= MaxBlockID
}

// carriesValues reports whether r's status values can be built whole: the
// context must split off unambiguously (no '|') and the longest value must
// fit a button. Otherwise the row gets no buttons, rather than values cut
// or misread into acting on the wrong action or page.
func carriesValues(r ActionRow) bool {
	return !strings.Contains(r.Context, "|") &&
		statusValueLen(statusInProgress, r.ID, r.Context) <= MaxButtonValue
}

// ActionRowBlocks returns the blocks of one action row: a section with
// BlockID BlockActionRow+ID and, when the row can be changed and has
// sensible transitions, an actions block with BlockID BlockActionButtons+ID.
//
// The section's text is the title in bold (shortened to 300 characters),
// then a line with overdue, deadline, status, committee, meeting and
// assignee, then, when r.Changed is set, an italic line "Marked complete by
// @x today at 3:04 PM". The change line lives in the section, not a context
// block, so that a row is never more than two blocks and an in-place update
// touches only the two block IDs.
//
// Status buttons: action_id ActionStatusPrefix+target ("status:complete")
// for buttons and ActionRowMenu for the overflow menu of rarer changes
// and Snooze choices (rowControls); every status value is
// StatusValue(target, r.ID, r.Context). Slack wants an
// action_id unique within its block only (block_id must be unique in the
// message), and each row has its own actions block, so rows repeat the same
// action_ids and the bot routes by the constants alone.
//
// An overflow menu needs two to five options, each value at most 150
// characters; when the rarer changes do not meet that they become buttons.
// A row whose ID is empty or too long for a block_id gets neither block IDs
// nor buttons; a row whose Context holds '|' or makes a value longer than
// 2000 characters keeps its block IDs but gets no buttons.
func ActionRowBlocks(r ActionRow) []slack.Block {
	return buildRow(r.Lang, r, rowTitleMax)
}

// buildRow draws r in l (a list's language, which wins over r.Lang), with
// block IDs and buttons when r is linkable.
func buildRow(l lang.Lang, r ActionRow, titleMax int) []slack.Block {
	// The text is written in one buffer: every row of every list has one.
	var b strings.Builder
	b.Grow(min(len(r.Title), titleMax) + len(r.Link) + 200)
	writeRow(&b, l, r, formSection, titleMax)
	text := b.String()
	if !linkable(r) {
		return []slack.Block{section(text)}
	}
	sectionID, buttonsID := rowBlockIDs(r.ID, r.Rev)
	out := make([]slack.Block, 1, 2)
	out[0] = textSection(text, sectionID)
	choices, tail := snoozeControls(l, r)
	changes := r.CanChange && carriesValues(r)
	if changes || len(choices)+len(tail) > 0 {
		out = append(out, rowControls(l, r, buttonsID, changes, choices, tail))
	}
	return out
}

// rowBlockIDs returns RowBlockID(BlockActionRow, id, rev) and
// RowBlockID(BlockActionButtons, id, rev), cut from one string: every
// linked row has both.
func rowBlockIDs(id, rev string) (section, buttons string) {
	n := rowBlockIDLen(BlockActionRow, id, rev)
	var b strings.Builder
	b.Grow(n + rowBlockIDLen(BlockActionButtons, id, rev))
	for _, prefix := range [...]string{BlockActionRow, BlockActionButtons} {
		b.WriteString(prefix)
		b.WriteString(id)
		if rev != "" {
			b.WriteString(revSep)
			b.WriteString(rev)
		}
	}
	both := b.String()
	return both[:n], both[n:]
}

// rowBlockIDLen is len(RowBlockID(prefix, id, rev)), without building it.
func rowBlockIDLen(prefix, id, rev string) int {
	if rev == "" {
		return len(prefix) + len(id)
	}
	return len(prefix) + len(id) + len(revSep) + len(rev)
}

// textSection is a section of one mrkdwn text with a block ID, in one
// allocation.
func textSection(text, blockID string) *slack.SectionBlock {
	s := &struct {
		block slack.SectionBlock
		text  slack.TextBlockObject
	}{}
	s.text = slack.TextBlockObject{Type: slack.MarkdownType, Text: text, Verbatim: true}
	s.block = slack.SectionBlock{Type: slack.MBTSection, Text: &s.text, BlockID: blockID}
	return &s.block
}

// StatusValue is the value of a status button or menu option:
// "<target status>|<action id>|<context>". The context is the caller's
// opaque page state and must not contain '|', so the value splits
// unambiguously at its first and last '|' even when the ID holds one.
func StatusValue(target, id, context string) string {
	return target + "|" + id + "|" + context
}

// statusValueLen is len(StatusValue(target, id, context)), without
// building it.
func statusValueLen(target, id, context string) int {
	return len(target) + 1 + len(id) + 1 + len(context)
}

// rowControls is the actions block of a linked row, whose block ID is
// blockID: when changes is set, a button per common status change (the
// primary one first) and the rarer ones in the row's menu
// (ActionRowMenu), followed in the menu by the Snooze choices; then the
// shared elements tail (the date picker, or Unsnooze). Slack's overflow
// menu is "to supply a list of less visually important actions after a
// row of buttons"
// (https://docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element),
// which keeps a row to one line of controls. Rarer changes become buttons
// when the menu would have fewer than two or more than five options, or
// a value too long for an option. Every row of every list has one, so its
// parts are made in a few allocations rather than one or two per control:
// the values are cut from one string, the buttons and their labels each
// come in one array, and the block with its menu and options in one.
func rowControls(l lang.Lang, r ActionRow, blockID string, changes bool, choices []*slack.OptionBlockObject, tail []slack.BlockElement) *slack.ActionBlock {
	var buttons, menu []string
	if changes {
		buttons, menu = transitions(r.Status)
	}
	// Scratch for the targets and their values: a row has at most five.
	var targetBuf, valueBuf [5]string
	targets := append(append(targetBuf[:0], buttons...), menu...)
	values := append(valueBuf[:0], targets...)
	statusValues(values, r.ID, r.Context)
	// The block, its menu and the menu's options in one allocation.
	a := &struct {
		block    slack.ActionBlock
		elements slack.BlockElements
		menu     slack.OverflowBlockElement
		opts     [2]slack.OptionBlockObject
		ptrs     [MaxOverflowOptions]*slack.OptionBlockObject
	}{}
	n := len(menu) + len(choices)
	inMenu := n >= MinOverflowOptions && n <= MaxOverflowOptions && len(menu) <= len(a.opts)
	for _, v := range values[len(buttons):] {
		inMenu = inMenu && len(v) <= MaxOptionValue
	}
	nButtons := len(targets)
	if inMenu {
		nButtons = len(buttons)
	}
	labels := plainLabels(l, r.Status, targets)
	controls := make([]slack.ButtonBlockElement, nButtons)
	els := make([]slack.BlockElement, 0, nButtons+1+len(tail))
	for i := range nButtons {
		controls[i] = slack.ButtonBlockElement{Type: slack.METButton, ActionID: statusActionID(targets[i]), Text: &labels[i], Value: values[i]}
		if targets[i] == statusComplete {
			controls[i].Style = slack.StylePrimary
		}
		els = append(els, &controls[i])
	}
	if !inMenu {
		menu = nil
	}
	if len(menu)+len(choices) >= MinOverflowOptions {
		ptrs := a.ptrs[:len(menu)]
		for i := range menu {
			j := len(buttons) + i
			a.opts[i] = slack.OptionBlockObject{Text: &labels[j], Value: values[j]}
			ptrs[i] = &a.opts[i]
		}
		a.menu = slack.OverflowBlockElement{Type: slack.METOverflow, ActionID: ActionRowMenu, Options: append(ptrs, choices...)}
		els = append(els, &a.menu)
	}
	els = append(els, tail...)
	a.elements = slack.BlockElements{ElementSet: els}
	a.block = slack.ActionBlock{Type: slack.MBTAction, BlockID: blockID, Elements: &a.elements}
	return &a.block
}

// statusValues replaces each target in targets with its StatusValue(target,
// id, context), all cut from one string.
func statusValues(targets []string, id, context string) {
	n := 0
	for _, t := range targets {
		n += statusValueLen(t, id, context)
	}
	var b strings.Builder
	b.Grow(n)
	for _, t := range targets {
		b.WriteString(t)
		b.WriteByte('|')
		b.WriteString(id)
		b.WriteByte('|')
		b.WriteString(context)
	}
	all, start := b.String(), 0
	for i, t := range targets {
		end := start + statusValueLen(t, id, context)
		targets[i], start = all[start:end], end
	}
}

// plainLabels returns the labels, in l, of the controls that move an
// action from status from to targets, in one array, each as plain builds
// it.
func plainLabels(l lang.Lang, from string, targets []string) []slack.TextBlockObject {
	ls := make([]slack.TextBlockObject, len(targets))
	for i, t := range targets {
		ls[i] = plainText(truncate(transitionLabel(l, from, t), MaxButtonText))
	}
	return ls
}

// fitRow builds r within maxText characters of text if it can, shortening
// the title down to rowTitleMin. It returns the blocks and their text size,
// which exceeds maxText only when even the shortest title does not fit.
func fitRow(l lang.Lang, r ActionRow, maxText int) ([]slack.Block, int) {
	titleMax := rowTitleMax
	for {
		bl := buildRow(l, r, titleMax)
		n := measure(bl...)
		if n <= maxText || titleMax <= rowTitleMin {
			return bl, n
		}
		shown := min(titleMax, runes(inline(r.Title, titleMax)))
		titleMax = max(rowTitleMin, shown-(n-maxText))
	}
}

// fitRows builds rows in order while they fit in maxBlocks blocks and
// maxText characters, sharing the text evenly among the rows still to come
// (at most one per block left) so that one long row cannot starve the
// rest. used holds the row IDs already in the message: a repeated ID is
// shown without block IDs and buttons (drawn as a row without an ID),
// since block_id must be unique in a message. It returns the blocks, how
// many rows they show and their text size.
func fitRows(l lang.Lang, rows []ActionRow, maxBlocks, maxText int, used map[string]bool) (out []slack.Block, shown, text int) {
	for i, r := range rows {
		share := (maxText - text) / max(1, min(len(rows)-i, maxBlocks-len(out)))
		if used[r.ID] {
			r.ID = ""
		}
		bl, n := fitRow(l, r, share)
		if len(out)+len(bl) > maxBlocks || text+n > maxText {
			break
		}
		if linkable(r) {
			used[r.ID] = true
		}
		out = append(out, bl...)
		text += n
		shown++
	}
	return out, shown, text
}

// position is the context line "Showing 11–20 of 23", in l.
func position(l lang.Lang, offset, shown, total int) *slack.ContextBlock {
	return contextLine(l.N("list.position", total, "first", l.Int(offset+1), "last", l.Int(offset+shown)))
}

// Actions builds an action list: a header with the count (list.Total less
// list.Left: the rows still in the list), one section and
// one actions block per row (see ActionRowBlocks), a context line with the
// position ("Showing 1–10 of 23") when the page is not the whole list, a
// note when list.Truncated, and "Show more" (ActionActionsMore, value
// list.MoreValue) when MoreValue is set and fits MaxButtonValue.
//
// The caller decides the page size. Any page of up to 20 rows fits one
// message: titles shrink (to no less than 40 characters) as needed to keep
// within MaxMessageText. Rows that still do not fit are left off, and the
// position line says how many are shown. With no rows the message is the
// header and list.Empty ("No actions." when empty), shown as plain text.
// list.Title defaults to "Actions".
func Actions(list ActionList) Message {
	list.Offset = max(list.Offset, 0)
	total := max(list.Total, list.Offset+len(list.Rows))
	title := cmp.Or(oneLine(list.Title), list.Lang.T("actions.title"))
	if len(list.Rows) == 0 {
		title = truncate(title, MaxHeaderText)
		blocks := []slack.Block{
			header(title),
			section(escapeTrunc(cmp.Or(strings.TrimSpace(list.Empty), list.Lang.T("actions.empty")), MaxSectionText)),
		}
		if list.Truncated {
			blocks = append(blocks, contextLine(truncatedNote(list)))
		}
		return Message{Text: Escape(title), Blocks: blocks}
	}

	count := " (" + list.Lang.Int(max(total-list.Left, 0)) + ")"
	title = truncate(title, MaxHeaderText-len(count)) + count
	head := header(title)
	fallback := Escape(title)

	var footer []slack.Block
	if list.Truncated {
		footer = append(footer, contextLine(truncatedNote(list)))
	}
	if list.MoreValue != "" && len(list.MoreValue) <= MaxButtonValue {
		footer = append(footer, slack.NewActionBlock("", button(ActionActionsMore, list.MoreValue, list.Lang.T("list.show_more"))))
	}
	// Room for the position line is always kept: it is needed whenever a
	// row has to be left off, which is only known afterwards.
	pos := position(list.Lang, list.Offset, len(list.Rows), total)
	maxBlocks := MaxMessageBlocks - 2 - len(footer)
	maxText := MaxMessageText - runes(fallback) - measure(head, pos) - measure(footer...)
	rows, shown, _ := fitRows(list.Lang, list.Rows, maxBlocks, maxText, make(map[string]bool))

	blocks := append([]slack.Block{head}, rows...)
	if shown > 0 && (list.Offset > 0 || list.Offset+shown < total) {
		blocks = append(blocks, position(list.Lang, list.Offset, shown, total))
	}
	blocks = append(blocks, footer...)
	return Message{Text: fallback, Blocks: blocks}
}

// fallbackReserve is the text kept free for the fallback text the bot sends
// along with an updated message, whose blocks ReplaceRow builds without
// seeing it.
const fallbackReserve = 500

// linkOnTitle reports whether a row's Link can be written on its title.
// The link is the bot's own (actions.Service.Link: PUBLIC_URL, checked at
// start-up, and a path-escaped ID), so what would break the mrkdwn is
// checked without parsing it again for every row of every list.
func linkOnTitle(link string) bool {
	return link != "" && len(link) <= maxInlineURL && strings.HasPrefix(link, "http") &&
		!strings.ContainsAny(link, "|<> \t\n\r")
}
