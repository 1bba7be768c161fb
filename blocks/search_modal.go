package blocks

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// The Search minutes modal, opened from the Home tab.
const (
	// ActionHomeSearch is the Home tab's "Search minutes" button.
	ActionHomeSearch = "home:search"
	// CallbackSearch is the search modal's callback_id: its view_submission
	// payloads carry it.
	CallbackSearch = "search:modal"
	// BlockSearchQuery and ActionSearchQuery name the modal's input, where
	// a view_submission carries what was typed
	// (view.state.values[BlockSearchQuery][ActionSearchQuery].value). The
	// block ID stays the same in every version of the modal: Slack keeps
	// what was typed in an input across views.update when the block_id and
	// action_id are unchanged ("Preserving input entry",
	// https://docs.slack.dev/reference/views/modal-views).
	BlockSearchQuery  = "search:query"
	ActionSearchQuery = "search:words"
)

// searchModalHint is the input's hint: how to write a query.

// SearchModalView is what the Search minutes modal shows.
type SearchModalView struct {
	Lang lang.Lang // the reader's language; Results.Lang is ignored
	// Query is what was searched for, the input's initial value.
	Query string
	// Note, when set, is shown under the input instead of results: mrkdwn
	// written by the bot (a failure, "Searching…"), not escaped again.
	Note string
	// Results, when set and Note is empty, are shown under the input (no
	// results: "No minutes mention …").
	Results *SearchView
}

// SearchModal builds the Search minutes modal: an input for the words
// (hint: phrases and committee:), submit "Search", and under it v.Note or
// v.Results as /minutes search shows them but without "Share in channel"
// (a modal opened from the Home tab is in no channel; a line says how to
// share from one). A More button (ActionSearchMore) asks for the next
// results. With neither a note nor results, a line says what to type.
// The modal stays within MaxViewBlocks and MaxViewText.
func SearchModal(v SearchModalView) slack.ModalViewRequest {
	lg := v.Lang
	input := slack.NewPlainTextInputBlockElement(plain(lg.T("search.modal.placeholder")), ActionSearchQuery)
	input.InitialValue = truncate(strings.TrimSpace(v.Query), searchQueryMax)
	input.MaxLength = searchQueryMax
	out := []slack.Block{slack.NewInputBlock(BlockSearchQuery, plain(lg.T("search.modal.label")), plain(lg.T("search.modal.hint")), input)}
	switch {
	case strings.TrimSpace(v.Note) != "":
		out = append(out, section(truncateMrkdwn(strings.TrimSpace(v.Note), MaxSectionText)))
	case v.Results == nil:
		out = append(out, contextLine(lg.T("search.modal.intro")))
	case len(v.Results.Results) == 0:
		r := *v.Results
		r.Lang = lg
		out = append(out, section(searchNone(r)))
	default:
		r := *v.Results
		r.Lang = lg
		out = append(out, searchBlocks(r, readResultButton)...)
		out = append(out, contextLine(lg.T("search.modal.share_hint")))
	}
	return slack.ModalViewRequest{
		Type:       slack.VTModal,
		Title:      plain(truncate(lg.T("search.modal.title"), MaxModalTitle)),
		Submit:     plain(truncate(lg.T("search.modal.submit"), MaxModalButton)),
		Close:      plain(truncate(lg.T("search.modal.close"), MaxModalButton)),
		CallbackID: CallbackSearch,
		Blocks:     slack.Blocks{BlockSet: out},
	}
}

// CheckModal is Check for a modal: up to MaxViewBlocks blocks and
// MaxViewText characters of text, type "modal", a plain_text title of 1 to
// MaxModalTitle characters, submit and close within MaxModalButton, submit
// present when an input block is, and the callback_id and
// private_metadata within their limits.
func CheckModal(v slack.ModalViewRequest) error {
	err := check(v.Blocks.BlockSet, MaxViewBlocks, MaxViewText, 0)
	var errs []error
	if v.Type != slack.VTModal {
		errs = append(errs, fmt.Errorf("view: type %q, want %q", v.Type, slack.VTModal))
	}
	for _, b := range []struct {
		name     string
		t        *slack.TextBlockObject
		required bool
	}{{"title", v.Title, true}, {"submit", v.Submit, hasInput(v.Blocks.BlockSet)}, {"close", v.Close, false}} {
		switch {
		case b.t == nil && b.required:
			errs = append(errs, fmt.Errorf("view.%s: missing", b.name))
		case b.t == nil:
		case b.t.Type != slack.PlainTextType:
			errs = append(errs, fmt.Errorf("view.%s: type %q, want plain_text", b.name, b.t.Type))
		case utf8.RuneCountInString(b.t.Text) == 0 || utf8.RuneCountInString(b.t.Text) > MaxModalTitle:
			errs = append(errs, fmt.Errorf("view.%s: %d characters, want 1 to %d", b.name, utf8.RuneCountInString(b.t.Text), MaxModalTitle))
		}
	}
	if n := utf8.RuneCountInString(v.CallbackID); n > MaxCallbackID {
		errs = append(errs, fmt.Errorf("view.callback_id: %d characters, limit %d", n, MaxCallbackID))
	}
	if n := utf8.RuneCountInString(v.PrivateMetadata); n > MaxModalMetadata {
		errs = append(errs, fmt.Errorf("view.private_metadata: %d characters, limit %d", n, MaxModalMetadata))
	}
	return errors.Join(append(errs, err)...)
}

func hasInput(list []slack.Block) bool {
	for _, b := range list {
		if b.BlockType() == slack.MBTInput {
			return true
		}
	}
	return false
}
