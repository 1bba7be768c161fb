package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// topicPosts are the watcher's topic posts in a conversation.
func topicPosts(h *harness, channel string) []slacktest.Message {
	return postsOf(h, channel, blocks.EventTopicMatched)
}

// postsOf are the messages in a conversation whose metadata is of event
// type event.
func postsOf(h *harness, channel, event string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.slack.Messages(channel) {
		if strings.Contains(string(m.Metadata), event) {
			out = append(out, m)
		}
	}
	return out
}

// TestTopicWatchEndToEnd: a member watches words in her DM with the bot
// and a channel watches others; the watcher, polling as `recordsbot
// watch` does, tells each once of minutes published as a draft, again
// when they are approved, and of an upcoming meeting's agenda items as
// they are added; matches in one poll are one post per meeting. Stop in
// /minutes watching ends a watch, and the trail records both.
func TestTopicWatchEndToEnd(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		clock := &testClock{t: time.Now().UTC()}
		h := newStoreHarness(t, st)
		alice := h.person("alice")
		const general, aliceDM = "C0GENERAL", "DU0ALICE"

		got := h.minutesIn(alice, aliceDM, "directmessage", "watch library levy")
		assert.Contains(t, got.Text, "I'll tell you here when “library levy” comes up")
		got = h.minutesIn(alice, aliceDM, "directmessage", "watch Library  Levy")
		assert.Contains(t, got.Text, "“library levy” is already watched here", "the same words again, in another case")
		got = h.minutesIn(alice, general, "general", `watch "school transport" -parking`)
		assert.Equal(t, slack.ResponseTypeInChannel, got.ResponseType, "the channel hears that it watches")
		assert.Contains(t, got.Text, "<@"+alice.ID+"> set this channel to hear when “\"school transport\" -parking” comes up")

		list := h.minutesIn(alice, aliceDM, "directmessage", "watching")
		assert.Contains(t, list.all(), "Topics you watch")
		assert.Contains(t, list.all(), "“library levy”")
		assert.NotContains(t, list.all(), "school transport", "a person's list is theirs")

		wdeps := h.watcherDeps(t, st)
		wcfg := watch.Config{Now: clock.Now}
		poll := func() watch.Summary {
			t.Helper()
			sum, err := watch.Poll(t.Context(), wcfg, wdeps)
			require.NoError(t, err)
			return sum
		}
		first := poll()
		assert.Equal(t, 0, first.TopicPosts, "nothing from before the watch")

		// Minutes published as a draft that mention both topics.
		past := clock.Now().Add(-48 * time.Hour)
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_topic", Title: "Finance, extra", Committee: "Finance", Date: past})
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_topic", Status: "published_draft",
			Body: "The *library levies* were discussed, and school transport costs for next year."})
		clock.Add(time.Minute)
		sum := poll()
		assert.Equal(t, 2, sum.TopicPosts, "one post each: alice and the channel")
		dm := topicPosts(h, aliceDM)
		require.Len(t, dm, 1)
		assert.Contains(t, dm[0].Text, "“library levy” comes up in the minutes of *Finance, extra*")
		assert.Contains(t, string(dm[0].Blocks), "*library* *levies*", "the matched words in bold in the snippet")
		assert.Contains(t, string(dm[0].Blocks), "Draft")
		require.Len(t, topicPosts(h, general), 1)

		clock.Add(time.Minute)
		assert.Equal(t, 0, poll().TopicPosts, "told once")

		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_topic", Status: "approved",
			Body: "The library levies were discussed, and school transport costs for next year. Parking too."})
		clock.Add(time.Minute)
		sum = poll()
		assert.Equal(t, 1, sum.TopicPosts, "approved: alice hears again; the channel's -parking now leaves it out")
		require.Len(t, topicPosts(h, aliceDM), 2)
		require.Len(t, topicPosts(h, general), 1)

		// An upcoming meeting's agenda gains a matching item, then another.
		soon := clock.Now().Add(72 * time.Hour)
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_next", Title: "Finance, June", Committee: "Finance", Date: soon,
			Agenda: []recordstest.AgendaItem{{Number: 1, Title: "Minutes of the last meeting"}, {Number: 2, Title: "Library levy: the 2027 rate"}}})
		clock.Add(time.Minute)
		assert.Equal(t, 1, poll().TopicPosts)
		dm = topicPosts(h, aliceDM)
		require.Len(t, dm, 3)
		assert.Contains(t, dm[2].Text, "“library levy” is on the agenda of *Finance, June*")
		assert.Contains(t, string(dm[2].Blocks), "• 2. Library levy: the 2027 rate")
		clock.Add(time.Minute)
		assert.Equal(t, 0, poll().TopicPosts, "the same agenda: nothing new")
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_secret", Title: "Finance, in camera", Committee: "Finance", Date: soon, Confidential: true,
			Agenda: []recordstest.AgendaItem{{Number: 1, Title: "Library levy: legal advice"}}})
		clock.Add(time.Minute)
		assert.Equal(t, 0, poll().TopicPosts, "a confidential meeting's agenda is told to no watch")
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_next", Title: "Finance, June", Committee: "Finance", Date: soon,
			Agenda: []recordstest.AgendaItem{{Number: 1, Title: "Minutes of the last meeting"}, {Number: 2, Title: "Library levy: the 2027 rate"}, {Number: 3, Title: "Library levies and the reserve"}}})
		clock.Add(time.Minute)
		assert.Equal(t, 1, poll().TopicPosts)
		dm = topicPosts(h, aliceDM)
		require.Len(t, dm, 4)
		assert.Contains(t, string(dm[3].Blocks), "Library levies and the reserve")
		assert.NotContains(t, string(dm[3].Blocks), "the 2027 rate", "only the item not told before")

		// Stop, from the list in the DM.
		list = h.minutesIn(alice, aliceDM, "directmessage", "watching")
		after := h.clickEphemeral(alice, list, blocks.ActionTopicStop, "u:")
		assert.Contains(t, after[0].all(), "Stopped watching “library levy”")
		assert.Contains(t, after[0].all(), "You don't watch any topics yet")
		ws, err := st.TopicWatchesOf(t.Context(), alice.ID, "")
		require.NoError(t, err)
		assert.Empty(t, ws)

		entries, _, err := st.AuditPage(t.Context(), 0, 50)
		require.NoError(t, err)
		var kinds []string
		for _, e := range entries {
			if e.Kind == audit.TopicWatch || e.Kind == audit.TopicStop {
				kinds = append(kinds, string(e.Kind)+" "+e.To+e.From)
			}
		}
		assert.ElementsMatch(t, []string{"topic.watch library levy", "topic.watch \"school transport\" -parking", "topic.stop library levy"}, kinds)
	})
}

