package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// editPosts are the posts telling of an edit after approval in a
// conversation.
func editPosts(h *harness, channel string) []slacktest.Message {
	return postsOf(h, channel, blocks.EventMinutesEdited)
}

// TestMinutesVersions walks minutes from draft to approval to an edit
// after approval, as a following channel, an admin, a member and a reader
// of the public page see them: the approval reply says what changed, the
// page and /minutes say "Approved on …; 1 change since the draft of …"
// and link to a readable comparison, an edit after approval is told once
// to the channel and the admin and is an entry in the audit trail with
// the old and new hashes; a draft that changes, minutes withdrawn and
// published again as they were, and an approval as drafted raise nothing.
func TestMinutesVersions(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			testMinutesVersions(t, engine)
		})
	}
}

func testMinutesVersions(t *testing.T, engine string) {
	{
		// One clock for the store and the watcher, as in production.
		clock := &testClock{t: time.Now().UTC()}
		st := openTestStore(t, engine, store.WithClock(clock.Now))
		// Erin, a Slack guest, is listed as an admin too: admin powers fail
		// closed, so she is not told of edits.
		h := newStoreHarness(t, st, withAdmins("U0BOB", testworld.GuestID), withMinutes(func(c *minutes.Config) { c.History = st }))
		alice := h.person("alice")
		require.Equal(t, "U0BOB", h.person("bob").ID)
		const general = "C0GENERAL"
		require.Contains(t, h.minutesIn(alice, general, "general", "follow finance").Text, "follow *Finance*")
		wdeps := h.watcherDeps(t, st)
		wcfg := watch.Config{Now: clock.Now, Admins: []string{"U0BOB", testworld.GuestID}}
		poll := func() watch.Summary {
			t.Helper()
			clock.Add(time.Minute)
			sum, err := watch.Poll(t.Context(), wcfg, wdeps)
			require.NoError(t, err)
			return sum
		}
		poll()

		past := clock.Now().Add(-48 * time.Hour)
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_v", Title: "Finance, levy", Committee: "Finance", Date: past})
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "published_draft",
			Body: "# Levy\n\nPresent: Ana, Ben.\n\nThe levy is set at **3%** for next year."})
		assert.Equal(t, 1, poll().Announced)
		clock.Add(24 * time.Hour)
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "published_draft",
			Body: "# Levy\n\nPresent: Ana, Ben, Cy.\n\nThe levy is set at **3%** for next year."})
		assert.Equal(t, 0, poll().Edits, "a draft that changes is not an edit: drafts change")

		clock.Add(24 * time.Hour)
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "approved",
			Body: "<h1>Levy</h1><p>Present: Ana, Ben, Cy.</p><p>The levy is set at <b>4%</b> for next year.</p>", HTML: true})
		sum := poll()
		assert.Equal(t, 1, sum.Approved)
		var reply string
		for _, m := range h.slack.Messages(general) {
			if m.ThreadTS != "" {
				reply = string(m.Blocks)
			}
		}
		assert.Contains(t, reply, "is now approved, with 1 change since the draft", "the channel hears what approval changed (HTML and Markdown compare as text)")

		vs, err := st.MinutesVersions(t.Context(), "mtg_v")
		require.NoError(t, err)
		require.Len(t, vs, 3, "the two drafts and the approval")

		got := h.minutesIn(alice, general, "general", "mtg_v")
		assert.Contains(t, got.all(), "1 change since the draft of", "/minutes says it")
		// Slack draws {date_short_pretty} as "today": "Approved on today".
		assert.Regexp(t, `Approved on <!date\^\d+\^\{date_short\}\|[^>]+>; 1 change since the draft of <!date\^\d+\^\{date_short\}\|`, got.all(),
			"the dates after \"on\" and \"of\" are never drawn as today or yesterday")
		assert.Contains(t, got.all(), "See what changed")

		page := h.fetchPage("", "/minutes/mtg_v", nil)
		require.Equal(t, http.StatusOK, page.status)
		assert.Contains(t, page.body, "1 change since the draft of")
		assert.Contains(t, page.body, `href="?changes=2-3"`)
		changes := h.fetchPage("", "/minutes/mtg_v?changes=2-3", nil)
		require.Equal(t, http.StatusOK, changes.status)
		assert.Contains(t, changes.body, "<del>3%</del>")
		assert.Contains(t, changes.body, "<ins>4%</ins>")
		notKept := h.fetchPage("", "/minutes/mtg_v?changes=1-9", nil)
		assert.Equal(t, http.StatusNotFound, notKept.status, "a version not kept")
		// The minutes are there: the page says the comparison is not, and
		// leads to them, rather than "no published minutes here".
		assert.Contains(t, notKept.body, "No such comparison")
		assert.NotContains(t, notKept.body, "No published minutes here")
		assert.Contains(t, notKept.body, `<a href="./mtg_v">Read the minutes</a>`)
		assert.Equal(t, http.StatusNotFound, h.fetchPage("", "/minutes/mtg_v?changes=..%2F", nil).status)

		// An edit after approval: the watcher does not read approved
		// minutes again; a reader's /minutes does (or the daily backfill
		// at the latest), and the next poll tells of it once, to the
		// channel and the admin.
		clock.Add(24 * time.Hour)
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "approved",
			Body: "<h1>Levy</h1><p>Present: Ana, Ben, Cy.</p><p>The levy is set at <b>5%</b> for next year.</p>", HTML: true})
		assert.Contains(t, h.minutesIn(alice, general, "general", "mtg_v").all(), "Edited after approval on")
		sum = poll()
		assert.Equal(t, 2, sum.Edits)
		ch := editPosts(h, general)
		require.Len(t, ch, 1)
		assert.Contains(t, ch[0].Text, "changed after its approval: 1 change")
		assert.Contains(t, string(ch[0].Blocks), "~4%~ *5%*")
		admin := editPosts(h, "DU0BOB")
		require.Len(t, admin, 1)
		assert.Contains(t, string(admin[0].Blocks), "as an admin of recordsbot")
		assert.Empty(t, editPosts(h, "D"+testworld.GuestID), "a guest listed as an admin is not told")
		assert.Equal(t, 0, poll().Edits, "told once")

		feed := h.fetchPage("", "/minutes/feed.atom", nil)
		require.Equal(t, http.StatusOK, feed.status)
		assert.Contains(t, feed.body, `<category term="edited" label="Edited after approval"></category>`, "the feed marks the entry updated")
		assert.Contains(t, feed.body, "<published>")

		entries, err := st.AuditOf(t.Context(), "mtg_v", 10)
		require.NoError(t, err)
		require.Len(t, entries, 1)
		assert.Equal(t, audit.MinutesEdited, entries[0].Kind)
		vs, err = st.MinutesVersions(t.Context(), "mtg_v")
		require.NoError(t, err)
		require.Len(t, vs, 4)
		assert.Equal(t, vs[2].Hash, entries[0].From)
		assert.Equal(t, vs[3].Hash, entries[0].To)

		// Withdrawn, then published again as it was: nothing new.
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "in_review", Body: "x"})
		h.minutesIn(alice, general, "general", "mtg_v")
		poll()
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_v", Status: "approved",
			Body: "<h1>Levy</h1><p>Present: Ana, Ben, Cy.</p><p>The levy is set at <b>5%</b> for next year.</p>", HTML: true})
		h.minutesIn(alice, general, "general", "mtg_v")
		assert.Equal(t, 0, poll().Edits)
		vs, err = st.MinutesVersions(t.Context(), "mtg_v")
		require.NoError(t, err)
		assert.Len(t, vs, 4, "a draft never published stays unseen; the same text again is no version")

		// Approved as drafted.
		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_w", Title: "Finance, audit", Committee: "Finance", Date: past})
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_w", Status: "published_draft", Body: "Audit quotes were sought."})
		poll()
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_w", Status: "approved", Body: "Audit quotes were sought."})
		poll()
		reply = ""
		for _, m := range h.slack.Messages(general) {
			if m.ThreadTS != "" && strings.Contains(string(m.Blocks), "Finance, audit") {
				reply = string(m.Blocks)
			}
		}
		assert.Contains(t, reply, "is now approved, as drafted")
	}
}
