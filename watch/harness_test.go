package watch_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktest"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
	"github.com/recordsbot/recordsbot/watch"
)

// The watcher's tests run on both store engines (storetest).
type engine = storetest.Engine

var (
	engines    = storetest.Engines
	eachEngine = storetest.EachEngine
)

// People of the fake organisation, in the records and in Slack.
var (
	alice = slacktest.User{ID: "U0ALICE", Name: "alice", RealName: "Alice Jones", Email: "alice@example.org"}
	bob   = slacktest.User{ID: "U0BOB", Name: "bob", RealName: "Bob Patel", Email: "bob@example.org"}
	carol = slacktest.User{ID: "U0CAROL", Name: "carol", RealName: "Carol Wu", Email: "carol@example.org"}
)

const (
	finChannel = "C0FINANCE"
	allChannel = "C0ALL"
)

// env is one organisation: the records service, Slack and a database.
type env struct {
	t       *testing.T
	records *recordstest.Server
	slack   *slacktest.Server
	url     string           // DATABASE_URL
	clock   *clocktest.Clock // shared by the watchers and their stores, so leases and locks expire without sleeping
	today   time.Time
}

// newEnv starts the fakes with two past meetings of Finance (minutes
// approved and a published draft) and one of Events, and two actions.
func newEnv(t *testing.T, e engine) *env {
	t.Helper()
	c := clocktest.New(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	today := c.Now().Truncate(24 * time.Hour)
	ds := recordstest.Dataset{
		Meetings: []recordstest.Meeting{
			{ID: "M-1", Reference: "FIN-2026-10", Title: "Finance Committee, October", Committee: "Finance", Date: today.AddDate(0, 0, -40)},
			{ID: "M-2", Reference: "FIN-2026-11", Title: "Finance Committee, November", Committee: "Finance", Date: today.AddDate(0, 0, -10)},
			{ID: "M-3", Title: "Events Committee, November", Committee: "Events", Date: today.AddDate(0, 0, -5)},
		},
		Minutes: []recordstest.Minutes{
			{MeetingID: "M-1", Status: "approved", Body: "Present: all.\n\nThe accounts were approved."},
			{MeetingID: "M-2", Status: "published_draft", Body: "Present: most.\n\nThe budget was discussed."},
		},
		Actions: []recordstest.Action{
			{ID: "A-1", Title: "Circulate the accounts", Status: "open", AssigneeEmail: alice.Email, AssigneeName: alice.RealName, MeetingID: "M-1", Deadline: today.AddDate(0, 0, 7), DateOnly: true},
			{ID: "A-2", Title: "Book the hall", Status: "open", AssigneeEmail: bob.Email, AssigneeName: bob.RealName, MeetingID: "M-3"},
		},
	}
	rs := recordstest.NewServer(recordstest.WithDataset(ds), recordstest.WithPageSize(2), recordstest.WithClock(c.Now))
	t.Cleanup(rs.Close)
	ss := slacktest.NewServer(slacktest.WithUsers(alice, bob, carol))
	t.Cleanup(ss.Close)
	// Announcements carry minutes: none may reach Slack as standard
	// Markdown, which Slack would show as written.
	t.Cleanup(func() { assert.Empty(t, ss.MarkdownInMrkdwn(), "standard Markdown sent as mrkdwn") })
	return &env{t: t, records: rs, slack: ss, url: e.NewURL(t), clock: c, today: today}
}

// watcher is one worker: its own Store, clients and owner name, as a
// replica or a CronJob pod would have.
type watcher struct {
	cfg  watch.Config
	deps watch.Deps
}

func (e *env) watcher(owner string, mod ...func(*watchConfig)) *watcher {
	e.t.Helper()
	st, err := store.Open(e.t.Context(), e.url, store.WithClock(e.clock.Now))
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = st.Close() })
	rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey, apiclient.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(e.t, err)
	api := slack.New("xoxb-test", slack.OptionAPIURL(e.slack.APIURL()))
	// DIGEST_DEFAULT off: the clock stands on a Monday after 09:00, and a
	// test of announcements or DMs should not meet a digest too; a test of
	// digests sets its slot. ACTIONS_VISIBILITY organisation: digests and
	// briefs list people's actions only then, and most tests read those
	// lists (TestChannelCountsActionsUnderOwn reads the default's counts).
	cfg := watchConfig{
		Config:  watch.Config{Owner: owner, Now: e.clock.Now, Follows: follows.Settings{Digest: &clocktime.Weekly{}}},
		Actions: actions.Config{CacheTTL: -1, Now: e.clock.Now, Visibility: actions.VisibleOrganisation},
	}
	for _, m := range mod {
		m(&cfg)
	}
	return &watcher{cfg: cfg.Config, deps: watch.Deps{
		Store:   st,
		Actions: actions.New(rc, slackusers.Directory(api), cfg.Actions),
		Minutes: minutes.New(rc, minutes.Config{PublicURL: "https://bot.example.org", Public: true, Now: e.clock.Now}),
		Slack:   api,
		// Paced as in production, on a clock a thousand times faster: a
		// second between two posts to one channel is a millisecond here.
		Pacer: slackapi.NewPacer(slackapi.PacerOptions{Clock: slacktest.NewScaledClock(e.clock.Now(), 1000)}),
	}}
}

