package bot_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
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
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

// withWorkObjects is WORK_OBJECTS on, with the app's Work Object Previews
// on in the fake Slack for the types the bot sends.
func (h *harness) withWorkObjects() harnessOption {
	h.slack.SetWorkObjects(slacktest.EntityTask, slacktest.EntityContentItem)
	return withConfig(func(c *bot.Config) { c.WorkObjects = true })
}

// actionLink is an action's own link, PUBLIC_URL/actions/{id}.
func actionLink(id string) string {
	return "https://" + botDomain + "/actions/" + url.PathEscape(id)
}

// pasteAs shares links in a message posted by user and returns what
// the conversation shows under each.
func (h *harness) pasteAs(t *testing.T, eventID string, user slacktest.User, links ...string) map[string]slacktest.Card {
	t.Helper()
	ev := linkShared(links...)
	ev["user"] = user.ID
	h.sendEvent(t, eventID, ev, 0)
	out := map[string]slacktest.Card{}
	for _, l := range links {
		if c, ok := h.slack.Card(l); ok {
			out[l] = c
		}
	}
	return out
}

// openPanel clicks the card under link as user and returns the flexpane
// the bot drew for them.
func (h *harness) openPanel(t *testing.T, eventID string, user slacktest.User, card slacktest.Card, link string) slacktest.Panel {
	t.Helper()
	require.NotNil(t, card.Entity, "a Work Object card under %s", link)
	r, err := slacktest.OpenPanel(t.Context(), h.send, eventID, slacktest.EntityClick{User: user, Link: link, Entity: *card.Entity})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	h.settle(t)
	p, ok := h.slack.Panel(user.ID)
	require.True(t, ok, "a flexpane for %s", user.Name)
	return p
}

// fieldValue is a card's or panel's field as text, for assertions.
func fieldValue(t *testing.T, fields map[string]json.RawMessage, key string) string {
	t.Helper()
	raw, ok := fields[key]
	if !ok {
		return ""
	}
	return jsonText(raw)
}

// minutesMeeting is a meeting of the dataset with visible minutes and
// open actions of user and of someone else.
func (h *harness) minutesMeeting(t *testing.T, user slacktest.User) recordstest.Meeting {
	t.Helper()
	visible := map[string]bool{}
	for _, m := range h.records.Minutes() {
		if m.Status == "approved" || m.Status == "published_draft" {
			visible[m.MeetingID] = true
		}
	}
	for _, m := range h.records.Meetings() {
		if mine, others := h.meetingActions(m, user); visible[m.ID] && len(mine) > 0 && len(others) > 0 {
			return m
		}
	}
	t.Fatalf("no meeting with visible minutes has open actions of %s and of someone else", user.Name)
	return recordstest.Meeting{}
}

// TestWorkObjectCards: a pasted minutes link unfurls as a content item
// card with what the public page shows, and nothing for minutes that are
// not visible; a pasted action link as the task card when its poster may
// see the action, else as "an action in recordsbot" with nothing of it.
func TestWorkObjectCards(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, h.withWorkObjects())
	carol, bob := h.person("carol"), h.person("bob")
	m := h.minutesMeeting(t, carol)
	hidden := ""
	for _, min := range h.records.Minutes() {
		if min.Status != "approved" && min.Status != "published_draft" {
			hidden = min.MeetingID
		}
	}
	require.NotEmpty(t, hidden, "the dataset has minutes not yet published")
	mine, _ := h.meetingActions(m, carol)
	bobs := h.openActionsOf(bob.Email)
	require.NotEmpty(t, bobs)

	// The records keep the minutes at a URL of their own too.
	recordURL := "https://records.example.org/minutes/" + m.ID
	for _, min := range h.records.Minutes() {
		if min.MeetingID == m.ID {
			min.URL = recordURL
			h.records.SetMinutes(min)
		}
	}
	links := []string{h.minutesLink(m.ID), h.minutesLink(hidden), actionLink(mine[0].ID), actionLink(bobs[0].ID), actionLink("no-such-action")}
	cards := h.pasteAs(t, "Ev1", carol, links...)

	minutesCard := cards[links[0]]
	require.NotNil(t, minutesCard.Entity, "minutes card")
	assert.Equal(t, slacktest.EntityContentItem, minutesCard.Entity.EntityType)
	assert.Equal(t, m.Title, minutesCard.Title)
	assert.Contains(t, fieldValue(t, minutesCard.Fields, "committee"), m.Committee)
	assert.Contains(t, fieldValue(t, minutesCard.Fields, "date"), m.Date.Format("2006-01-02"))
	assert.NotEmpty(t, fieldValue(t, minutesCard.Fields, "status"))
	assert.NotContains(t, jsonText(minutesCard.Entity.EntityPayload), "agenda", "the card shows only what the page shows")
	_, shown := cards[links[1]]
	assert.False(t, shown, "no card for minutes that are not visible")

	own := cards[links[2]]
	require.NotNil(t, own.Entity, "her own action's card")
	assert.Equal(t, slacktest.EntityTask, own.Entity.EntityType)
	assert.Equal(t, mine[0].Title, own.Title)
	assert.Contains(t, fieldValue(t, own.Fields, "status"), `"value"`)
	assert.NotEmpty(t, fieldValue(t, own.Fields, "assignee"))
	if !mine[0].Deadline.IsZero() {
		assert.Contains(t, fieldValue(t, own.Fields, "due_date"), mine[0].Deadline.Format("2006-01-02"))
	}
	for _, l := range links[3:] {
		stub := cards[l]
		require.NotNil(t, stub.Entity, "a card under %s", l)
		assert.Equal(t, "An action in recordsbot", stub.Title, "someone else's action, or none, under ACTIONS_VISIBILITY own")
		assert.Empty(t, stub.Fields, "nothing of the action")
	}
	// The record's own minutes URL, once the bot has read those minutes
	// (the page link above did), unfurls as the same card.
	again := h.pasteAs(t, "Ev2", carol, recordURL)
	require.Contains(t, again, recordURL)
	assert.Equal(t, m.Title, again[recordURL].Title)

	for _, u := range h.slack.Unfurls() {
		for _, e := range u.Entities {
			assert.NotContains(t, jsonText(e.EntityPayload), bobs[0].Title, "bob's action is not shown to carol's conversation")
		}
	}
}

