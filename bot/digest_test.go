package bot_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/clocktime/clocktimetest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
)

// TestFollowDigestChoice: /minutes follow <committee> digest … sets the
// follow's weekly digest, on a new follow or an existing one.
func TestFollowDigestChoice(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		// ACTIONS_VISIBILITY organisation: the digest lists actions by
		// assignee, so naming or mentioning them is a choice
		// (TestFollowDigestChoiceUnderOwn: the default counts them).
		h := newStoreHarness(t, st, withVisibility(actions.VisibleOrganisation),
			withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "mon 09:00") }))
		alice := h.person("alice")
		const general = "C0GENERAL"

		got := h.minutesIn(alice, general, "general", "follow FIN digest Friday 16:30 mentions")
		assert.Equal(t, slack.ResponseTypeInChannel, got.ResponseType)
		assert.Contains(t, got.Text, "follow *Finance*")
		assert.Contains(t, got.Text, "The weekly digest of *Finance* comes here every Friday 16:30, mentioning the assignees")
		d, err := st.Digest(t.Context(), general, "finance")
		require.NoError(t, err)
		assert.Equal(t, clocktimetest.Weekly(t, "fri 16:30"), d.Schedule)
		assert.True(t, d.Mentions)

		got = h.minutesIn(alice, general, "general", "following")
		assert.Contains(t, got.all(), "every Friday 16:30, mentioning the assignees", "/minutes following shows the choice under its checkbox")

		got = h.minutesIn(alice, general, "general", "follow finance digest")
		assert.Contains(t, got.Text, "changed this channel's digest")
		assert.Contains(t, got.Text, "every Monday 09:00, the organisation's usual time, naming the assignees without mentioning them",
			"the usual time said, not only named")
		assert.Contains(t, h.minutesIn(alice, general, "general", "following").all(), "every Monday 09:00, the usual time")

		got = h.minutesIn(alice, general, "general", "follow finance digest off")
		assert.Contains(t, got.Text, "No weekly digest of *Finance* here: its *Weekly digest* box is unticked")
		list := h.minutesIn(alice, general, "general", "following")
		_, _, ticked := followBoxes(t, list, "finance")
		assert.NotContains(t, ticked, store.HearDigest, "digest off: the box unticked")
		assert.Contains(t, list.all(), "off — the usual time is every Monday 09:00")

		got = h.minutesIn(alice, general, "general", "follow finance digest someday")
		assert.Contains(t, got.Text, "I didn't understand `someday`")
		_, _, ticked = followBoxes(t, h.minutesIn(alice, general, "general", "following"), "finance")
		assert.NotContains(t, ticked, store.HearDigest, "nothing changed")
	})
}

// TestFollowDigestChoiceUnderOwn: under ACTIONS_VISIBILITY own (the
// default) a channel's digest counts the actions and names nobody
// (actions.Service.ChannelMayName), and choosing its time says so rather
// than promising a list by assignee, mentions or not.
func TestFollowDigestChoiceUnderOwn(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "mon 09:00") }))
		got := h.minutesIn(h.person("alice"), "C0GENERAL", "general", "follow FIN digest Friday 16:30 mentions")
		assert.Contains(t, got.Text, "The weekly digest of *Finance* comes here every Friday 16:30: how many of its actions are open and overdue")
		assert.Contains(t, got.Text, "the digest names nobody; each sees theirs with `/actions`")
		assert.NotContains(t, got.Text, "by assignee")
		assert.NotContains(t, got.Text, "mentioning the assignees")
	})
}

// TestFollowDigestTimeTicksTheBox: choosing the digest's time in a
// channel whose Weekly digest box is unticked ticks it, and says so,
// rather than promising a digest that never comes.
func TestFollowDigestTimeTicksTheBox(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st)
		alice := h.person("alice")
		const general = "C0GENERAL"
		h.minutesIn(alice, general, "general", "follow finance")
		_, err := st.SetFollowChoice(t.Context(), general, "finance", store.HearDigest, false)
		require.NoError(t, err)

		got := h.minutesIn(alice, general, "general", "follow finance digest fri 16:30")
		assert.Contains(t, got.Text, "comes here every Friday 16:30")
		assert.Contains(t, got.Text, "*Weekly digest* box in `/minutes following` is ticked again")
		fs, err := st.FollowsInChannel(t.Context(), general)
		require.NoError(t, err)
		require.Len(t, fs, 1)
		assert.True(t, (store.FollowDefaults{}).Hears(fs[0].Choices, store.HearDigest), "the channel hears the digest")

		again := h.minutesIn(alice, general, "general", "follow finance digest mon 08:00")
		assert.NotContains(t, again.Text, "ticked again", "on already: nothing to say")
	})
}

// TestDigestMyActionsHere: the digest's button shows the clicker their own
// open actions of the digest's committee, ephemerally, with their buttons.
func TestDigestMyActionsHere(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Someone with open actions in more than one committee.
	byPerson := map[string]map[string][]string{}
	for _, a := range h.records.Actions() {
		if a.Status != "open" && a.Status != "in_progress" {
			continue
		}
		c := ""
		for _, m := range h.data.Meetings {
			if m.ID == a.MeetingID {
				c = m.Committee
			}
		}
		if byPerson[a.AssigneeEmail] == nil {
			byPerson[a.AssigneeEmail] = map[string][]string{}
		}
		byPerson[a.AssigneeEmail][c] = append(byPerson[a.AssigneeEmail][c], a.ID)
	}
	var who slacktest.User
	var committee string
	for _, u := range h.users {
		if cs := byPerson[u.Email]; len(cs) > 1 {
			for c := range cs {
				if c != "" && (committee == "" || c < committee) {
					committee = c
				}
			}
			who = u
			break
		}
	}
	require.NotEmpty(t, committee, "the dataset has someone with actions in two committees")

	el := json.RawMessage(`{"type":"button","action_id":"` + blocks.ActionDigestMine + `","text":{"type":"plain_text","text":"My actions here"},"value":"` + strings.ToLower(committee) + `"}`)
	bl := json.RawMessage(`[{"type":"actions","block_id":"digest-buttons","elements":[` + string(el) + `]}]`)
	ts := h.slack.PutMessage(slacktest.Message{Channel: "C0GENERAL", Text: "Weekly digest", Blocks: bl})
	r, err := h.send.Click(t.Context(), slacktest.Click{User: who, MessageTS: ts, BlockID: "digest-buttons", Element: el, MessageBlocks: bl})
	require.NoError(t, err)
	got := h.responses(r.ResponseURLID, 1)[0]
	assert.Contains(t, got.all(), "Your open actions of "+committee)
	for c, ids := range byPerson[who.Email] {
		assertRows(t, got, ids, c == committee, c)
	}
	assert.Contains(t, got.all(), `"status:`, "the usual buttons")
	assert.Len(t, h.slack.Messages("C0GENERAL"), 1, "nothing posted in the channel")
}
