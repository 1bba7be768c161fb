package slackfake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

// testModal is a modal with one text input.
func testModal(title string) slack.ModalViewRequest {
	in := slack.NewPlainTextInputBlockElement(nil, "words")
	return slack.ModalViewRequest{
		Type:       slack.VTModal,
		Title:      slack.NewTextBlockObject(slack.PlainTextType, title, false, false),
		Submit:     slack.NewTextBlockObject(slack.PlainTextType, "Search", false, false),
		CallbackID: "search",
		Blocks: slack.Blocks{BlockSet: []slack.Block{
			slack.NewInputBlock("query", slack.NewTextBlockObject(slack.PlainTextType, "Words", false, false), nil, in),
		}},
	}
}

func TestViewsOpenExchangesAFreshTriggerOnce(t *testing.T) {
	t.Parallel()
	clock := slackclienttest.Clock()
	srv, api := newTestServer(t, WithClock(clock.Now))

	trigger := srv.NewTrigger("U1")
	v, err := api.OpenViewContext(t.Context(), trigger, testModal("Search"))
	require.NoError(t, err)
	assert.NotEmpty(t, v.ID)
	assert.NotEmpty(t, v.Hash)
	m, ok := srv.Modal(v.ID)
	require.True(t, ok)
	assert.Equal(t, "U1", m.User, "the modal is the trigger's user's")
	assert.True(t, m.Open)

	_, err = api.OpenViewContext(t.Context(), trigger, testModal("Search"))
	slackclienttest.RequireSlackError(t, err, "exchanged_trigger_id")

	late := srv.NewTrigger("U1")
	clock.Advance(3*time.Second + time.Millisecond)
	_, err = api.OpenViewContext(t.Context(), late, testModal("Search"))
	slackclienttest.RequireSlackError(t, err, "expired_trigger_id")

	_, err = api.OpenViewContext(t.Context(), "12345.98765.abcd2358fdea", testModal("Search"))
	slackclienttest.RequireSlackError(t, err, "invalid_trigger_id")
	assert.Len(t, srv.Modals("U1"), 1)
}

func TestViewsOpenRefusesWhatIsNotAModal(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	many := testModal("Search")
	for range 100 {
		many.Blocks.BlockSet = append(many.Blocks.BlockSet, slack.NewDividerBlock())
	}
	noSubmit := testModal("Search")
	noSubmit.Submit = nil
	longClose := testModal("Search")
	longClose.Close = slack.NewTextBlockObject(slack.PlainTextType, "Close this window and go back", false, false)
	mrkdwnTitle := testModal("Search")
	mrkdwnTitle.Title = slack.NewTextBlockObject(slack.MarkdownType, "*Search*", false, false)
	home := testModal("Search")
	home.Type = slack.VTHomeTab
	for name, view := range map[string]slack.ModalViewRequest{
		"title over 24 characters": testModal("Search the minutes of every committee"),
		"mrkdwn title":             mrkdwnTitle,
		"101 blocks":               many,
		"input without submit":     noSubmit,
		"close over 24 characters": longClose,
		"not a modal":              home,
	} {
		_, err := api.OpenViewContext(t.Context(), srv.NewTrigger("U1"), view)
		slackclienttest.RequireSlackError(t, err, "invalid_arguments")
		_ = name
	}

	// slack-go refuses repeated block IDs itself; Slack does too.
	dup := `{"type":"modal","title":{"type":"plain_text","text":"Search"},"blocks":[` +
		`{"type":"section","block_id":"a","text":{"type":"mrkdwn","text":"x"}},{"type":"section","block_id":"a","text":{"type":"mrkdwn","text":"y"}}]}`
	form := url.Values{"token": {DefaultToken}, "trigger_id": {srv.NewTrigger("U1")}, "view": {dup}}
	resp, err := http.PostForm(srv.APIURL()+"views.open", form)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `"invalid_arguments"`)
	assert.Empty(t, srv.Modals(""), "no modal opened")
}

