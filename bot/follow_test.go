package bot_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
	"github.com/recordsbot/recordsbot/watch"
)

// storeEngines are the databases the store-backed tests run on: SQLite
// always, PostgreSQL when RECORDSBOT_TEST_POSTGRES names a server (.ci/run
// starts one).
var storeEngines = []string{"sqlite", "postgres"}

// onEachStore runs test, in parallel, on a fresh store of each engine.
func onEachStore(t *testing.T, test func(t *testing.T, st *store.Store)) {
	t.Helper()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			test(t, openTestStore(t, engine))
		})
	}
}

// openTestStore opens a fresh, empty store on engine, closed when the test
// ends: a SQLite file in a temporary directory, or a PostgreSQL schema of
// the test's own, dropped at the end.
func openTestStore(t *testing.T, engine string, opts ...store.Option) *store.Store {
	t.Helper()
	url := "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db")
	if engine == "postgres" {
		url = storetest.PostgresURL(t)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, url, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// newStoreHarness is the harness with the bot rebuilt on a store.
func newStoreHarness(t *testing.T, st bot.Store, opts ...harnessOption) *harness {
	t.Helper()
	h := newHarness(t, withAuditAndRisk())
	h.rebuild(bot.Deps{Store: st}, opts...)
	return h
}

// watcherDeps is what the watcher polls with over the harness's fakes and
// st, as `recordsbot watch` wires it: its own records and Slack clients
// and an uncached action domain (a CronJob reads everything afresh).
func (h *harness) watcherDeps(t *testing.T, st *store.Store) watch.Deps {
	t.Helper()
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL()))
	return watch.Deps{Store: st, Slack: api, Actions: actions.New(rc, slackusers.Directory(api), actions.Config{CacheTTL: -1, Admins: h.admins}),
		Minutes: minutes.New(rc, minutes.Config{}), Logger: testlog.New(t)}
}

// minutesIn sends /minutes text from user in a channel and returns the
// answer, inline or through response_url.
func (h *harness) minutesIn(user slacktest.User, channelID, channelName, text string) msg {
	h.t.Helper()
	m, r := h.sendSlash(slacktest.Command{User: user, Command: "/minutes", Text: text, ChannelID: channelID, ChannelName: channelName})
	if m.raw == nil {
		return h.responses(r.ResponseURLID, 1)[0]
	}
	return m
}

func followKeys(t *testing.T, st *store.Store, channel string) []string {
	t.Helper()
	fs, err := st.FollowsInChannel(t.Context(), channel)
	require.NoError(t, err)
	var out []string
	for _, f := range fs {
		out = append(out, f.Committee+"="+f.CommitteeKey)
	}
	return out
}

func TestFollowUnfollowFollowing(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newStoreHarness(t, st)
		alice := h.person("alice")
		const general = "C0GENERAL"

		got := h.minutesIn(alice, general, "general", "following")
		assert.Contains(t, got.all(), "doesn't follow any committee yet")

		// Case-insensitive prefix, resolved to the records' spelling.
		got = h.minutesIn(alice, general, "general", "follow FIN")
		assert.Equal(t, slack.ResponseTypeInChannel, got.ResponseType, "the channel hears that it follows")
		assert.Contains(t, got.Text, "follow *Finance*")
		assert.Contains(t, got.Text, "published (as a draft) or approved; nothing from before today")
		assert.Equal(t, []string{"Finance=finance"}, followKeys(t, st, general))
		fs, err := st.FollowsInChannel(t.Context(), general)
		require.NoError(t, err)
		assert.Equal(t, alice.ID, fs[0].By)
		assert.False(t, fs[0].Baselined, "the watcher takes the baseline")

		got = h.minutesIn(alice, general, "general", "follow finance")
		assert.Contains(t, got.Text, "already follows *Finance*")

		// Slack sends "Audit &amp; Risk"; the store has the name as typed.
		got = h.minutesIn(alice, general, "general", "follow audit & r")
		assert.Contains(t, got.Text, "*Audit &amp; Risk*", "escaped once, in the message")
		assert.Equal(t, []string{"Audit & Risk=audit & risk", "Finance=finance"}, followKeys(t, st, general))

		got = h.minutesIn(alice, general, "general", "following")
		assert.Contains(t, got.all(), "*Audit &amp; Risk*, since")
		assert.Contains(t, got.all(), "*Finance*, since")
		assert.Contains(t, got.all(), "by <@"+alice.ID+">")

		// A prefix of two committees is neither.
		got = h.minutesIn(alice, general, "general", "follow f")
		assert.Contains(t, got.Text, "`f` could be *Facilities* or *Finance*")

		got = h.minutesIn(alice, general, "general", "follow Zoning Board")
		assert.Contains(t, got.Text, "I found no committee called `Zoning Board`")
		for _, c := range []string{"*Audit &amp; Risk*", "*Community Outreach*", "*Facilities*", "*Finance*", "*Governance*"} {
			assert.Contains(t, got.Text, c, "the answer lists the committees there are")
		}

		got = h.minutesIn(alice, general, "general", "unfollow FIN")
		assert.Contains(t, got.Text, "no longer follows *Finance*")
		assert.Equal(t, []string{"Audit & Risk=audit & risk"}, followKeys(t, st, general))

		got = h.minutesIn(alice, general, "general", "unfollow governance")
		assert.Contains(t, got.Text, "doesn't follow `governance`. It follows *Audit &amp; Risk*")

		// Another channel's follows are its own.
		got = h.minutesIn(alice, "C0OTHER", "other", "following")
		assert.Contains(t, got.Text, "doesn't follow any committee yet")

		got = h.minutesIn(alice, general, "general", "follow")
		assert.Contains(t, got.Text, "Which committee?")
	})
}

