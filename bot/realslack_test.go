package bot_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// These tests hold the bot to what real Slack does where it differs from
// what an app might expect; each rule is encoded in internal/slackapi/slacktest, with its
// source cited there.

// withAuditAndRisk adds a committee whose name holds '&', which Slack sends
// escaped.
func withAuditAndRisk() harnessOption {
	return withDataset(func(d *recordstest.Dataset) {
		date := time.Now().Add(-72 * time.Hour).UTC().Truncate(time.Hour)
		d.Meetings = append(d.Meetings, recordstest.Meeting{
			ID: "mtg_ar_1", Reference: "AR-2026-11", Title: "Audit & Risk Committee: Internal audit plan",
			Committee: "Audit & Risk", Date: date,
		})
		d.Minutes = append(d.Minutes, recordstest.Minutes{
			MeetingID: "mtg_ar_1", Status: "approved", Body: "# Audit & Risk\n\nThe plan <2027> was approved.",
		})
	})
}

func TestCommandTextArrivesEscaped(t *testing.T) {
	t.Parallel()
	// Alice may list Bob's actions (organisation) to see his name back.
	h := newHarness(t, withAuditAndRisk(), withVisibility(actions.VisibleOrganisation))
	alice := h.person("alice")

	t.Run("ampersand in a committee name", func(t *testing.T) {
		m, r := h.slash(alice, "/minutes", "Audit & Risk")
		form, _ := url.ParseQuery(string(h.lastCommandForm(r)))
		require.Equal(t, "Audit &amp; Risk", form.Get("text"), "precondition: Slack sends it escaped")
		assert.Contains(t, m.all(), "Internal audit plan", "found the Audit & Risk Committee")
		assert.Contains(t, m.all(), "Audit &amp; Risk", "and shows its name escaped once")
		assert.NotContains(t, m.all(), "&amp;amp;")
	})
	t.Run("a committee prefix with an ampersand, any case", func(t *testing.T) {
		m, _ := h.slash(alice, "/meetings", "audit & r")
		assert.Contains(t, m.all(), "Internal audit plan")
	})
	t.Run("a minutes link Slack wrapped", func(t *testing.T) {
		m, r := h.slash(alice, "/minutes", "https://records-bot.example.org/minutes/mtg_ar_1")
		form, _ := url.ParseQuery(string(h.lastCommandForm(r)))
		require.Equal(t, "<https://records-bot.example.org/minutes/mtg_ar_1>", form.Get("text"))
		assert.Contains(t, m.all(), "Internal audit plan")
	})
	t.Run("a reference Slack auto-linked", func(t *testing.T) {
		m, _ := h.slashRaw(alice, "/minutes", "<http://AR-2026-11|AR-2026-11>")
		assert.Contains(t, m.all(), "Internal audit plan")
	})
	t.Run("an unknown name echoed escaped once", func(t *testing.T) {
		m, _ := h.slash(alice, "/minutes", "R&D <board>")
		assert.Contains(t, m.Text, "R&amp;D &lt;board&gt;")
		assert.NotContains(t, m.all(), "&amp;amp;")
	})
	t.Run("an entity typed as it is", func(t *testing.T) {
		for _, typed := range []string{"&gt;", "R&amp;D", "&lt;board&gt;"} {
			m, r := h.slash(alice, "/minutes", typed)
			form, _ := url.ParseQuery(string(h.lastCommandForm(r)))
			require.Equal(t, strings.ReplaceAll(typed, "&", "&amp;"), form.Get("text"), "precondition: Slack escapes the ampersand")
			assert.Contains(t, m.Text, "`"+strings.ReplaceAll(typed, "&", "＆")+"`", "quoted back looking as typed")
			require.NoError(t, blocks.CheckMessage(blocks.Message{Text: m.Text, Blocks: blocks.RawBlocks(m.Blocks)}),
				"no text in the answer reads as escaped twice")
		}
	})
	t.Run("a mention typed as @bob", func(t *testing.T) {
		bob := h.person("bob")
		m, r := h.slash(alice, "/actions", "@bob overdue")
		form, _ := url.ParseQuery(string(h.lastCommandForm(r)))
		require.Equal(t, "<@"+bob.ID+"|bob> overdue", form.Get("text"))
		assert.Contains(t, m.Text, "Bob Brown")
	})
}

