package bot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/store"
)

// viewer is one of the roles of TestWhoSeesWhat.
type viewer struct {
	role string
	user slacktest.User
	// meeting has open actions of this viewer and of someone else.
	meeting recordstest.Meeting
}

// seesOthers is what ACTIONS_VISIBILITY and the role say: admins always,
// members under organisation, guests never.
func (v viewer) seesOthers(vis actions.Visibility) bool {
	return v.role == "admin" || (v.role == "member" && vis == actions.VisibleOrganisation)
}

// TestWhoSeesWhat is the visibility rule (actions.Service.CanSee) on every
// surface that shows actions, for each role (a member, an admin, a Slack
// guest) under both settings of ACTIONS_VISIBILITY, through the real
// handler with requests signed as Slack signs them, asserting what the
// person sees.
func TestWhoSeesWhat(t *testing.T) {
	t.Parallel()
	for _, vis := range []actions.Visibility{actions.VisibleOwn, actions.VisibleOrganisation} {
		t.Run(string(vis), func(t *testing.T) {
			t.Parallel()
			// Follows need the store: on each engine.
			onEachStore(t, func(t *testing.T, st *store.Store) {
				h := newHarness(t)
				h.rebuild(bot.Deps{Store: st}, withAdmins("U0ALICE"), withVisibility(vis))
				bob := h.person("bob")
				viewers := []viewer{
					{role: "member", user: h.person("carol")},
					{role: "admin", user: h.person("alice")},
					{role: "guest", user: h.users[testworld.GuestID]},
				}
				require.Equal(t, slacktest.MultiChannelGuest, viewers[2].user.Guest, "the test world's guest")
				for i := range viewers {
					viewers[i].meeting = h.sharedMeeting(viewers[i].user)
				}
				for _, v := range viewers {
					t.Run(v.role, func(t *testing.T) { h.checkSurfaces(t, vis, v, bob) })
				}
			})
		})
	}
}

