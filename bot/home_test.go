package bot_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// appHomeOpened is the event Slack sends when user opens the app's Home tab.
func appHomeOpened(user string) map[string]any {
	return map[string]any{
		"type":     "app_home_opened",
		"user":     user,
		"channel":  "D0" + strings.TrimPrefix(user, "U0"),
		"tab":      "home",
		"event_ts": "1767225600.000300",
	}
}

// openHome opens user's Home tab and returns the view published to it.
func (h *harness) openHome(t *testing.T, eventID string, user slacktest.User) msg {
	t.Helper()
	h.sendEvent(t, eventID, appHomeOpened(user.ID), 0)
	return h.homeView(t, user)
}

// homeView returns the view last published to user's Home tab, checked
// against Block Kit's limits for Home views.
func (h *harness) homeView(t *testing.T, user slacktest.User) msg {
	t.Helper()
	raw, ok := h.slack.HomeView(user.ID)
	require.True(t, ok, "a view was published to %s's Home tab", user.ID)
	var v slack.HomeTabViewRequest
	require.NoError(t, json.Unmarshal(raw, &v))
	require.NoError(t, blocks.CheckView(v), "the view is within Block Kit's limits")
	return parseMsg(t, raw)
}

// clickHome presses an element of user's Home view, as Slack sends it.
func (h *harness) clickHome(t *testing.T, user slacktest.User, view msg, actionID, valuePart string) {
	t.Helper()
	blockID, el, opt := view.element(t, actionID, valuePart)
	r, err := h.send.Click(t.Context(), slacktest.Click{User: user, View: view.raw, BlockID: blockID, Element: el, Option: opt})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	h.settle(t)
}

// byDeadline orders actions as the Home tab lists them: by deadline, those
// without one last.
func byDeadline(as []recordstest.Action) []recordstest.Action {
	as = slices.Clone(as)
	slices.SortStableFunc(as, func(a, b recordstest.Action) int {
		if a.Deadline.IsZero() != b.Deadline.IsZero() {
			if a.Deadline.IsZero() {
				return 1
			}
			return -1
		}
		return cmp.Or(a.Deadline.Compare(b.Deadline), strings.Compare(a.ID, b.ID))
	})
	return as
}

func TestAppHomeShowsMyActionsAndTheLatestMinutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	view := h.openHome(t, "Ev_home", alice)
	s := view.all()

	// My open and in-progress actions, by deadline, each with its buttons.
	mine := byDeadline(h.openActionsOf(alice.Email))
	require.GreaterOrEqual(t, len(mine), 2)
	last := -1
	for _, a := range mine {
		i := strings.Index(s, blocks.Escape(a.Title))
		require.Greater(t, i, last, "%q is listed after the actions due before it", a.Title)
		last = i
		view.element(t, blocks.ActionStatusPrefix, "|"+a.ID+"|") // fails the test when missing
	}
	for _, a := range h.records.Actions() {
		if a.AssigneeEmail != alice.Email {
			assert.NotContains(t, s, `"action:`+a.ID+`"`, "someone else's action %s", a.ID)
		}
	}

	// The latest published minutes of each committee, with links.
	latest := pagetest.Between(t, s, `"text":"Latest minutes"`, `"type":"divider"`)
	for _, c := range []string{"Finance", "Governance", "Facilities", "Community Outreach"} {
		m := h.latestPublished(c)
		assert.Contains(t, latest, blocks.Escape(m.Title), "the latest minutes of %s", c)
	}
	fin := h.latestPublished("Finance")
	assert.Contains(t, latest, "<"+h.minutesLink(fin.ID)+"|Read>", "a link to the minutes page")
	assert.Contains(t, latest, "Draft", "drafts are marked")

	// And help on the commands.
	assert.Contains(t, s, "`/actions`")
	assert.Contains(t, s, "`/minutes`")
}

// latestPublished is the committee's newest meeting with approved or
// published_draft minutes.
func (h *harness) latestPublished(committee string) recordstest.Meeting {
	h.t.Helper()
	var best recordstest.Meeting
	for _, min := range h.data.Minutes {
		if min.Status != "approved" && min.Status != "published_draft" {
			continue
		}
		if m := pagetest.FindMeeting(h.t, h.data, min.MeetingID); m.Committee == committee && m.Date.After(best.Date) {
			best = m
		}
	}
	require.NotEmpty(h.t, best.ID, "committee %s has published minutes", committee)
	return best
}