func TestViewsUpdateRefusesAStaleHash(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	v, err := api.OpenViewContext(t.Context(), srv.NewTrigger("U1"), testModal("Search"))
	require.NoError(t, err)

	second, err := api.UpdateViewContext(t.Context(), testModal("Results"), "", v.Hash, v.ID)
	require.NoError(t, err, "the current hash is accepted")
	assert.Equal(t, v.ID, second.ID, "a modal keeps its view ID")
	assert.NotEqual(t, v.Hash, second.Hash)

	_, err = api.UpdateViewContext(t.Context(), testModal("Stale"), "", v.Hash, v.ID)
	slackclienttest.RequireSlackError(t, err, "hash_conflict")
	m, _ := srv.Modal(v.ID)
	assert.Contains(t, string(m.View), "Results", "the stale update changed nothing")

	_, err = api.UpdateViewContext(t.Context(), testModal("No hash"), "", "", v.ID)
	require.NoError(t, err, "without a hash the update is unconditional")
	_, err = api.UpdateViewContext(t.Context(), testModal("Gone"), "", "", "V404")
	slackclienttest.RequireSlackError(t, err, "not_found")
}

func TestSubmitSendsAViewSubmissionAndAppliesTheAnswer(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	var got struct {
		Type string `json:"type"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		Team struct {
			ID string `json:"id"`
		} `json:"team"`
		TriggerID string `json:"trigger_id"`
		View      struct {
			ID         string `json:"id"`
			Hash       string `json:"hash"`
			CallbackID string `json:"callback_id"`
			State      struct {
				Values map[string]map[string]struct {
					Type  string `json:"type"`
					Value string `json:"value"`
				} `json:"values"`
			} `json:"state"`
		} `json:"view"`
	}
	answer := `{"response_action":"errors","errors":{"query":"Type a word."}}`
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, r.ParseForm())
		require.NoError(t, json.Unmarshal([]byte(r.PostForm.Get("payload")), &got))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	t.Cleanup(app.Close)
	send := &Sender{URL: app.URL, Secret: "s", Slack: srv}

	v, err := api.OpenViewContext(t.Context(), srv.NewTrigger("U1"), testModal("Search"))
	require.NoError(t, err)
	res, err := send.Submit(t.Context(), Submission{User: alice, ViewID: v.ID, Typed: map[string]map[string]string{"query": {"words": "budget"}}})
	require.NoError(t, err)
	assert.Equal(t, "view_submission", got.Type)
	assert.Equal(t, "U1", got.User.ID)
	assert.Equal(t, "T0TEST", got.Team.ID)
	assert.NotEmpty(t, got.TriggerID)
	assert.Equal(t, v.ID, got.View.ID)
	assert.Equal(t, v.Hash, got.View.Hash)
	assert.Equal(t, "search", got.View.CallbackID)
	assert.Equal(t, "budget", got.View.State.Values["query"]["words"].Value)
	assert.Equal(t, "plain_text_input", got.View.State.Values["query"]["words"].Type)
	assert.Equal(t, "errors", res.Answer.ResponseAction)
	assert.Equal(t, map[string]string{"query": "Type a word."}, res.Modal.Errors)

	// A fresh trigger comes with the submission: it opens a modal.
	_, err = api.OpenViewContext(t.Context(), got.TriggerID, testModal("Another"))
	require.NoError(t, err)

	answer = `{"response_action":"update","view":` + mustJSON(t, testModal("Results")) + `}`
	res, err = send.Submit(t.Context(), Submission{User: alice, ViewID: v.ID})
	require.NoError(t, err)
	assert.Empty(t, res.Answer.Refused)
	assert.Contains(t, string(res.Modal.View), "Results")
	assert.Contains(t, string(res.Modal.Served), `"value":"budget"`, "the input kept what was typed")
	assert.Nil(t, res.Modal.Errors)

	answer = `{"response_action":"errors","errors":{"not-an-input":"x"}}`
	res, err = send.Submit(t.Context(), Submission{User: alice, ViewID: v.ID})
	require.NoError(t, err)
	assert.Equal(t, "errors_not_inputs", res.Answer.Refused)

	answer = `{"response_action":"update","view":` + mustJSON(t, testModal(strings.Repeat("x", 25))) + `}`
	res, err = send.Submit(t.Context(), Submission{User: alice, ViewID: v.ID})
	require.NoError(t, err)
	assert.Equal(t, "invalid_arguments", res.Answer.Refused)

	_, err = send.Submit(t.Context(), Submission{User: bob, ViewID: v.ID})
	assert.Error(t, err, "bob has no such modal")

	answer = ``
	res, err = send.Submit(t.Context(), Submission{User: alice, ViewID: v.ID})
	require.NoError(t, err)
	assert.False(t, res.Modal.Open, "an empty 200 closes the modal")
}