// lastCommandForm is the form the Sender posted for the command that
// returned r: the body Slack sent.
func (h *harness) lastCommandForm(r *slacktest.Response) []byte {
	h.t.Helper()
	require.NotNil(h.t, r.Request, "the Sender keeps what it sent")
	return r.Request
}

func TestSSLCheckIsAnsweredWithoutASignatureAndDoesNothingElse(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	before := len(h.records.Requests())

	r, err := slacktest.SSLCheck(t.Context(), h.send, nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.Empty(t, r.Body)

	// An unsigned body that also carries a command or a payload is still
	// only an ssl_check (slackapi/bolt-js#2898).
	form := h.send.CommandForm(slacktest.Command{User: alice, Command: "/actions", Text: "complete " + h.openActionsOf(alice.Email)[0].ID}, h.slack.ResponseURL("smuggled"))
	r, err = slacktest.SSLCheck(t.Context(), h.send, form)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.Empty(t, r.Body, "no reply to the smuggled command")
	r, err = slacktest.SSLCheck(t.Context(), h.send, url.Values{"payload": {`{"type":"block_actions"}`}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.Empty(t, r.Body)
	h.settle(t)
	assert.Len(t, h.records.Requests(), before, "no records call")
	assert.Empty(t, h.slack.ResponsePosts("smuggled"), "no message")

	// Anything but exactly ssl_check=1 must be signed (slackapi/bolt-js#2899).
	for _, v := range []string{"true", "0", "11"} {
		r, err = slacktest.SSLCheck(t.Context(), h.send, url.Values{"ssl_check": {v}})
		require.NoError(t, err)
		assert.Equal(t, http.StatusUnauthorized, r.Status, "ssl_check=%s", v)
	}
}

// A row's block IDs are new in each version of a message or view (Slack:
// "If a message is updated, use a new block_id"); the fake reports any
// that an update sends again, and every harness fails on such a report.
func TestRowBlockIDsAreNewInEachVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	target := h.openActionsOf(alice.Email)[0]
	list, _ := h.slash(alice, "/actions", "")
	before := blockIDsOf(list)

	posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+target.ID+"|")
	require.Len(t, posts, 1)
	after := blockIDsOf(posts[0])
	require.NotEmpty(t, after)
	for _, id := range after {
		assert.NotContains(t, before, id, "block_id reused in the redrawn list")
	}
	seen := h.screen(alice, 1)
	require.Len(t, seen, 1, "the list was replaced, not added to")
	assert.Equal(t, 1, seen[0].Replaced)
	assert.Empty(t, h.slack.BlockIDReuse())

	// The fake does report reuse: send the same blocks again.
	h.slack.PutMessage(slacktest.Message{Channel: "D0ALICE", TS: "1.000001", Text: "x", Blocks: json.RawMessage(`[{"type":"divider","block_id":"same"}]`)})
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()))
	_, _, _, err := api.UpdateMessageContext(t.Context(), "D0ALICE", "1.000001",
		slack.MsgOptionText("x", false), slack.MsgOptionBlocks(blocks.RawBlock(`{"type":"divider","block_id":"same"}`)))
	require.NoError(t, err)
	assert.Equal(t, []string{"chat.update of 1.000001: block_id same"}, h.slack.BlockIDReuse())
	h.slack.ClearBlockIDReuse() // so the harness' own check passes
}

func blockIDsOf(m msg) []string {
	var out []string
	for _, b := range m.Blocks {
		var blk struct {
			BlockID string `json:"block_id"`
		}
		if json.Unmarshal(b, &blk) == nil && blk.BlockID != "" {
			out = append(out, blk.BlockID)
		}
	}
	return out
}

