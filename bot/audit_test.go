package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

// newAuditHarness is the bot on st with the action domain writing its
// audit trail there, as cmd wires it.
func newAuditHarness(t *testing.T, st *store.Store, opts ...harnessOption) *harness {
	t.Helper()
	return newStoreHarness(t, st, append(opts, withActions(func(c *actions.Config) { c.Trail = st }))...)
}

// trailOf is what the trail says of target: "actor surface kind from→to
// outcome" per entry, oldest first.
func trailOf(t *testing.T, st *store.Store, target string) []string {
	t.Helper()
	es, err := st.AuditOf(t.Context(), target, 50)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Actor+" "+string(e.Surface)+" "+string(e.Kind)+" "+e.From+"→"+e.To+" "+string(e.Outcome))
	}
	return out
}

func TestAuditRecordsStatusChangesOnEverySurface(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice, bob := h.person("alice"), h.person("bob")
		open := byDeadline(h.openActionsOf(alice.Email))
		require.GreaterOrEqual(t, len(open), 3)
		byCommand, byReply, byHome := open[0], open[1], open[2]

		// Refused: not bob's.
		m, _ := h.slash(bob, "/actions", "complete "+byCommand.ID)
		assert.Contains(t, m.Text, "Only the action's assignee")
		// A command.
		h.slash(alice, "/actions", "done "+byCommand.ID)
		assert.Equal(t, []string{
			bob.ID + " command action.status " + byCommand.Status + "→complete refused: not yours",
			alice.ID + " command action.status " + byCommand.Status + "→complete requested",
			alice.ID + " command action.status " + byCommand.Status + "→complete done",
		}, trailOf(t, st, byCommand.ID))

		// A button on a reply.
		list, _ := h.slash(alice, "/actions", "")
		h.clickEphemeral(alice, list, "status:complete", "complete|"+byReply.ID+"|")
		assert.Equal(t, []string{
			alice.ID + " reply action.status " + byReply.Status + "→complete requested",
			alice.ID + " reply action.status " + byReply.Status + "→complete done",
		}, trailOf(t, st, byReply.ID))

		// The Home tab.
		view := h.openHome(t, "Ev_audit_home", alice)
		h.clickHome(t, alice, view, "status:complete", "complete|"+byHome.ID+"|")
		assert.Equal(t, []string{
			alice.ID + " home action.status " + byHome.Status + "→complete requested",
			alice.ID + " home action.status " + byHome.Status + "→complete done",
		}, trailOf(t, st, byHome.ID))

		es, err := st.AuditOf(t.Context(), byHome.ID, 1)
		require.NoError(t, err)
		assert.Equal(t, alice.Email, es[0].ActorRecords, "the records identity the actor resolved to")
		assert.NotEmpty(t, es[0].RequestID, "the request id that ties the entry to the logs")
		_, err = st.VerifyAudit(t.Context(), nil)
		require.NoError(t, err)
	})
}

func TestAuditStoreDownRefusesTheChange(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		a := h.openActionsOf(alice.Email)[0]
		require.NoError(t, st.Close())

		m, _ := h.slash(alice, "/actions", "complete "+a.ID)
		assert.Equal(t, blocks.MsgNotRecorded(lang.English), m.Text, "the person is told the change could not be recorded")
		assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "nothing is sent to the records service")
		got, _ := h.records.Action(a.ID)
		assert.Equal(t, a.Status, got.Status)
	})
}

func TestAuditRecordsRefusedAnswers(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		m, _ := h.slash(alice, "/actions", "complete A-NOPE")
		assert.Contains(t, m.Text, "doesn't exist")
		assert.Equal(t, []string{alice.ID + " command action.status →complete " + string(audit.Refused(audit.ReasonGone))}, trailOf(t, st, "A-NOPE"))

		// The records service refuses the PUT.
		a := h.openActionsOf(alice.Email)[0]
		h.records.InjectFault(recordstest.Fault{Method: http.MethodPut, PathPrefix: "/actions/", Status: http.StatusUnprocessableEntity})
		h.slash(alice, "/actions", "complete "+a.ID)
		assert.Equal(t, []string{
			alice.ID + " command action.status " + a.Status + "→complete requested",
			alice.ID + " command action.status " + a.Status + "→complete refused: records service refused (HTTP 422)",
		}, trailOf(t, st, a.ID))
	})
}