// checkSurfaces runs every surface for one viewer. The subtests share the
// harness and run in order: the status click, last, changes the records.
func (h *harness) checkSurfaces(t *testing.T, vis actions.Visibility, v viewer, bob slacktest.User) {
	sees := v.seesOthers(vis)
	own := ids(h.openActionsOf(v.user.Email))
	require.NotEmpty(t, own, "%s has open actions", v.user.Name)
	bobs := ids(h.openActionsOf(bob.Email))
	mine, others := h.meetingActions(v.meeting, v.user)
	require.NotEmpty(t, mine)
	require.NotEmpty(t, others)

	t.Run("/actions", func(t *testing.T) {
		m, _ := h.slash(v.user, "/actions", "")
		assert.Contains(t, m.Text, "Your open actions")
		assertRows(t, m, own, true, "their own")
		assertRows(t, m, bobs, false, "nobody else's")
	})

	t.Run("/actions @user", func(t *testing.T) {
		m, _ := h.slash(v.user, "/actions", "@bob")
		if sees {
			assert.Contains(t, m.Text, "Bob Brown's open actions")
			assertRows(t, m, bobs, true, "Bob's list")
			return
		}
		want := "In this workspace each person sees only their own actions, so I can't show <@U0BOB>'s."
		if v.role == "guest" {
			want = "Guests see only their own actions, so I can't show <@U0BOB>'s."
		}
		assert.Contains(t, m.Text, want, "politely refused")
		assert.NotContains(t, m.all(), `"action:`, "no rows at all")
	})

	t.Run("/actions meeting", func(t *testing.T) {
		m, _ := h.slash(v.user, "/actions", "meeting "+v.meeting.ID)
		h.assertMeetingList(t, m, v, sees, mine, others)
	})

	t.Run("meeting Actions button", func(t *testing.T) {
		// A minutes announcement's Actions button, in a channel.
		el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionMeetingActions + `","text":{"type":"plain_text","text":"Actions"},"value":"` + v.meeting.ID + `"}`)
		bl := json.RawMessage(`[{"type":"actions","block_id":"ann","elements":[` + string(el) + `]}]`)
		ts := h.slack.PutMessage(slacktest.Message{Channel: "C0GENERAL", Text: "New minutes", Blocks: bl})
		r, err := h.send.Click(t.Context(), slacktest.Click{User: v.user, MessageTS: ts, BlockID: "ann", Element: el, MessageBlocks: bl})
		require.NoError(t, err)
		h.assertMeetingList(t, h.responses(r.ResponseURLID, 1)[0], v, sees, mine, others)
	})

	t.Run("Show more for someone else", func(t *testing.T) {
		// A button's value is never trusted to widen what was shown: a
		// Show more naming Bob, as a tampered client would send it.
		el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionActionsMore + `","text":{"type":"plain_text","text":"Show more"},"value":"{\"w\":\"U0BOB\"}"}`)
		r, err := h.send.Click(t.Context(), slacktest.Click{User: v.user, Ephemeral: true, BlockID: "more", Element: el})
		require.NoError(t, err)
		got := h.responses(r.ResponseURLID, 1)[0]
		assertRows(t, got, bobs, sees, "Bob's actions")
	})

	t.Run("Home tab", func(t *testing.T) {
		view := h.openHome(t, "Ev_home_"+string(vis)+"_"+v.role, v.user)
		assertRows(t, view, own, true, "their own")
		assertRows(t, view, bobs, false, "nobody else's, whatever the setting")
	})

	t.Run("share", func(t *testing.T) {
		// Share in channel posts minutes, never anyone's actions.
		m, _ := h.slash(v.user, "/minutes", "")
		posts := h.clickEphemeral(v.user, m, "minutes:share", "")
		assert.Contains(t, posts[0].Text, "Shared")
		msgs := h.slack.Messages("C0GENERAL")
		require.NotEmpty(t, msgs)
		post := jsonText(msgs[len(msgs)-1].Blocks)
		assert.Contains(t, post, "Shared by <@"+v.user.ID+">")
		assert.NotContains(t, post, `"action:`, "no action rows in a channel")
	})

	t.Run("unfurl", func(t *testing.T) {
		// Unfurls of the bot's links are of minutes only: the same for
		// whoever posts them, and without actions.
		before := len(h.slack.Unfurls())
		ev := linkShared(h.minutesLink(v.meeting.ID))
		ev["user"] = v.user.ID
		h.sendEvent(t, "Ev_unfurl_"+string(vis)+"_"+v.role, ev, 0)
		for _, u := range h.slack.Unfurls()[before:] {
			for _, text := range unfurlsOf(t, u.Unfurls) {
				for _, a := range append(mine, others...) {
					assert.NotContains(t, text, a.Title, "an unfurl shows no actions")
				}
			}
		}
	})

	t.Run("/minutes follow", func(t *testing.T) {
		channel := "C0FOLLOW" + strings.ToUpper(v.role)
		got := h.minutesIn(v.user, channel, "follow-"+v.role, "follow FIN")
		if v.role == "guest" {
			assert.Contains(t, got.Text, "Guests can't change which committees a channel follows")
			assert.Equal(t, "ephemeral", got.ResponseType, "only the guest sees it")
			got = h.minutesIn(v.user, channel, "follow-"+v.role, "following")
			assert.Contains(t, got.all(), "doesn't follow any committee yet", "a guest may still ask what a channel follows")
			return
		}
		assert.Contains(t, got.Text, "made this channel follow *Finance*")
	})

	t.Run("status click redraws the list", func(t *testing.T) {
		m, _ := h.slash(v.user, "/actions", "meeting "+v.meeting.ID)
		target := mine[0]
		posts := h.clickEphemeral(v.user, m, "status:deferred", "deferred|"+target.ID+"|")
		require.Len(t, posts, 1)
		redrawn := posts[0]
		assert.True(t, redrawn.ReplaceOriginal, "the list is redrawn in place")
		assert.Contains(t, redrawn.all(), "Deferred by <@"+v.user.ID+">")
		assertRows(t, redrawn, ids(others), sees, "others' rows")
	})
}

// assertMeetingList checks a meeting's list as v sees it.
func (h *harness) assertMeetingList(t *testing.T, m msg, v viewer, sees bool, mine, others []recordstest.Action) {
	t.Helper()
	assertRows(t, m, ids(mine), true, "their own rows")
	assertRows(t, m, ids(others), sees, "others' rows")
	if sees {
		assert.Contains(t, m.Text, "Actions from ")
		assert.NotContains(t, m.Text, "Your actions from")
		assert.Contains(t, m.all(), "Assigned to "+others[0].AssigneeName, "whose each row is")
		return
	}
	assert.Contains(t, m.Text, "Your actions from ", "the list says it is only theirs")
}