// TestWorkObjectsOff: without WORK_OBJECTS a minutes link unfurls as the
// classic attachment and an action link is left alone; with WORK_OBJECTS
// but the app's previews off, Slack shows no card (the fake's rule), so
// doctor's advice matters.
func TestWorkObjectsOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	carol := h.person("carol")
	m := h.minutesMeeting(t, carol)
	mine, _ := h.meetingActions(m, carol)
	cards := h.pasteAs(t, "Ev1", carol, h.minutesLink(m.ID), actionLink(mine[0].ID))
	require.Contains(t, cards, h.minutesLink(m.ID))
	assert.Nil(t, cards[h.minutesLink(m.ID)].Entity, "a classic unfurl")
	assert.NotEmpty(t, cards[h.minutesLink(m.ID)].Classic)
	assert.NotContains(t, cards, actionLink(mine[0].ID), "an action link is left as a link")

	h.rebuild(bot.Deps{}, withConfig(func(c *bot.Config) { c.WorkObjects = true }))
	cards = h.pasteAs(t, "Ev2", carol, h.minutesLink(m.ID)+"?again")
	assert.Empty(t, cards, "previews off in the app's settings: no card")
}

// TestWorkObjectPanels: the flexpane is drawn for whoever clicks, under
// the visibility rule of /actions: the assignee, an admin, a member under
// own and under organisation, a guest; for an action and for minutes.
func TestWorkObjectPanels(t *testing.T) {
	t.Parallel()
	for _, vis := range []actions.Visibility{actions.VisibleOwn, actions.VisibleOrganisation} {
		t.Run(string(vis), func(t *testing.T) {
			t.Parallel()
			onEachStore(t, func(t *testing.T, st *store.Store) {
				h := newHarness(t)
				h.rebuild(bot.Deps{Store: st}, withAdmins("U0ALICE"), withVisibility(vis), h.withWorkObjects(),
					withActions(func(c *actions.Config) { c.Trail = st }))
				bob, carol := h.person("bob"), h.person("carol")
				m := h.minutesMeeting(t, bob)
				bobs, others := h.meetingActions(m, bob)
				link := actionLink(bobs[0].ID)
				cards := h.pasteAs(t, "Ev1", bob, link, h.minutesLink(m.ID))
				for _, c := range []struct {
					who                slacktest.User
					sees, changes, all bool
				}{
					{who: bob, sees: true, changes: true, all: vis == actions.VisibleOrganisation},
					{who: h.person("alice"), sees: true, changes: true, all: true},
					{who: carol, sees: vis == actions.VisibleOrganisation, all: vis == actions.VisibleOrganisation},
					{who: h.users[testworld.GuestID]},
				} {
					t.Run(c.who.Name, func(t *testing.T) {
						p := h.openPanel(t, "EvA"+c.who.ID, c.who, cards[link], link)
						if !c.sees {
							assert.Equal(t, blocks.PanelRestricted, p.Error, "told they may not see it")
							assert.Nil(t, p.Entity, "and nothing of it")
						} else {
							require.Empty(t, p.Error)
							assert.Equal(t, bobs[0].Title, p.Title)
							assert.Contains(t, p.Fields, "history", "whoever may see it may read its history")
							assert.Contains(t, string(p.Fields["assignee"]), bob.RealName, "the assignee named, as on the card, whoever reads it")
							if c.changes {
								require.NotEmpty(t, p.Buttons, "status buttons")
								assert.Equal(t, blocks.ActionPanelStatusPrefix+"complete", p.Buttons[0].ActionID)
								snooze := slices.ContainsFunc(p.Buttons, func(b slacktest.EntityButton) bool { return b.ActionID == blocks.ActionPanelSnooze })
								assert.Equal(t, c.who.ID == bob.ID, snooze, "Snooze for the assignee only")
							} else {
								assert.Empty(t, p.Buttons, "no buttons for someone who may not change it")
							}
						}
						mp := h.openPanel(t, "EvM"+c.who.ID, c.who, cards[h.minutesLink(m.ID)], h.minutesLink(m.ID))
						require.Empty(t, mp.Error)
						arising := fieldValue(t, mp.Fields, "arising")
						mine := fieldValue(t, mp.Fields, "mine")
						assert.Equal(t, c.all, strings.Contains(arising, others[0].ID), "others' actions arising: %s", arising)
						assert.Equal(t, c.who.ID == bob.ID, strings.Contains(mine, bobs[0].ID), "My actions here: %s", mine)
						assert.Equal(t, c.all || c.who.ID == bob.ID, strings.Contains(arising, bobs[0].ID))
					})
				}
			})
		})
	}
}