func TestAuditRecordsEveryKindOfChangeOnce(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		const general = "C0GENERAL"
		follow := general + "/finance"

		h.minutesIn(alice, general, "general", "follow finance")
		list := h.minutesIn(alice, general, "general", "following")
		h.tick(alice, list, "finance", store.HearDrafts, store.HearApprovals, store.HearBriefs)
		h.minutesIn(alice, general, "general", "follow finance digest tue 10:00 mentions")
		h.minutesIn(alice, general, "general", "follow finance language de")
		h.minutesIn(alice, general, "general", "follow finance language default")
		h.minutesIn(alice, general, "general", "unfollow finance")
		assert.Equal(t, []string{
			alice.ID + " command follow →Finance done",
			alice.ID + " reply follow.choice digest on→digest off done",
			alice.ID + " command digest.schedule →tue 10:00, mentions done",
			alice.ID + " command follow.choice digest off→digest on done",
			alice.ID + " command follow.choice →language de done",
			alice.ID + " command follow.choice →language the organisation's default done",
			alice.ID + " command unfollow → done",
		}, trailOf(t, st, follow))

		view := h.openHome(t, "Ev_audit_settings", alice)
		h.clickHome(t, alice, view, blocks.ActionSettingsRemind, "off")
		assert.Equal(t, []string{alice.ID + " home settings →remind=off done"}, trailOf(t, st, alice.ID))

		m, _ := h.slash(alice, "/minutes", "")
		h.clickEphemeral(alice, m, "minutes:share", "")
		page, _, err := st.AuditPage(t.Context(), 0, 1)
		require.NoError(t, err)
		require.Len(t, page, 1)
		assert.Equal(t, audit.MinutesShare, page[0].Kind)
		assert.Equal(t, alice.ID, page[0].Actor)
		assert.Equal(t, audit.Reply, page[0].Surface)
		assert.Equal(t, general, page[0].To)

		_, err = st.VerifyAudit(t.Context(), nil)
		require.NoError(t, err)
	})
}

func TestAuditHistoryObeysVisibility(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st, withAdmins("U0ADMIN"))
		h.addUser(slacktest.User{ID: "U0ADMIN", Name: "admin", RealName: "Ada Admin", Email: "ada@admin.example"})
		alice, bob, admin := h.person("alice"), h.person("bob"), h.users["U0ADMIN"]
		a := h.openActionsOf(alice.Email)[0]
		h.slash(alice, "/actions", "complete "+a.ID)

		for _, who := range []slacktest.User{alice, admin} {
			m, _ := h.slash(who, "/actions", "history "+a.ID)
			s := m.all()
			assert.Contains(t, s, "History of *", "%s sees the trail", who.Name)
			assert.Contains(t, s, "<@"+alice.ID+"> · `action.status` "+a.ID+": "+a.Status+" → complete · command · _done_")
		}
		m, _ := h.slash(bob, "/actions", "history "+a.ID)
		assert.Contains(t, m.Text, "isn't one of the actions you may see", "bob may not see alice's action (ACTIONS_VISIBILITY own)")
		assert.NotContains(t, m.all(), "action.status")
		m, _ = h.slash(bob, "/actions", "history A-NOPE")
		assert.Contains(t, m.Text, "isn't one of the actions you may see", "an unknown action reads the same")
		m, _ = h.slash(bob, "/actions", "history")
		assert.Contains(t, m.all(), "needs the action's ID")
	})
}

func TestAuditRecentChangesOnTheHomeTabOfAdmins(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st, withAdmins("U0ADMIN"))
		h.addUser(slacktest.User{ID: "U0ADMIN", Name: "admin", RealName: "Ada Admin", Email: "ada@admin.example"})
		alice, admin := h.person("alice"), h.users["U0ADMIN"]
		open := h.openActionsOf(alice.Email)
		require.GreaterOrEqual(t, len(open), 3)
		for _, a := range open[:3] {
			h.slash(alice, "/actions", "complete "+a.ID)
			h.slash(alice, "/actions", "reopen "+a.ID)
		} // 12 entries: a page and a bit

		view := h.openHome(t, "Ev_audit_alice", alice)
		assert.NotContains(t, view.all(), "Recent changes", "not for members")

		view = h.openHome(t, "Ev_audit_admin", admin)
		s := view.all()
		assert.Contains(t, s, "Recent changes")
		assert.Contains(t, s, open[2].ID+": complete → open · command · _done_", "the newest first")
		assert.NotContains(t, s, open[0].ID+": "+open[0].Status+" → complete · command · _requested_", "the oldest is on the next page")
		h.clickHome(t, admin, view, blocks.ActionAuditMore, "")
		s = h.homeView(t, admin).all()
		assert.Contains(t, s, open[0].ID+": "+open[0].Status+" → complete · command · _requested_")
		assert.NotContains(t, s, "Older changes", "the last page")
	})
}

func TestAuditRecordsAReminderDMsButton(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, remindWorld)
		h.rebuild(bot.Deps{Store: st}, withActions(func(c *actions.Config) {
			c.UserMap = actions.NewUserMap(map[string]string{"Dee Mapped": "U0DEE"})
			c.Trail = st
		}))
		require.NoError(t, h.remind(remind.Config{Days: 3}).err)
		stored, dm := h.dm("DU0ALICE")
		blockID, el, _ := dm.element(t, "status:complete", "complete|A-1|")
		r, err := h.send.Click(t.Context(), slacktest.Click{User: h.users["U0ALICE"], ChannelID: "DU0ALICE",
			MessageTS: stored.TS, MessageBlocks: stored.Blocks, BlockID: blockID, Element: el})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		require.NoError(t, h.slack.Wait(ctx, func() bool { return len(h.slack.Calls("chat.update")) > 0 }))
		got := trailOf(t, st, "A-1")
		require.Len(t, got, 2)
		assert.Equal(t, "U0ALICE reminder action.status open→complete done", got[1])
	})
}

