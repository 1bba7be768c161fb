package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// newSearchHarness is the bot on st, the test world's minutes indexed by
// a backfill pass over its records service (with a meeting whose minutes
// are in review, which must never be found).
func newSearchHarness(t *testing.T, st *store.Store) *harness {
	t.Helper()
	h := newHarness(t, withAuditAndRisk(), withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "SECRET-1", Title: "Staffing, closed session", Committee: "Finance", Date: time.Now().AddDate(0, 0, -3)})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "SECRET-1", Status: "in_review", Body: "The budget for the zanzibar redundancies."})
	}))
	h.rebuild(bot.Deps{Store: st})
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	b := &minutes.Backfill{Records: rc, Index: st, State: st, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	_, err = b.Pass(t.Context())
	require.NoError(t, err)
	return h
}

// newSearchHarnessWith is newSearchHarness with more minutes in the
// records.
func newSearchHarnessWith(t *testing.T, st *store.Store, more func(d *recordstest.Dataset)) *harness {
	t.Helper()
	h := newHarness(t, withAuditAndRisk(), withDataset(more))
	h.rebuild(bot.Deps{Store: st})
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	b := &minutes.Backfill{Records: rc, Index: st, State: st, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	_, err = b.Pass(t.Context())
	require.NoError(t, err)
	return h
}

// search sends /minutes search <typed> and returns the answer.
func (h *harness) search(typed string) msg {
	h.t.Helper()
	return h.minutesIn(h.person("alice"), "C0GENERAL", "general", "search "+typed)
}

func TestMinutesSearch(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarness(t, st)
		alice := h.person("alice")

		m := h.search("budgets")
		text := m.all()
		assert.Contains(t, text, "Minutes mentioning “budgets”")
		assert.Contains(t, text, "*budget*", "the matched word in bold (stemmed: budgets finds budget)")
		assert.Contains(t, text, `"text":"Read"`)
		assert.Contains(t, text, "minutes:share")
		assert.NotContains(t, text, "zanzibar", "minutes in review are never found")
		assert.Contains(t, h.search("zanzibar").all(), "No minutes mention “zanzibar”.")

		// More redraws the results in place with the next ones.
		require.Contains(t, text, "search:more", "more than a page of minutes mention the budget")
		next := h.clickEphemeral(alice, m, "search:more", "")[0]
		assert.True(t, next.ReplaceOriginal, "the results are replaced")
		assert.Contains(t, next.all(), "(from result 6)")
		assert.NotEqual(t, m.all(), next.all())

		// Share in channel, as from /minutes.
		posts := h.clickEphemeral(alice, m, "minutes:share", "")
		assert.Contains(t, posts[0].Text, "Shared")
		require.Len(t, h.slack.Messages("C0GENERAL"), 1, "posted to the channel as the bot")

		// A phrase, and a committee.
		// SQLite marks a phrase as one run, PostgreSQL word by word.
		assert.Regexp(t, `(?i)\*room( |\* \*)hire\*`, h.search(`"room hire"`).all())
		assert.Contains(t, h.search("committee:xyz budget").all(), "No minutes mention")

		// Whatever is typed is an answer, never an error.
		for _, typed := range []string{`"open`, `NEAR(budget`, `budget*`, `-budget`, `a:b`, `OR`, `((`, "\u00a0", `committee:`, `&lt;b&gt;`} {
			got := h.search(typed).all()
			assert.Regexp(t, "Minutes mentioning|No minutes mention|Type the words", got, "typed %q", typed)
			assert.NotContains(t, got, "Something went wrong", "typed %q", typed)
		}
		assert.Contains(t, h.search("").all(), "Type the words to look for")
	})
}

func TestMinutesSearchWithoutStore(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	got := h.search("budget").all()
	assert.Contains(t, got, "Search isn't set up here")
}