func TestFollowNeedsTheBotInTheChannel(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newStoreHarness(t, st)
	alice := h.person("alice")
	h.slack.SetBotInChannel("C0OUT", false)
	h.slack.AddChannel(slacktest.Channel{ID: "C0PRIV", Name: "board", Kind: slacktest.ChannelPrivate})
	h.slack.AddChannel(slacktest.Channel{ID: "G0MPIM", Name: "mpdm-alice--bob-1", Kind: slacktest.ChannelMPIM})
	h.slack.AddChannel(slacktest.Channel{ID: "D0PEOPLE", Kind: slacktest.ChannelIM})

	tests := map[string]struct {
		channel, name string
		want          string
	}{
		"public channel without the bot": {"C0OUT", "random", "Invite me with `/invite @recordsbot`"},
		"private channel without it":     {"C0PRIV", "board", "I'm not in this private channel"},
		"a DM between people":            {"D0PEOPLE", "directmessage", "`/invite` can't add me"},
		"a group DM":                     {"G0MPIM", "mpdm-alice--bob-1", "Slack doesn't let apps into a group DM"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := h.minutesIn(alice, tt.channel, tt.name, "follow finance")
			assert.Contains(t, got.Text, tt.want)
			assert.Equal(t, slack.ResponseTypeEphemeral, got.ResponseType)
			assert.Empty(t, followKeys(t, st, tt.channel), "nothing saved")
		})
	}
	h.slack.AddChannel(slacktest.Channel{ID: "C0PRIV", Name: "board", Kind: slacktest.ChannelPrivate, BotMember: true})
	got := h.minutesIn(alice, "C0PRIV", "board", "follow finance")
	assert.Contains(t, got.Text, "follow *Finance*", "once invited, it works")
	assert.Equal(t, []string{"Finance=finance"}, followKeys(t, st, "C0PRIV"))
}

func TestFollowAdminsOnly(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t)
	alice, bob := h.person("alice"), h.person("bob")
	h.rebuild(bot.Deps{Store: st}, withConfig(func(c *bot.Config) { c.Follows.AdminsOnly = true }), withAdmins(bob.ID))

	got := h.minutesIn(alice, "C0GENERAL", "general", "follow finance")
	assert.Contains(t, got.Text, "Only the app's admins")
	assert.Empty(t, followKeys(t, st, "C0GENERAL"))

	got = h.minutesIn(bob, "C0GENERAL", "general", "follow finance")
	assert.Contains(t, got.Text, "follow *Finance*")

	got = h.minutesIn(alice, "C0GENERAL", "general", "unfollow finance")
	assert.Contains(t, got.Text, "Only the app's admins")
	got = h.minutesIn(alice, "C0GENERAL", "general", "following")
	assert.Contains(t, got.all(), "*Finance*", "anyone may see what the channel follows")
	assert.Equal(t, []string{"Finance=finance"}, followKeys(t, st, "C0GENERAL"))
}