func TestAuditRecordsAClickFromADigestsList(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		var a recordstest.Action
		for _, o := range h.openActionsOf(alice.Email) {
			if o.MeetingID != "" {
				a = o
				break
			}
		}
		require.NotEmpty(t, a.ID, "an action of alice's from a meeting")
		key := strings.ToLower(pagetest.FindMeeting(h.t, h.data, a.MeetingID).Committee)
		// The "My actions here" button of a weekly digest in the channel.
		el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionDigestMine + `","value":"` + key + `","text":{"type":"plain_text","text":"My actions here"}}`)
		r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, MessageTS: "1700000000.000100",
			MessageBlocks: json.RawMessage(`[{"type":"actions","block_id":"digest-buttons","elements":[` + string(el) + `]}]`),
			BlockID:       "digest-buttons", Element: el})
		require.NoError(t, err)
		list := h.responses(r.ResponseURLID, 1)[0]
		h.clickEphemeral(alice, list, "status:complete", "complete|"+a.ID+"|")
		got := trailOf(t, st, a.ID)
		require.Len(t, got, 2)
		assert.Equal(t, alice.ID+" digest action.status "+a.Status+"→complete done", got[1])
	})
}

// The trail is read in the reader's language: a French-speaking member's
// /actions history and a German-speaking admin's Recent changes, each from
// their Slack locale (both were English whatever the locale before).
func TestAuditReadInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st, withAdmins("U0ADMIN"))
		h.addUser(slacktest.User{ID: "U0ADMIN", Name: "admin", RealName: "Ada Admin", Email: "ada@admin.example", Locale: "de-DE"})
		alice, bob, admin := h.person("alice"), h.person("bob"), h.users["U0ADMIN"]
		alice.Locale, bob.Locale = "fr-FR", "fr-FR"
		h.addUser(alice)
		h.addUser(bob)
		a := h.openActionsOf(alice.Email)[0]
		h.slash(alice, "/actions", "complete "+a.ID)

		m, _ := h.slash(alice, "/actions", "history "+a.ID)
		assert.Contains(t, m.all(), "Historique de")
		assert.NotContains(t, m.all(), "History of")
		m, _ = h.slash(bob, "/actions", "history "+a.ID)
		assert.Contains(t, m.Text, mustLang(t, "fr").F("audit.history.unseen", "id", a.ID))

		view := h.openHome(t, "Ev_audit_de", admin)
		assert.Contains(t, view.all(), mustLang(t, "de").T("audit.recent.title"))
		assert.NotContains(t, view.all(), "Recent changes")
	})
}

// With ACTIONS_VISIBILITY=organisation a member reads anyone's action
// history, and nothing else of theirs: not their snoozes of it, their
// time away, their settings or a channel's follows, whatever they type
// after /actions history; text that cannot be an action's ID is refused.
func TestAuditHistoryShowsAnActionsChangesOnly(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st, withVisibility(actions.VisibleOrganisation))
		alice, bob := h.person("alice"), h.person("bob")
		a := h.openActionsOf(alice.Email)[0]
		h.slash(alice, "/actions", "complete "+a.ID)
		for _, e := range []audit.Entry{
			{Actor: alice.ID, Surface: audit.Reminder, Kind: audit.Snooze, Target: a.ID, To: "2026-12-01", Outcome: audit.Done},
			{Actor: alice.ID, Surface: audit.Home, Kind: audit.Settings, Target: alice.ID, To: "away_until=2026-12-24", Outcome: audit.Done},
			{Actor: alice.ID, Surface: audit.Home, Kind: audit.Settings, Target: alice.ID, To: "remind=off", Outcome: audit.Done},
			{Actor: alice.ID, Surface: audit.Command, Kind: audit.Follow, Target: "G0PRIVATE/finance", To: "Finance", Outcome: audit.Done},
		} {
			_, err := st.AppendAudit(t.Context(), e)
			require.NoError(t, err)
		}

		m, _ := h.slash(bob, "/actions", "history "+a.ID)
		s := m.all()
		assert.Contains(t, s, "→ complete", "bob reads alice's action's changes")
		assert.NotContains(t, s, "2026-12-01", "not her snooze of it")
		m, _ = h.slash(alice, "/actions", "history "+a.ID)
		assert.Contains(t, m.all(), "2026-12-01", "alice reads her own snooze")

		for _, target := range []string{alice.ID, "G0PRIVATE/finance"} {
			m, _ = h.slash(bob, "/actions", "history "+target)
			s = m.all()
			for _, secret := range []string{"away_until", "remind=off", "Finance", "follow"} {
				assert.NotContains(t, s, secret, "history %s", target)
			}
		}
		for _, text := range []string{"<@" + alice.ID + ">", `=HYPERLINK("https://evil.example","x")`, "two words", "#general"} {
			m, _ = h.slash(bob, "/actions", "history "+text)
			assert.Contains(t, m.all(), "needs the action's ID", "history %s", text)
		}
	})
}