// The Home tab shows record text escaped once, and a note once.
func TestHomeShowsTextEscapedOnce(t *testing.T) {
	t.Parallel()
	const title = "Brief R&D on the <new> policy"
	var id string
	h := newHarness(t, withActions(func(c *actions.Config) { c.CacheTTL = -1 }), withDataset(func(d *recordstest.Dataset) {
		for i := range d.Actions {
			if strings.EqualFold(d.Actions[i].AssigneeEmail, d.People[0].Email) && d.Actions[i].Status == "open" {
				d.Actions[i].Title, id = title, d.Actions[i].ID
				return
			}
		}
	}))
	alice := h.person("alice")
	require.NotEmpty(t, id)
	view := h.openHome(t, "Ev1", alice)
	assert.Contains(t, view.all(), "Brief R&amp;D on the &lt;new&gt; policy")

	// Someone cancels it elsewhere; alice, on a stale view, cancels it
	// too. The answer is a note at the top of Home that quotes the title.
	actions := h.records.Actions()
	for i := range actions {
		if actions[i].ID == id {
			actions[i].Status = "cancelled"
		}
	}
	h.records.SetActions(actions)
	h.clickHome(t, alice, view, "status:", "cancelled|"+id+"|")
	view = h.homeView(t, alice)
	s := view.all()
	assert.Contains(t, s, ":information_source: *Brief R&amp;D on the &lt;new&gt; policy* is already cancelled.")
	assert.NotContains(t, s, "&amp;amp;", "escaped once")
	assert.NotContains(t, s, ":warning: :information_source:", "one emoji, not two")
}

// "Share in channel" where the bot cannot post: each place gets an answer
// that says what will work there, and nothing is posted.
func TestShareWhereTheBotCannotPost(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	h.slack.AddChannel(slacktest.Channel{ID: "D0ALICEBOB", Name: "directmessage", Kind: slacktest.ChannelIM})
	h.slack.AddChannel(slacktest.Channel{ID: "C0MPDM", Name: "mpdm-alice--bob--carol-1", Kind: slacktest.ChannelMPIM})
	h.slack.AddChannel(slacktest.Channel{ID: "C0SECRET", Name: "board-private", Kind: slacktest.ChannelPrivate})
	h.slack.AddChannel(slacktest.Channel{ID: "C0OPEN", Name: "random", Kind: slacktest.ChannelPublic})
	tests := []struct {
		channel, name, want, notWant string
	}{
		{"D0ALICEBOB", "directmessage", "direct message between people", "/invite @recordsbot"},
		{"C0MPDM", "mpdm-alice--bob--carol-1", "group DM", "/invite @recordsbot"},
		{"C0SECRET", "board-private", "private channel", ""},
		{"C0OPEN", "random", "/invite @recordsbot", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := h.send.SlashCommand(t.Context(), slacktest.Command{User: alice, Command: "/minutes", ChannelID: tt.channel, ChannelName: tt.name})
			require.NoError(t, err)
			m := parseMsg(t, r.Body)
			blockID, el, _ := m.element(t, "minutes:share", "")
			c, err := h.send.Click(t.Context(), slacktest.Click{User: alice, Ephemeral: true, ChannelID: tt.channel, ChannelName: tt.name, BlockID: blockID, Element: el})
			require.NoError(t, err)
			posts := h.responses(c.ResponseURLID, 1)
			assert.Contains(t, posts[0].Text, tt.want)
			if tt.notWant != "" {
				assert.NotContains(t, posts[0].Text, tt.notWant, "an invitation cannot help there")
			}
			if strings.Contains(tt.want, "between people") || strings.Contains(tt.want, "group DM") {
				assert.Contains(t, posts[0].Text, "records-bot.example.org/minutes/", "the link works anywhere")
			}
			assert.Empty(t, h.slack.Messages(tt.channel), "nothing posted")
			calls := h.slack.Calls("chat.postMessage")
			require.NotEmpty(t, calls)
			last := calls[len(calls)-1]
			assert.Equal(t, tt.channel, last.Params.Get("channel"))
			assert.Equal(t, map[bool]string{true: "not_in_channel", false: "channel_not_found"}[tt.channel == "C0OPEN"], last.Error)
		})
	}
}