// TestWorkObjectPanelChangesStatus: Complete in the flexpane takes the
// path of every status button: the change is recorded in the audit trail
// (surface "panel"), PUT to the records, the clicker's Home tab and the
// flexpane redrawn. Someone who may not change it changes nothing.
func TestWorkObjectPanelChangesStatus(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t)
		h.rebuild(bot.Deps{Store: st}, withVisibility(actions.VisibleOrganisation), h.withWorkObjects(),
			withActions(func(c *actions.Config) { c.Trail = st }))
		bob, carol := h.person("bob"), h.person("carol")
		a := h.openActionsOf(bob.Email)[0]
		link := actionLink(a.ID)
		cards := h.pasteAs(t, "Ev1", bob, link)
		click := slacktest.EntityClick{User: bob, Link: link, Entity: *cards[link].Entity}

		p := h.openPanel(t, "Ev2", bob, cards[link], link)
		var complete slacktest.EntityButton
		for _, b := range p.Buttons {
			if strings.HasPrefix(b.Value, "complete|") {
				complete = b
			}
		}
		require.NotEmpty(t, complete.ActionID, "a Complete button: %+v", p.Buttons)
		homes := len(h.slack.Views(bob.ID))
		r, err := slacktest.PressPanelButton(t.Context(), h.send, click, complete)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		h.settle(t)

		got, _ := h.records.Action(a.ID)
		assert.Equal(t, "complete", got.Status, "the records hold the change")
		es, err := st.AuditOf(t.Context(), a.ID, 10)
		require.NoError(t, err)
		require.NotEmpty(t, es)
		assert.Equal(t, audit.Panel, es[0].Surface)
		assert.Equal(t, bob.ID, es[0].Actor)
		assert.Greater(t, len(h.slack.Views(bob.ID)), homes, "the Home tab redrawn")
		p, _ = h.slack.Panel(bob.ID)
		assert.Contains(t, fieldValue(t, p.Fields, "status"), "Complete", "the flexpane redrawn")
		assert.Contains(t, fieldValue(t, p.Fields, "history"), "Complete")

		// Carol may see it (organisation) but not change it: the same
		// button, pressed by her, changes nothing and says so.
		click.User = carol
		reopen := slacktest.EntityButton{ActionID: blocks.ActionPanelStatusPrefix + "open", Value: "open|" + a.ID + "|", Text: "Reopen"}
		_, err = slacktest.PressPanelButton(t.Context(), h.send, click, reopen)
		require.NoError(t, err)
		h.settle(t)
		got, _ = h.records.Action(a.ID)
		assert.Equal(t, "complete", got.Status)
		cp, ok := h.slack.Panel(carol.ID)
		require.True(t, ok)
		assert.Equal(t, "custom", cp.Error)
		assert.NotEmpty(t, cp.Message)
	})
}