// TestMinutesSearchHostileSnippets: minutes whose text spells out Markdown,
// mentions and mrkdwn's style characters (HTML minutes keep them as text;
// Markdown minutes escape them) are found, and their snippet reaches Slack
// escaped once, without standard Markdown (the harness fails any test that
// sends some) and with no bold but the matched word.
func TestMinutesSearchHostileSnippets(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarnessWith(t, st, func(d *recordstest.Dataset) {
			d.Meetings = append(d.Meetings,
				recordstest.Meeting{ID: "HOSTILE-1", Title: "Hostile HTML", Committee: "Finance", Date: time.Now().AddDate(0, 0, -2)},
				recordstest.Meeting{ID: "HOSTILE-2", Title: "Hostile Markdown", Committee: "Finance", Date: time.Now().AddDate(0, 0, -3)})
			d.Minutes = append(d.Minutes,
				recordstest.Minutes{MeetingID: "HOSTILE-1", Status: "approved", HTML: true,
					Body: "<p># Minutes **final** [the report](https://evil.example/x) &lt;!channel&gt; *Note:* the zeppelin fund &amp; _draft_ ~x~ `y`</p>"},
				recordstest.Minutes{MeetingID: "HOSTILE-2", Status: "approved",
					Body: "\\# Heading \\*\\*bold\\*\\* \\[a\\](https://evil.example/y) the zeppelin hangar <!here>"})
		})
		got := h.search("zeppelin").all()
		assert.Contains(t, got, "Hostile HTML")
		assert.Contains(t, got, "Hostile Markdown")
		assert.Contains(t, got, "*zeppelin*", "the matched word in bold")
		assert.Contains(t, got, "&lt;!channel&gt;", "a mention stays text")
		assert.Contains(t, got, "&lt;!here&gt;")
		assert.NotContains(t, got, "<!channel>")
		assert.NotContains(t, got, "<!here>")
		assert.Contains(t, got, "&amp;", "escaped once")
		assert.NotContains(t, got, "&amp;amp;")
		assert.Contains(t, got, "∗Note:∗", "the record's asterisks are not bold")
		assert.Contains(t, got, "∗∗final∗∗")
		assert.Empty(t, h.slack.MarkdownInMrkdwn(), "no standard Markdown reaches Slack")
	})
}

// TestMinutesLinkRule: a reader gets one link to a meeting's minutes
// whichever surface shows them (minutes.Service.URL): the bot's page
// while PUBLIC_MINUTES serves it, even when the record has a URL of its
// own; with the pages off, the record's URL.
func TestMinutesLinkRule(t *testing.T) {
	t.Parallel()
	const own = "https://records.example.org/minutes/link-1"
	for _, public := range []bool{true, false} {
		t.Run(map[bool]string{true: "pages on", false: "pages off"}[public], func(t *testing.T) {
			t.Parallel()
			onEachStore(t, func(t *testing.T, st *store.Store) {
				h := newHarness(t, withMinutes(func(c *minutes.Config) { c.Public = public }), withDataset(func(d *recordstest.Dataset) {
					d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "LINK-1", Title: "Quokka survey", Committee: "Finance", Date: time.Now().AddDate(0, 0, -2)})
					d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "LINK-1", Status: "approved", URL: own, Body: "The quokka survey was received."})
				}))
				h.rebuild(bot.Deps{Store: st})
				rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
				require.NoError(t, err)
				b := &minutes.Backfill{Records: rc, Index: st, State: st, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
				_, err = b.Pass(t.Context())
				require.NoError(t, err)

				want := own
				if public {
					want = "https://records-bot.example.org/minutes/LINK-1"
				}
				view, _ := h.slash(h.person("alice"), "/minutes", "LINK-1")
				found := h.search("quokka")
				require.Contains(t, found.all(), "Quokka survey")
				for surface, got := range map[string]string{"/minutes LINK-1": view.all(), "/minutes search": found.all()} {
					assert.Contains(t, got, `"url":"`+want+`"`, "%s links to %s", surface, want)
				}
			})
		})
	}
}