// The set-up path as a new admin walks it: Slack verifies the Events
// request URL the moment a manifest with one is saved, but the signing
// secret only exists once the app has been created, so that first
// verification fails whatever the admin does. Once the bot runs with the
// secret, "Retry" under Event Subscriptions verifies it.
func TestSetUpPathAsAnAdminWalksIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()

	// 1. Create the app from the manifest: the bot is not running yet.
	down := &slacktest.Sender{URL: "http://127.0.0.1:1/slack/events", Secret: "not-yet-known"}
	err := slacktest.VerifyRequestURL(ctx, down)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "didn't respond with the value of the challenge parameter")

	// Had the admin started it without the secret (or with another app's),
	// it would refuse the unsigned-by-it request, and Slack would say the
	// same.
	wrong := &slacktest.Sender{URL: h.send.URL, Secret: "another-apps-secret"}
	require.Error(t, slacktest.VerifyRequestURL(ctx, wrong))

	// 2-3. Copy the signing secret and the bot token, start the bot.
	// 4. Event Subscriptions → Retry: verified.
	require.NoError(t, slacktest.VerifyRequestURL(ctx, h.send))

	// Slash commands and interactivity need no verification step: they
	// work as soon as the bot runs.
	m, _ := h.slash(h.person("alice"), "/actions", "help")
	assert.Contains(t, m.Text, "/actions")
}

// A records service that says it has more than the client reads: the user
// is told "N of M" rather than shown a quietly short list.
func TestActionsSayWhenTheListIsIncomplete(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	jsonapi := recordstest.NewServer(recordstest.WithDataset(h.data), recordstest.WithDialect(recordstest.JSONAPI), recordstest.WithPageSize(5))
	t.Cleanup(jsonapi.Close)
	h.rebuild(bot.Deps{}, withRecords(jsonapi.URL, apiclient.WithListLimits(1, 100)))
	m, _ := h.slash(h.person("alice"), "/actions", "all")
	assert.Regexp(t, `Showing what recordsbot could read: \d+ of the \d+ actions the records service has`, m.all())
}

// The Actions button of a minutes announcement shows the clicker the
// meeting's actions, as /actions meeting <id> does, and leaves the
// announcement alone.
func TestAnnouncementActionsButton(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	var meetingID string
	for _, a := range h.records.Actions() {
		if a.MeetingID != "" && (a.Status == "open" || a.Status == "in_progress") {
			meetingID = a.MeetingID
			break
		}
	}
	require.NotEmpty(t, meetingID)
	el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionMeetingActions + `","text":{"type":"plain_text","text":"Actions"},"value":"` + meetingID + `"}`)
	ts := h.slack.PutMessage(slacktest.Message{Channel: "C0GENERAL", Text: "New minutes", Blocks: json.RawMessage(`[{"type":"actions","block_id":"ann","elements":[` + string(el) + `]}]`)})
	r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "C0GENERAL", MessageTS: ts, BlockID: "ann", Element: el,
		MessageBlocks: json.RawMessage(`[{"type":"actions","block_id":"ann","elements":[` + string(el) + `]}]`)})
	require.NoError(t, err)
	posts := h.responses(r.ResponseURLID, 1)
	assert.Contains(t, posts[0].Text, "Your actions from", "alice sees her own actions from the meeting (ACTIONS_VISIBILITY=own)")
	assert.Equal(t, "ephemeral", posts[0].ResponseType)
	assert.False(t, posts[0].ReplaceOriginal, "the announcement stays")
	assert.Len(t, h.slack.Messages("C0GENERAL"), 1)
}