// assertRows checks that msg lists (want) or does not list each action.
func assertRows(t *testing.T, m msg, ids []string, want bool, what string) {
	t.Helper()
	s := m.all()
	for _, id := range ids {
		if want {
			assert.Contains(t, s, `"action:`+id+`"`, "%s: %s shown", what, id)
		} else {
			assert.NotContains(t, s, `"action:`+id+`"`, "%s: %s not shown", what, id)
		}
	}
}

func ids(as []recordstest.Action) []string {
	out := make([]string, 0, len(as))
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

// sharedMeeting returns a meeting with open actions of user and of someone
// else.
func (h *harness) sharedMeeting(user slacktest.User) recordstest.Meeting {
	h.t.Helper()
	for _, m := range h.records.Meetings() {
		if mine, others := h.meetingActions(m, user); len(mine) > 0 && len(others) > 0 {
			return m
		}
	}
	h.t.Fatalf("no meeting has open actions of %s and of someone else", user.Name)
	return recordstest.Meeting{}
}

// meetingActions splits the open actions of meeting m into user's and
// everyone else's.
func (h *harness) meetingActions(m recordstest.Meeting, user slacktest.User) (mine, others []recordstest.Action) {
	for _, a := range h.records.Actions() {
		if a.MeetingID != m.ID || (a.Status != "open" && a.Status != "in_progress") {
			continue
		}
		if strings.EqualFold(a.AssigneeEmail, user.Email) {
			mine = append(mine, a)
		} else {
			others = append(others, a)
		}
	}
	return mine, others
}

// TestProfileUnknownUnderOrganisation: when Slack cannot say who the
// caller is, they might be a guest, so someone else's list waits until it
// can; their own is shown as before.
func TestProfileUnknownUnderOrganisation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withVisibility(actions.VisibleOrganisation), withActions(func(c *actions.Config) {
		c.UserMap = actions.NewUserMap(map[string]string{"carol@example.org": "U0CAROL"})
	}))
	carol := h.person("carol")
	h.slack.InjectFault(slacktest.Fault{Method: "users.info", HTTPStatus: http.StatusInternalServerError})
	m, _ := h.slash(carol, "/actions", "@bob")
	assert.Contains(t, m.Text, "couldn't check your Slack profile")
	assert.NotContains(t, m.all(), `"action:`)
	m, _ = h.slash(carol, "/actions", "")
	assertRows(t, m, ids(h.openActionsOf(carol.Email)), true, fmt.Sprintf("%s's own, through USER_MAP", carol.Name))
}

// TestUnmatchedMemberAsksForAMeeting: someone the records cannot match
// (Slack shares no email, USER_MAP has no entry) who sees only their own
// actions is told why a meeting's list is empty for them, as their own
// list tells them.
func TestUnmatchedMemberAsksForAMeeting(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var meetingID string
	for _, a := range h.records.Actions() {
		if a.MeetingID != "" && a.Status == "open" {
			meetingID = a.MeetingID
			break
		}
	}
	require.NotEmpty(t, meetingID)
	m, _ := h.slash(h.users["U0NOEMAIL"], "/actions", "meeting "+meetingID)
	assert.Contains(t, m.Text, "I can't match you to the records yet")
	assert.NotContains(t, m.all(), `"action:`)
}

// TestVisibilityCostsNoCall: the rule reads only the caller's profile,
// which every list reads anyway (cached), so a refusal asks neither the
// records service nor Slack about the other person, and a meeting's list
// for someone who sees only their own costs what it costs everyone.
func TestVisibilityCostsNoCall(t *testing.T) {
	t.Parallel()
	meetingCost := func(vis actions.Visibility) (records, usersInfo int) {
		h := newHarness(t, withVisibility(vis))
		carol := h.person("carol")
		meeting := h.sharedMeeting(carol)
		h.slash(carol, "/actions", "") // warms the list and carol's profile
		h.records.ResetRequests()
		before := len(h.slack.Calls("users.info"))
		h.slash(carol, "/actions", "meeting "+meeting.ID)
		return h.records.Count("", "/"), len(h.slack.Calls("users.info")) - before
	}
	ownRecords, ownSlack := meetingCost(actions.VisibleOwn)
	orgRecords, orgSlack := meetingCost(actions.VisibleOrganisation)
	t.Logf("a meeting's list: %d records call(s) under own, %d under organisation; %d users.info", ownRecords, orgRecords, ownSlack+orgSlack)
	assert.Equal(t, orgRecords, ownRecords, "records calls for a meeting's list: own %d, organisation %d", ownRecords, orgRecords)
	assert.Zero(t, ownSlack+orgSlack, "no users.info beyond the cached profile")

	h := newHarness(t)
	carol := h.person("carol")
	h.slash(carol, "/actions", "")
	h.records.ResetRequests()
	before := len(h.slack.Calls("users.info"))
	m, _ := h.slash(carol, "/actions", "@bob")
	require.Contains(t, m.Text, "I can't show <@U0BOB>'s")
	assert.Zero(t, h.records.Count("", "/"), "a refusal reads no records")
	assert.Equal(t, before, len(h.slack.Calls("users.info")), "nor asks Slack who Bob is")
}

