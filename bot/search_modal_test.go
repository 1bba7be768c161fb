package bot_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
)

// openSearchModal clicks Search minutes on user's Home tab and returns the
// modal Slack opened.
func (h *harness) openSearchModal(t *testing.T, user slacktest.User) slacktest.Modal {
	t.Helper()
	home := h.openHome(t, "Ev_search_"+user.ID, user)
	h.clickHome(t, user, home, blocks.ActionHomeSearch, "")
	modals := h.slack.Modals(user.ID)
	require.Len(t, modals, 1, "views.open: %v", h.slack.Calls("views.open"))
	require.True(t, modals[0].Open)
	return modals[0]
}

// submitSearch types words into the search modal and presses Search.
func (h *harness) submitSearch(t *testing.T, user slacktest.User, viewID, words string) *slacktest.SubmitResult {
	t.Helper()
	res, err := h.send.Submit(t.Context(), slacktest.Submission{User: user, ViewID: viewID,
		Typed: map[string]map[string]string{blocks.BlockSearchQuery: {blocks.ActionSearchQuery: words}}})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.Status, "body: %s", res.Body)
	require.Empty(t, res.Answer.Refused, "Slack showed the answer: %s", res.Body)
	return res
}

// modalText is the modal as the user sees it, as text for assertions.
func modalText(m slacktest.Modal) string { return jsonText(m.View) }

// clickModal presses an element of the modal and waits for the bot.
func (h *harness) clickModal(t *testing.T, user slacktest.User, m slacktest.Modal, actionID, valuePart string) slacktest.Modal {
	t.Helper()
	view := parseMsg(t, m.View)
	blockID, el, opt := view.element(t, actionID, valuePart)
	r, err := h.send.Click(t.Context(), slacktest.Click{User: user, View: m.Served, BlockID: blockID, Element: el, Option: opt})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	h.settle(t)
	now, ok := h.slack.Modal(m.ID)
	require.True(t, ok)
	return now
}

func TestHomeSearchModal(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarness(t, st)
		alice := h.person("alice")
		m := h.openSearchModal(t, alice)
		assert.Contains(t, modalText(m), `"text":"Search minutes"`, "the title")
		assert.Contains(t, modalText(m), `committee:finance`, "the hint says how to search")

		// Words: results in the modal, the input kept for a new search.
		res := h.submitSearch(t, alice, m.ID, "budgets")
		assert.Equal(t, "update", res.Answer.ResponseAction)
		got := modalText(res.Modal)
		assert.Contains(t, got, "Minutes mentioning “budgets”")
		assert.Contains(t, got, "*budget*", "the matched word in bold (stemmed: budgets finds budget)")
		assert.Contains(t, got, `"text":"Read"`)
		assert.Contains(t, got, "*Finance Committee: Quarterly budget review*", "the meeting's title")
		assert.Regexp(t, `"url":"https://records-bot\.example\.org/minutes/mtg_\d+"`, got, "Read opens the minutes page")
		assert.NotContains(t, got, "minutes:share", "no channel to share in from a modal")
		assert.NotContains(t, got, "zanzibar", "minutes in review are never found")
		assert.Contains(t, string(res.Modal.Served), `"value":"budgets"`, "the words stay in the input")

		// More: the next results, in the same modal.
		require.Contains(t, got, blocks.ActionSearchMore, "more than a page of minutes mention the budget")
		next := h.clickModal(t, alice, res.Modal, blocks.ActionSearchMore, "")
		assert.Contains(t, modalText(next), "(from result 6)")
		assert.NotEqual(t, res.Modal.Hash, next.Hash)

		// Nothing typed: an error under the input, the modal left as it was.
		blank := h.submitSearch(t, alice, m.ID, "   ")
		assert.Equal(t, "errors", blank.Answer.ResponseAction)
		assert.Contains(t, blank.Modal.Errors[blocks.BlockSearchQuery], "Type the words")
		assert.Contains(t, modalText(blank.Modal), "(from result 6)")

		// Nothing found; hidden minutes stay hidden.
		none := h.submitSearch(t, alice, m.ID, "zanzibar")
		assert.Contains(t, modalText(none.Modal), "No minutes mention “zanzibar”.")
		assert.Contains(t, modalText(h.submitSearch(t, alice, m.ID, "committee:xyz budget").Modal), "No minutes mention")
	})
}