func (w *watcher) poll(t *testing.T) (watch.Summary, error) {
	t.Helper()
	return watch.Poll(t.Context(), w.cfg, w.deps)
}

// mustPoll polls, requires success, and moves the clock on a minute as a
// CronJob's schedule would.
func (e *env) mustPoll(w *watcher) watch.Summary {
	e.t.Helper()
	sum, err := w.poll(e.t)
	require.NoError(e.t, err)
	require.False(e.t, sum.Busy)
	e.clock.Advance(time.Minute)
	return sum
}

// follow records a follow as the bot's /minutes follow does.
func (e *env) follow(w *watcher, channel, committee string) {
	e.t.Helper()
	_, err := w.deps.Store.Follow(e.t.Context(), store.Follow{ChannelID: channel, Committee: committee, CommitteeKey: strings.ToLower(committee), By: alice.ID})
	require.NoError(e.t, err)
}

// post is a message as a person sees it: text, blocks as JSON, metadata.
type post struct {
	slacktest.Message
	text string // every text in the blocks, joined
}

// posts returns the top-level messages in channel (a DM: the user's D…
// channel), oldest first.
func (e *env) posts(channel string) []post {
	var out []post
	for _, m := range e.slack.Messages(channel) {
		if m.Ephemeral || m.ThreadTS != "" {
			continue
		}
		out = append(out, post{Message: m, text: blockText(e.t, m.Blocks)})
	}
	return out
}

// replies returns the thread replies under ts in channel.
func (e *env) replies(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range e.slack.Messages(channel) {
		if m.ThreadTS == ts {
			out = append(out, m)
		}
	}
	return out
}

// dms returns the DMs user was sent.
func (e *env) dms(user string) []post { return e.posts("D" + user) }

// blockText joins every "text" string in the blocks, as a reader scans
// them.
func blockText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return ""
	}
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	var parts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				if s, ok := val.(string); ok && (k == "text" || k == "url" || k == "value") {
					parts = append(parts, s)
				}
				walk(val)
			}
		case []any:
			for _, el := range x {
				walk(el)
			}
		}
	}
	walk(v)
	return strings.Join(parts, "\n")
}

// metadataKey is the ledger key a message carries.
func metadataKey(t *testing.T, m slacktest.Message) string {
	t.Helper()
	var md struct {
		Payload map[string]any `json:"event_payload"`
	}
	if len(m.Metadata) == 0 {
		return ""
	}
	require.NoError(t, json.Unmarshal(m.Metadata, &md))
	k, _ := md.Payload["key"].(string)
	return k
}

// watchConfig is what the option functions of env.watcher edit: the
// watcher's own Config and the action domain's, which holds the
// organisation's zone (RECORDS_TIMEZONE) and USER_MAP, as serve's one
// actions.Service does.
type watchConfig struct {
	watch.Config
	Actions actions.Config
}

func userMap(m map[string]string) actions.UserMap { return actions.NewUserMap(m) }