// TestTopicWatchBadInput: what cannot be watched gets a clear answer and
// nothing is saved.
func TestTopicWatchBadInput(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newStoreHarness(t, st)
	alice := h.person("alice")
	const aliceDM = "DU0ALICE"
	for typed, want := range map[string]string{
		"watch":                                "Tell me what to watch",
		"watch -parking":                       "Tell me what to watch",
		"watch committee:finance":              "Tell me what to watch",
		"watch a b":                            "would match nearly every meeting",
		"watch " + strings.Repeat("levy ", 50): "longer than 200 characters",
	} {
		got := h.minutesIn(alice, aliceDM, "directmessage", typed)
		assert.Contains(t, got.Text, want, typed)
		assert.Equal(t, slack.ResponseTypeEphemeral, got.ResponseType, typed)
	}
	got := h.minutesIn(alice, "G0MPIM", "mpdm-alice--bob-1", "watch library")
	assert.Contains(t, got.Text, "A group DM can't watch a topic")
	for i := range 10 {
		h.minutesIn(alice, aliceDM, "directmessage", "watch topic"+strings.Repeat("x", i+1))
	}
	got = h.minutesIn(alice, aliceDM, "directmessage", "watch riverside")
	assert.Contains(t, got.Text, "You already watch 10 topics, the most one person may")
	ws, err := st.TopicWatchesOf(t.Context(), alice.ID, "")
	require.NoError(t, err)
	assert.Len(t, ws, 10)
}