// TestWorkObjectPanelGoneOrRefused: a card of an action the records no
// longer hold opens as not found for someone who may see anyone's (and
// as restricted for someone who may see only their own, so a link gives
// nothing away); a records service that refuses opens as "try again".
func TestWorkObjectPanelGoneOrRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, withAdmins("U0ALICE"), h.withWorkObjects())
	alice, carol := h.person("alice"), h.person("carol")
	gone := h.openActionsOf(carol.Email)[0]
	link := actionLink(gone.ID)
	cards := h.pasteAs(t, "Ev1", alice, link)
	require.Equal(t, gone.Title, cards[link].Title, "the card of an action that exists")
	var rest []recordstest.Action
	for _, a := range h.records.Actions() {
		if a.ID != gone.ID {
			rest = append(rest, a)
		}
	}
	h.records.SetActions(rest)
	// A new bot: the shared list it reads is the records' as they are now
	// (within ACTIONS_CACHE_TTL the panel, like every surface, reads the
	// list it holds).
	h.rebuild(bot.Deps{}, withAdmins("U0ALICE"), withConfig(func(c *bot.Config) { c.WorkObjects = true }))

	assert.Equal(t, blocks.PanelNotFound, h.openPanel(t, "Ev2", alice, cards[link], link).Error)
	assert.Equal(t, blocks.PanelRestricted, h.openPanel(t, "Ev3", carol, cards[link], link).Error)

	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Status: http.StatusForbidden})
	h.rebuild(bot.Deps{}, withAdmins("U0ALICE"), withConfig(func(c *bot.Config) { c.WorkObjects = true }))
	p := h.openPanel(t, "Ev4", alice, cards[link], link)
	assert.Equal(t, "custom", p.Error)
	assert.Contains(t, p.Message, "Try again")
}

// An action's own link is on its title where a person would copy it: the
// rows of /actions and of a reminder DM.
func TestActionLinksInRowsAndReminders(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	m, _ := h.slash(h.person("alice"), "/actions", "")
	assert.Contains(t, m.all(), "<"+actionLink("A-1")+"|")
	run := h.remind(remind.Config{Days: 3})
	require.NoError(t, run.err)
	_, dm := h.dm("DU0ALICE")
	assert.Contains(t, dm.all(), "<"+actionLink("A-1")+"|", "the reminder's row")
}

// A link still being written (the composer) unfurls as a card too,
// addressed by its unfurl ID, as the composer is no message.
func TestWorkObjectInTheComposer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, h.withWorkObjects())
	carol := h.person("carol")
	a := h.openActionsOf(carol.Email)[0]
	ev := inComposer(linkShared(actionLink(a.ID)))
	ev["user"] = carol.ID
	h.sendEvent(t, "Ev_composer", ev, 0)
	composerUnfurl(t, h)
	card, ok := h.slack.Card(actionLink(a.ID))
	require.True(t, ok)
	assert.Equal(t, a.Title, card.Title)
}

// TestWorkObjectMinutesPanelListsByUrgency: the minutes flexpane lists the
// actions arising in the one order of actions (overdue first), as
// /actions meeting does, not in the records' order.
func TestWorkObjectMinutesPanelListsByUrgency(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, h.withWorkObjects())
	bob := h.person("bob")
	m := h.minutesMeeting(t, bob)
	now := time.Now()
	// The records list the later one first.
	h.records.AddAction(recordstest.Action{ID: "A-FAR-OFF", Title: "Far off", Status: "open", AssigneeEmail: bob.Email, MeetingID: m.ID, Deadline: now.AddDate(0, 0, 30)})
	h.records.AddAction(recordstest.Action{ID: "A-OVERDUE", Title: "Overdue", Status: "open", AssigneeEmail: bob.Email, MeetingID: m.ID, Deadline: now.AddDate(0, 0, -5)})
	link := h.minutesLink(m.ID)
	cards := h.pasteAs(t, "EvOrder", bob, link)
	p := h.openPanel(t, "EvOrderM", bob, cards[link], link)
	require.Empty(t, p.Error)
	mine := fieldValue(t, p.Fields, "mine")
	overdue, farOff := strings.Index(mine, "A-OVERDUE"), strings.Index(mine, "A-FAR-OFF")
	require.True(t, overdue >= 0 && farOff >= 0, "both listed: %s", mine)
	assert.Less(t, overdue, farOff, "the overdue action first: %s", mine)
}
