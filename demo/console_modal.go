package demo

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// showModals shows each of the current person's open modals that changed
// since it was last shown (views.open, views.update, a submission's
// update), with its buttons.
func (c *console) showModals(sc *screen) {
	for _, m := range c.env.slack.Modals(c.me.SlackID) {
		if !m.Open || c.modalHashes[m.ID] == m.Hash {
			continue
		}
		c.modalHashes[m.ID] = m.Hash
		var v struct {
			Title  *kitText          `json:"title"`
			Blocks []json.RawMessage `json:"blocks"`
		}
		if err := json.Unmarshal(m.View, &v); err != nil {
			continue
		}
		title := "a window"
		if v.Title != nil {
			title = "“" + v.Title.Text + "”"
		}
		lines := c.r.blocks(v.Blocks, c.replacingPresser(sc, origin{kind: inModal, view: m.ID}))
		c.card("recordsbot · window "+title, lines, m.View)
		sc.shown++
	}
}

// searchModal types words into the current person's open modal (its first
// input: Search minutes, Watch a topic) and presses its submit button, as Slack sends it: a
// view_submission. The bot's answer is applied as Slack applies it.
func (c *console) searchModal(ctx context.Context, words string) error {
	modals := slices.DeleteFunc(c.env.slack.Modals(c.me.SlackID), func(m slackfake.Modal) bool { return !m.Open })
	if len(modals) == 0 {
		return errors.New("no window is open: type home, then click its Search minutes or Watch a topic button")
	}
	m := modals[len(modals)-1]
	var v struct {
		Blocks []modalBlock `json:"blocks"`
		Submit struct {
			Text string `json:"text"`
		} `json:"submit"`
	}
	if err := json.Unmarshal(m.View, &v); err != nil {
		return fmt.Errorf("read the window: %w", err)
	}
	i := slices.IndexFunc(v.Blocks, func(b modalBlock) bool { return b.Type == "input" })
	if i < 0 {
		return errors.New("the open window has nowhere to type")
	}
	in := v.Blocks[i]
	// The button is the window's own (Search, Watch…), as the person sees it.
	button := cmp.Or(v.Submit.Text, "Submit")
	c.printf("%s\n", c.r.p.grey(fmt.Sprintf("@%s types “%s” and presses %s", handle(c.me), words, button)))
	res, err := c.env.send.Submit(ctx, slackfake.Submission{User: c.slackUser(), ViewID: m.ID,
		Typed: map[string]map[string]string{in.BlockID: {in.Element.ActionID: words}}})
	if err != nil {
		return fmt.Errorf("send the submission to the bot: %w", err)
	}
	if res.Status != http.StatusOK || res.Answer.Refused != "" {
		return fmt.Errorf("Slack would show “We had some trouble connecting” (HTTP %d, %s)", res.Status, res.Answer.Refused)
	}
	sc := &screen{}
	for _, e := range res.Answer.Errors {
		c.printf("%s\n\n", c.r.p.fg(fgYellow, "Under the input, Slack shows: "+strings.TrimSpace(e)))
		sc.shown++
	}
	return c.settle(ctx, sc)
}

// modalBlock is what searchModal reads of a modal's block.
type modalBlock struct {
	Type    string `json:"type"`
	BlockID string `json:"block_id"`
	Element struct {
		ActionID string `json:"action_id"`
	} `json:"element"`
}