// TestAdminPowersFailClosed: an admin (ADMIN_USER_IDS) whom Slack cannot
// describe, because users.info answers an error or does not answer in
// time, might be a guest, so until it answers they have member powers at
// most (actions.Service.Admin): they cannot change someone else's action
// (no PUT reaches the records service), by command or by button, nor list
// someone else's actions or a meeting's other assignees. Once users.info
// answers again the full member's powers come back at once (the failure
// was not cached as "not a guest"), while the guest admin stays a guest.
func TestAdminPowersFailClosed(t *testing.T) {
	t.Parallel()
	faults := map[string]slacktest.Fault{
		// Slack's transient failure, answered
		"internal_error": {Method: "users.info", Error: "internal_error"},
		// Slack not answering within the client's timeout (serve's is
		// 15 s; here half a second)
		"timeout": {Method: "users.info", Hang: true},
	}
	for name, fault := range faults {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.rebuild(bot.Deps{}, withSlackHTTPClient(&http.Client{Timeout: 500 * time.Millisecond}),
				withAdmins("U0ALICE", testworld.GuestID))
			alice, erin, bob := h.person("alice"), h.users[testworld.GuestID], h.person("bob")
			bobs := h.openActionsOf(bob.Email)
			require.NotEmpty(t, bobs)
			target := bobs[0]
			meeting := h.sharedMeeting(bob)
			_, others := h.meetingActions(meeting, bob)
			others = append(others, bobs...)

			h.slack.InjectFault(fault)
			for _, admin := range []slacktest.User{alice, erin} {
				m, _ := h.slash(admin, "/actions", "complete "+target.ID)
				assert.Contains(t, m.Text, "couldn't check your Slack profile", "%s: /actions complete", admin.Name)

				m, _ = h.slash(admin, "/actions", "@bob")
				assert.Contains(t, m.Text, "couldn't check your Slack profile", "%s: /actions @bob", admin.Name)
				assert.NotContains(t, m.all(), `"action:`, "%s: no rows", admin.Name)

				m, _ = h.slash(admin, "/actions", "meeting "+meeting.ID)
				assertRows(t, m, ids(others), false, admin.Name+": a meeting's other assignees")
				assert.NotContains(t, m.all(), "Assigned to", "%s: no assignee named", admin.Name)

				el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionStatusPrefix + `complete","text":{"type":"plain_text","text":"Complete"},"value":"complete|` + target.ID + `|"}`)
				r, err := h.send.Click(t.Context(), slacktest.Click{User: admin, Ephemeral: true, BlockID: "action:" + target.ID, Element: el})
				require.NoError(t, err)
				got := h.responses(r.ResponseURLID, 1)[0]
				assert.Contains(t, got.all(), "couldn't check your Slack profile", "%s: a status button", admin.Name)
			}
			assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "no status change reached the records service")

			h.slack.ClearFaults()
			m, _ := h.slash(alice, "/actions", "@bob")
			assertRows(t, m, ids(bobs), true, "Alice, an admin again, sees Bob's")
			m, _ = h.slash(erin, "/actions", "@bob")
			assert.Contains(t, m.Text, "Guests see only their own actions", "the guest admin is a guest")
			m, _ = h.slash(erin, "/actions", "complete "+target.ID)
			assert.Contains(t, m.Text, "Only the action's assignee or an admin")
			assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "the guest admin changed nothing")
			m, _ = h.slash(alice, "/actions", "complete "+target.ID)
			assert.Contains(t, m.Text, "marked complete")
			assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"), "the admin's change was made")
		})
	}
}