func TestAppHomeStatusClickUpdatesTheView(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	view := h.openHome(t, "Ev_home_click", alice)
	target := byDeadline(h.openActionsOf(alice.Email))[0]
	published := len(h.slack.Views(alice.ID))

	h.clickHome(t, alice, view, "status:complete", "complete|"+target.ID+"|")

	got, _ := h.records.Action(target.ID)
	assert.Equal(t, "complete", got.Status, "the records service has the new status")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
	require.Len(t, h.slack.Views(alice.ID), published+1, "the Home tab was published again")

	after := h.homeView(t, alice)
	s := after.all()
	assert.Contains(t, s, `"action:`+target.ID+`"`, "the changed row stays in view")
	assert.Contains(t, s, "by <@"+alice.ID+">", "saying who changed it")
	assert.NotContains(t, s, `"complete|`+target.ID+`|`, "no Complete button on a completed action")
	assert.Contains(t, s, `"open|`+target.ID+`|`, "but Reopen")
	assert.Contains(t, s, `"text":"Latest minutes"`)

	// Opening the tab afresh lists only what is still open.
	fresh := h.openHome(t, "Ev_home_reopen", alice).all()
	assert.NotContains(t, fresh, `"action:`+target.ID+`"`)
}

func TestAppHomeClickByAnotherUserChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.person("alice"), h.person("bob")
	view := h.openHome(t, "Ev_home_alice", alice)
	target := h.openActionsOf(alice.Email)[0]

	// Bob presses a button of Alice's view: a forged payload.
	h.clickHome(t, bob, view, "status:complete", "complete|"+target.ID+"|")
	assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"))
	got, _ := h.records.Action(target.ID)
	assert.Equal(t, target.Status, got.Status)
	note := h.homeView(t, bob).all()
	assert.Contains(t, note, "Only the action's assignee or an admin can change this", "bob is told, on his own Home tab")
	aliceNow, _ := h.slack.HomeView(alice.ID)
	assert.JSONEq(t, string(view.raw), string(aliceNow), "alice's Home tab is untouched")
}

func TestAppHomePagesLongListsWithinTheBlockLimit(t *testing.T) {
	t.Parallel()
	const extra = 60
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		for i := range extra {
			d.Actions = append(d.Actions, recordstest.Action{
				ID:            fmt.Sprintf("BULK-%02d", i),
				Title:         fmt.Sprintf("Bulk action %02d", i),
				Status:        "open",
				AssigneeEmail: "alice@example.org",
				AssigneeName:  "Alice Adams",
				Deadline:      time.Now().AddDate(0, 1, i),
				DateOnly:      true,
			})
		}
	}))
	alice := h.person("alice")
	view := h.openHome(t, "Ev_home_long", alice) // homeView checks the 100-block limit
	require.LessOrEqual(t, len(view.Blocks), blocks.MaxViewBlocks)
	mine := byDeadline(h.openActionsOf(alice.Email))
	require.Greater(t, len(mine), extra)
	s := view.all()
	assert.Contains(t, s, blocks.Escape(mine[0].Title))
	assert.NotContains(t, s, blocks.Escape(mine[len(mine)-1].Title), "the last action is on a later page")
	assert.Contains(t, s, fmt.Sprintf("of %d", len(mine)), "the view says how many there are")
	assert.Contains(t, s, `"text":"Latest minutes"`, "the minutes are still there")

	h.clickHome(t, alice, view, blocks.ActionHomeMore, "")
	next := h.homeView(t, alice)
	ns := next.all()
	assert.NotContains(t, ns, blocks.Escape(mine[0].Title), "the next page starts after the first")
	shown := 0
	for _, a := range mine {
		if strings.Contains(s, `"action:`+a.ID+`"`) {
			shown++
		}
	}
	assert.Contains(t, ns, `"action:`+mine[shown].ID+`"`, "the next page begins where the first ended")
}

func TestAppHomeWhenTheRecordsAreDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	alice := h.person("alice")
	s := h.openHome(t, "Ev_home_down", alice).all()
	assert.Contains(t, s, ":warning:", "the tab says something is wrong")
	assert.Contains(t, s, "records service", "and what")
	assert.Contains(t, s, `"text":"Latest minutes"`)
	assert.Contains(t, s, "`/actions`", "the help is still there")
}

func TestAppHomeWhenOnlyTheMinutesAreDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings", Status: http.StatusServiceUnavailable})
	alice := h.person("alice")
	view := h.openHome(t, "Ev_home_minutes_down", alice)
	s := view.all()
	assert.Contains(t, s, "couldn't read the latest minutes", "an outage is not passed off as no minutes")
	view.element(t, blocks.ActionStatusPrefix, "|"+h.openActionsOf(alice.Email)[0].ID+"|") // the actions are still there
}

func TestAppHomeOpenedRetryPublishesOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	h.openHome(t, "Ev_home_once", alice)
	h.sendEvent(t, "Ev_home_once", appHomeOpened(alice.ID), 1)
	assert.Len(t, h.slack.Views(alice.ID), 1)
}