// TestTopicWatchTooCommon: a word long enough that is in most of the
// minutes is refused for being common; the answer does not ask for a word
// of three letters, which it already is.
func TestTopicWatchTooCommon(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	for i := range 30 {
		require.NoError(t, st.IndexMinutes(t.Context(), store.MinutesDoc{MeetingID: "m" + strings.Repeat("x", i+1), Title: "Meeting",
			Committee: "Finance", Date: time.Now(), Body: "The committee met and approved the minutes."}))
	}
	h := newStoreHarness(t, st)
	alice := h.person("alice")
	got := h.minutesIn(alice, "DU0ALICE", "directmessage", "watch the")
	assert.Contains(t, got.Text, "“the” is in most of the minutes")
	assert.NotContains(t, got.Text, "three letters", "“the” has three letters")
	ws, err := st.TopicWatchesOf(t.Context(), alice.ID, "")
	require.NoError(t, err)
	assert.Empty(t, ws)
}

// TestTopicWatchCost: 1,000 watches cost a poll no records call of their
// own, and one newly visible minutes document is confirmed against the
// index only for the watches the in-memory screen lets through.
func TestTopicWatchCost(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	clock := &testClock{t: time.Now().UTC()}
	h := newStoreHarness(t, st)
	wdeps := h.watcherDeps(t, st)
	wcfg := watch.Config{Now: clock.Now}
	poll := func() watch.Summary {
		t.Helper()
		sum, err := watch.Poll(t.Context(), wcfg, wdeps)
		require.NoError(t, err)
		return sum
	}
	poll()
	alice := h.person("alice")
	_, _, err := st.AddTopicWatch(t.Context(), store.TopicWatch{UserID: alice.ID, Query: "library levy", CreatedBy: alice.ID}, 10)
	require.NoError(t, err)
	clock.Add(time.Minute)
	poll()
	quiet := h.records.Count("", "")
	clock.Add(time.Minute)
	poll()
	perPoll := h.records.Count("", "") - quiet // with one watch: the agendas of the meetings within two weeks

	// Words of other subjects: none of these watches is told of the
	// minutes below, though the screen may let a few through to the index.
	words := []string{"transport", "riverside", "parking", "budget", "hall", "trees", "grant", "audit", "dismissal", "leave",
		"insurance", "quorum", "volunteer", "lighting", "cleaning", "signatories", "reserves", "youth", "schools", "website"}
	for i := range 1000 {
		q := words[i%len(words)] + " " + words[(i/len(words))%len(words)]
		_, _, err := st.AddTopicWatch(t.Context(), store.TopicWatch{UserID: "U" + strings.Repeat("9", i%3) + string(rune('A'+i%26)) + string(rune('A'+i/26%26)), Query: q, CreatedBy: "U1"}, 1000)
		require.NoError(t, err)
	}
	clock.Add(time.Minute)
	before := h.records.Count("", "")
	sum := poll()
	assert.Equal(t, 1001, sum.TopicWatches)
	assert.Equal(t, perPoll, h.records.Count("", "")-before, "1,000 watches cost no more records calls than one")

	past := clock.Now().Add(-24 * time.Hour)
	h.records.AddMeeting(recordstest.Meeting{ID: "mtg_cost", Title: "Finance", Committee: "Finance", Date: past})
	h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_cost", Status: "approved",
		Body: "The library levy was discussed at length, and the trustees agreed to consult."})
	clock.Add(time.Minute)
	sum = poll()
	t.Logf("1,000 watches, one newly visible minutes: %d confirmed against the index, %d told", sum.TopicsScreened, sum.TopicPosts)
	assert.Less(t, sum.TopicsScreened, 30, "the screen keeps the index's work to the few watches that may match")
	assert.Equal(t, 1, sum.TopicPosts, "alice is told; none of the 1,000")
	assert.Equal(t, 0, sum.Failed)
}