func TestFollowWhileTheStoreIsDown(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t)
	alice := h.person("alice")
	h.rebuild(bot.Deps{Store: st})
	require.NoError(t, st.Close())

	for _, text := range []string{"follow finance", "unfollow finance", "following"} {
		got := h.minutesIn(alice, "C0GENERAL", "general", text)
		assert.Contains(t, got.Text, "I can't reach my database right now", text)
		assert.Contains(t, got.Text, "Nothing is lost", text)
	}
	got := h.minutesIn(alice, "C0GENERAL", "general", "finance")
	assert.Contains(t, got.all(), "Finance", "minutes need no store and keep working")
	assert.NotContains(t, got.all(), "database")
}

// What each command costs, and that unfollow and following need only the
// store: they keep working while the records service is down.
func TestFollowCallsAndARecordsOutage(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newStoreHarness(t, st)
	alice := h.person("alice")

	h.records.ResetRequests()
	got := h.minutesIn(alice, "C0GENERAL", "general", "follow finance")
	require.Contains(t, got.Text, "follow *Finance*")
	whole := h.records.Count(http.MethodGet, "/meetings")
	assert.Equal(t, 1, whole, "a whole name is found on the first page of meetings")
	assert.Zero(t, h.records.Count(http.MethodGet, "/minutes"), "no minutes are read to follow")
	assert.Len(t, h.slack.Calls("conversations.info"), 1, "one membership check")
	h.records.ResetRequests()
	got = h.minutesIn(alice, "C0GENERAL", "general", "follow fin")
	require.Contains(t, got.Text, "already follows *Finance*")
	prefix := h.records.Count(http.MethodGet, "/meetings")
	assert.LessOrEqual(t, prefix, 10, "a prefix reads every page, at most the 10 /minutes reads")
	t.Logf("follow: %d page(s) of meetings for a whole name, %d for a prefix; 1 conversations.info each", whole, prefix)

	h.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	got = h.minutesIn(alice, "C0GENERAL", "general", "following")
	assert.Contains(t, got.all(), "*Finance*")
	got = h.minutesIn(alice, "C0GENERAL", "general", "unfollow fin")
	assert.Contains(t, got.Text, "no longer follows *Finance*")
	got = h.minutesIn(alice, "C0GENERAL", "general", "follow finance")
	assert.Contains(t, got.Text, "records service isn't answering", "follow needs the records to know the committee")
	assert.Empty(t, followKeys(t, st, "C0GENERAL"))
	assert.Len(t, h.slack.Calls("conversations.info"), 2, "unfollow and following ask Slack nothing")
}

// TestFollowTakesTheBaselineAtOnce: /minutes follow takes the baseline
// when the follow is made (watch.Baseline, as serve wires it), so minutes
// published between the follow and the watcher's next poll are announced
// by that poll, and nothing from before the follow is.
func TestFollowTakesTheBaselineAtOnce(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, withAuditAndRisk())
		wdeps := h.watcherDeps(t, st)
		h.rebuild(bot.Deps{Store: st, Baseline: func(ctx context.Context, f store.Follow) error {
			return watch.Baseline(ctx, watch.Config{}, wdeps, f)
		}})
		alice := h.person("alice")
		const general = "C0GENERAL"

		got := h.minutesIn(alice, general, "general", "follow finance")
		require.Contains(t, got.Text, "follow *Finance*")
		fs, err := st.FollowsInChannel(t.Context(), general)
		require.NoError(t, err)
		require.Len(t, fs, 1)
		assert.True(t, fs[0].Baselined, "taken when the follow was made")

		h.records.AddMeeting(recordstest.Meeting{ID: "mtg_fin_new", Title: "Finance Committee: Extra", Committee: "Finance", Date: time.Now().UTC()})
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "mtg_fin_new", Status: "published_draft", Body: "A draft."})
		sum, err := watch.Poll(t.Context(), watch.Config{}, wdeps)
		require.NoError(t, err)
		assert.Equal(t, 1, sum.Announced, "only what was published after the follow: %s", sum)
		var posts []slacktest.Message
		for _, m := range h.slack.Messages(general) {
			if !m.Ephemeral && m.ThreadTS == "" && strings.Contains(string(m.Blocks), "Extra") {
				posts = append(posts, m)
			}
		}
		assert.Len(t, posts, 1)
	})
}