func TestHomeSearchModalMoreAfterANewSearchIsDropped(t *testing.T) {
	t.Parallel()
	h := newSearchHarness(t, openTestStore(t, "sqlite"))
	alice := h.person("alice")
	m := h.openSearchModal(t, alice)
	first := h.submitSearch(t, alice, m.ID, "budget").Modal
	h.submitSearch(t, alice, m.ID, "zanzibar")

	// More on the first results, clicked before the second search showed.
	after := h.clickModal(t, alice, first, blocks.ActionSearchMore, "")
	assert.Contains(t, modalText(after), "No minutes mention “zanzibar”.", "the newer search stays")
	calls := h.slack.Calls("views.update")
	require.NotEmpty(t, calls)
	assert.Equal(t, "hash_conflict", calls[len(calls)-1].Error)
}

func TestHomeSearchModalWhenTheStoreIsDown(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newSearchHarness(t, st)
	alice := h.person("alice")
	m := h.openSearchModal(t, alice)
	require.NoError(t, st.Close())

	res := h.submitSearch(t, alice, m.ID, "budget")
	got := modalText(res.Modal)
	assert.Equal(t, "update", res.Answer.ResponseAction, "answered, never a 500")
	assert.Contains(t, got, "database")
	assert.NotContains(t, got, "sql", "no raw error")
	assert.Contains(t, string(res.Modal.Served), `"value":"budget"`, "the words stay, to try again")
}

func TestHomeSearchModalSlowSearchFollowsWithViewsUpdate(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newSearchHarness(t, st)
	slow := &slowSearch{MinutesSearch: st, delay: 300 * time.Millisecond}
	h.rebuild(bot.Deps{Store: slowStore{Store: st, search: slow}}, withConfig(func(c *bot.Config) { c.AckBudget = 50 * time.Millisecond }))
	alice := h.person("alice")
	m := h.openSearchModal(t, alice)

	res := h.submitSearch(t, alice, m.ID, "budget")
	assert.Contains(t, modalText(res.Modal), "Searching…", "the ack within the budget")
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.slack.Wait(ctx, func() bool {
		now, _ := h.slack.Modal(m.ID)
		return strings.Contains(modalText(now), "Minutes mentioning “budget”")
	}), "the results follow")
}

func TestHomeSearchButtonOnlyWithASearchIndex(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	assert.NotContains(t, h.openHome(t, "Ev_nostore", alice).all(), blocks.ActionHomeSearch)
}

// slowSearch answers searches after delay.
type slowSearch struct {
	bot.MinutesSearch
	delay time.Duration
}

func (s *slowSearch) SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return store.MinutesPage{}, ctx.Err()
	}
	return s.MinutesSearch.SearchMinutes(ctx, q, offset, limit)
}

// slowStore is the store with a slow search index.
type slowStore struct {
	*store.Store
	search bot.MinutesSearch
}

func (s slowStore) SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error) {
	return s.search.SearchMinutes(ctx, q, offset, limit)
}

func TestHomeSearchModalOverSocketMode(t *testing.T) {
	t.Parallel()
	h := newSearchHarness(t, openTestStore(t, "sqlite"))
	alice := h.person("alice")
	m := h.openSearchModal(t, alice)
	conn, _ := h.socket()

	payload, err := h.send.ViewSubmission(slacktest.Submission{User: alice, ViewID: m.ID,
		Typed: map[string]map[string]string{blocks.BlockSearchQuery: {blocks.ActionSearchQuery: "budget"}}})
	require.NoError(t, err)
	id, err := conn.Send(h.waitCtx(), slacktest.Envelope{Type: slacktest.EnvelopeInteractive, Payload: payload})
	require.NoError(t, err)
	ack, err := conn.WaitAck(h.waitCtx(), id)
	require.NoError(t, err)
	// Over Socket Mode the answer to a view_submission is the ack's
	// payload (slack-go's NewUpdateViewSubmissionResponse: "For Socket
	// Mode apps, pass this as the payload argument to Ack()").
	got := jsonText(ack.Payload)
	assert.Contains(t, got, `"response_action":"update"`)
	assert.Contains(t, got, "Minutes mentioning “budget”")
}

func TestHomeSearchModalThatSlackWillNotOpen(t *testing.T) {
	t.Parallel()
	h := newSearchHarness(t, openTestStore(t, "sqlite"))
	alice := h.person("alice")
	home := h.openHome(t, "Ev_expired", alice)
	// The click's trigger_id expired before views.open (a bot slowed down
	// for more than three seconds).
	h.slack.InjectFault(slacktest.Fault{Method: "views.open", Error: "expired_trigger_id", Times: 1})
	h.clickHome(t, alice, home, blocks.ActionHomeSearch, "")
	assert.Empty(t, h.slack.Modals(alice.ID))
	assert.Contains(t, h.homeView(t, alice).all(), "I couldn't open the search window just now", "the Home tab says so")
}
