package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/wire"
)

const testSecret = "8f742231b10e8888abcd99yyyzzz85a5"

// harness runs the real bot over httptest, with the in-memory records
// server and the fake Slack Web API, and speaks for Slack through a signed
// sender, exactly as Slack would.
type harness struct {
	t       *testing.T
	now     time.Time
	data    recordstest.Dataset
	records *recordstest.Server
	slack   *slacktest.Server
	bot     *bot.Server
	http    *httptest.Server
	send    *slacktest.Sender
	users   map[string]slacktest.User // by Slack ID
	// minutes is the minutes domain's configuration the bot was built
	// with; rebuild uses it again.
	minutes minutes.Config
	// world is the records service and Slack the bot speaks to.
	world *testworld.World
	// ledger is the store the reminder job's runs share (jobStore).
	ledger *store.Store
	// calendar is the calendar domain the bot was handed (withCalendar);
	// nil for the bot's default.
	calendar *calendar.Service
	// actions is the action domain the bot was handed, which the jobs
	// run by the harness share, as cmd's run hands its one to each.
	actions *actions.Service
	// admins are ADMIN_USER_IDS (withAdmins), for the watcher's own action
	// domain (watcherDeps).
	admins []string
	// metrics is the set rebuild gave the bot (nil otherwise): scrape
	// reads it.
	metrics *metrics.Set
}

// jobStore is the store the jobs run by this harness share (opened on
// first use, SQLite): their exactly-once ledger.
func (h *harness) jobStore() *store.Store {
	h.t.Helper()
	if h.ledger == nil {
		h.ledger = openTestStore(h.t, "sqlite")
	}
	return h.ledger
}

// harnessSetup is what harness options edit before the bot starts: the
// bot's configuration, and the action and minutes domains cmd builds
// once and hands to the bot. data is nil in rebuild (the world has
// started by then).
type harnessSetup struct {
	cfg      *bot.Config
	actions  *actions.Config
	minutes  *minutes.Config
	data     *recordstest.Dataset
	calendar *calendarSetup
	// records and slack are how the clients reach the fakes: empty, the
	// world's own.
	records *wire.Records
	slack   *wire.Slack
}

// calendarSetup is the calendar domain a harness bot gets: built, as cmd
// builds it, over the records client, the minutes and actions domains,
// when on.
type calendarSetup struct {
	on  bool
	cfg calendar.Config
	// tokens, when set, turns the private feeds on with it and a test key.
	tokens calendar.Tokens
	// built is the service handed to the bot.
	built *calendar.Service
}

type harnessOption func(harnessSetup)

type botConfig = bot.Config

// withAdmins sets ADMIN_USER_IDS, the action domain's admins.
func withAdmins(ids ...string) harnessOption {
	return func(s harnessSetup) { s.actions.Admins = ids }
}

// withVisibility sets ACTIONS_VISIBILITY (the harness, like the bot,
// defaults to own).
func withVisibility(v actions.Visibility) harnessOption {
	return func(s harnessSetup) { s.actions.Visibility = v }
}

// withActions edits the action domain's configuration (the cache TTLs,
// RECORDS_TIMEZONE, USER_MAP).
func withActions(f func(*actions.Config)) harnessOption {
	return func(s harnessSetup) { f(s.actions) }
}

func withConfig(f func(*bot.Config)) harnessOption {
	return func(s harnessSetup) { f(s.cfg) }
}

// withMinutes edits the minutes domain's configuration (PUBLIC_URL,
// PUBLIC_MINUTES).
func withMinutes(f func(*minutes.Config)) harnessOption {
	return func(s harnessSetup) { f(s.minutes) }
}

// withDatasetOf builds the world's records as they stand on day rather
// than today: for goldens and tests that quote dates or weekdays, which
// would otherwise change with the day the tests run.
func withDatasetOf(day time.Time) harnessOption {
	return func(s harnessSetup) { *s.data = testworld.Dataset(day) }
}

// goldenDay is the day the golden pages were drawn on (a Friday).
var goldenDay = time.Date(2026, time.November, 27, 12, 0, 0, 0, time.UTC)

func withDataset(f func(*recordstest.Dataset)) harnessOption {
	return func(s harnessSetup) { f(s.data) }
}

// withRecords points the records client at url (another records service
// over the harness's data: a dialect, a fault), made with opts.
func withRecords(url string, opts ...apiclient.Option) harnessOption {
	return func(s harnessSetup) {
		s.records.URL = url
		s.records.Options = append(s.records.Options, opts...)
	}
}

// withSlackHTTPClient makes the Slack client's calls with hc (a shorter
// timeout, say).
func withSlackHTTPClient(hc *http.Client) harnessOption {
	return func(s harnessSetup) { s.slack.HTTPClient = hc }
}

// testMinutesConfig is the minutes domain of every harness bot: public
// pages on, at the address Slack's links use.
func testMinutesConfig() minutes.Config {
	return minutes.Config{PublicURL: "https://records-bot.example.org", Public: true}
}

func newHarness(t *testing.T, opts ...harnessOption) *harness {
	t.Helper()
	return newHarnessDeps(t, bot.Deps{}, opts...)
}

// newHarnessDeps is newHarness with some of the bot's dependencies given
// (its clock, say: Slack's requests are then signed by the same clock).
func newHarnessDeps(t *testing.T, deps bot.Deps, opts ...harnessOption) *harness {
	t.Helper()
	now := time.Now()
	data := testworld.Dataset(now)
	cfg := bot.Config{
		SigningSecret: testSecret,
		AckBudget:     2 * time.Second,
		// Every test reads pages from 127.0.0.1; the tests of the public
		// limits set their own.
		Public: bot.PublicLimits{PerClient: 1e6, PerClientBurst: 1e6, RecordsCalls: 1e6, RecordsBurst: 1e6},
	}
	mcfg := testMinutesConfig()
	// An action's own link is at the public pages' address.
	acfg := actions.Config{PublicURL: mcfg.PublicURL}
	var ccfg calendarSetup
	var rcfg wire.Records
	var scfg wire.Slack
	for _, o := range opts {
		o(harnessSetup{cfg: &cfg, actions: &acfg, minutes: &mcfg, data: &data, calendar: &ccfg, records: &rcfg, slack: &scfg})
	}
	// ORG_LANGUAGE, as serve wires it: the action domain decides the
	// reader's language.
	acfg.Language = cfg.Language
	h := &harness{t: t, now: now, data: data, minutes: mcfg, users: map[string]slacktest.User{}}
	// Erin is a Slack guest (testworld.GuestID).
	users := testworld.WithGuest(sampleorg.SlackUsers(data.People))
	for i := range users {
		users[i].TZ = "Europe/London"
	}
	// A member the records know nothing of, and one whose email Slack
	// does not share.
	users = append(users,
		slacktest.User{ID: "U0STRANGER", Name: "stranger", RealName: "Sam Stranger", Email: "sam@elsewhere.example"},
		slacktest.User{ID: "U0NOEMAIL", Name: "noemail", RealName: "No Email"})
	for _, u := range users {
		h.users[u.ID] = u
	}
	w := testworld.Start(t, data, users)
	h.world, h.records, h.slack = w, w.Records, w.Slack
	// A test may replace h.bot and h.http (see rebuild); bottest's cleanup
	// ends the ones started here, which would otherwise outlive the test.
	// The clients and the domains are built once, by the wiring serve
	// uses, and handed in.
	wcfg := wire.Config{Records: rcfg, Slack: scfg, Actions: acfg, Minutes: mcfg}
	if ccfg.on {
		wcfg.Calendar = ccfg.cfg
		if ccfg.tokens != nil {
			wcfg.CalendarKey, wcfg.CalendarTokens = []byte("test calendar key"), ccfg.tokens
		}
	}
	svc := bottest.Services(t, w, wcfg, deps.Now)
	h.actions, h.admins = svc.Actions, acfg.Admins
	if ccfg.on {
		h.calendar = svc.Calendar
	}
	deps.Logger = testlog.New(t)
	b := bottest.Start(t, w, svc, cfg, deps)
	h.bot, h.http, h.send = b.Server, b.HTTP, b.Send
	h.send.Now = deps.Now
	// Every test also holds the bot to Slack's rule for updates: each
	// version of a message or view has new block IDs.
	t.Cleanup(func() { assert.Empty(t, h.slack.BlockIDReuse(), "block_ids sent again in an updated message or view") })
	// And to mrkdwn: no standard Markdown (# headings, **bold**,
	// [text](url)) reaches Slack, where it would show as written.
	t.Cleanup(func() { assert.Empty(t, h.slack.MarkdownInMrkdwn(), "standard Markdown sent as mrkdwn") })
	return h
}

// addUser adds a Slack member to the workspace.
func (h *harness) addUser(u slacktest.User) {
	h.slack.AddUser(u)
	h.users[u.ID] = u
}

// person returns the test world's person whose first name is first (lowercase).
func (h *harness) person(first string) slacktest.User {
	for _, u := range h.users {
		if u.Name == first {
			return u
		}
	}
	h.t.Fatalf("no person %q in the dataset", first)
	return slacktest.User{}
}

// msg is a Slack message as the bot sent it.
type msg struct {
	ResponseType    string            `json:"response_type"`
	ReplaceOriginal bool              `json:"replace_original"`
	Text            string            `json:"text"`
	Blocks          []json.RawMessage `json:"blocks"`
	raw             []byte
}

func parseMsg(t *testing.T, b []byte) msg {
	t.Helper()
	if len(b) == 0 {
		return msg{} // an empty ack: Slack shows nothing
	}
	var m msg
	require.NoError(t, json.Unmarshal(b, &m), "reply: %s", b)
	m.raw = b
	return m
}

// jsonText re-encodes JSON without Go's HTML escaping, for assertions.
func jsonText(raw []byte) string { return msg{raw: raw}.all() }

// all returns the message's whole JSON as text, for content assertions,
// without Go's HTML escaping of <, > and & (so "&lt;" in a test means the
// bot escaped it for mrkdwn), and with row block IDs without their render
// revision ("action:A1~rev" as "action:A1"), so tests can name rows;
// TestRowBlockIDsAreNewInEachVersion checks the revisions themselves.
func (m msg) all() string {
	var v any
	if json.Unmarshal(m.raw, &v) != nil {
		return string(m.raw)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return revisionRE.ReplaceAllString(b.String(), `$1"`)
}

// revisionRE matches a row block ID with its render revision.
var revisionRE = regexp.MustCompile(`("block_id":"action(?:-buttons)?:[^"]*)~[^"~]*"`)

// stableBlockID is a row block ID without its render revision.
func stableBlockID(id string) string {
	if i := strings.LastIndex(id, "~"); i >= 0 && strings.HasPrefix(id, "action") {
		return id[:i]
	}
	return id
}

// slash sends a slash command, its text as the user typed it (Slack
// escapes it on the way), and returns the inline reply.
func (h *harness) slash(user slacktest.User, command, text string) (msg, *slacktest.Response) {
	h.t.Helper()
	return h.sendSlash(slacktest.Command{User: user, Command: command, Text: text})
}

// slashRaw is slash with text exactly as Slack sends it.
func (h *harness) slashRaw(user slacktest.User, command, sent string) (msg, *slacktest.Response) {
	h.t.Helper()
	return h.sendSlash(slacktest.Command{User: user, Command: command, Text: sent, Escaped: true})
}

func (h *harness) sendSlash(c slacktest.Command) (msg, *slacktest.Response) {
	h.t.Helper()
	r, err := h.send.SlashCommand(h.t.Context(), c)
	require.NoError(h.t, err)
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	return parseMsg(h.t, r.Body), r
}

// element finds the interactive element whose action_id starts with
// actionID and whose value (or one of whose option values) contains
// valuePart, and returns its block ID and JSON.
func (m msg) element(t *testing.T, actionID, valuePart string) (blockID string, el json.RawMessage, option string) {
	t.Helper()
	for _, b := range m.Blocks {
		var blk struct {
			Type      string            `json:"type"`
			BlockID   string            `json:"block_id"`
			Elements  []json.RawMessage `json:"elements"`
			Accessory json.RawMessage   `json:"accessory"`
		}
		require.NoError(t, json.Unmarshal(b, &blk))
		els := blk.Elements
		if blk.Accessory != nil {
			els = append(els, blk.Accessory)
		}
		for _, e := range els {
			var x struct {
				ActionID string `json:"action_id"`
				Value    string `json:"value"`
				Options  []struct {
					Value string `json:"value"`
				} `json:"options"`
			}
			if json.Unmarshal(e, &x) != nil || !strings.HasPrefix(x.ActionID, actionID) {
				continue
			}
			if strings.Contains(x.Value, valuePart) {
				return blk.BlockID, e, ""
			}
			for _, o := range x.Options {
				if strings.Contains(o.Value, valuePart) {
					return blk.BlockID, e, o.Value
				}
			}
		}
	}
	t.Fatalf("no element %s with value containing %q in %s", actionID, valuePart, m.raw)
	return "", nil, ""
}

// clickEphemeral presses an element of an ephemeral reply, as Slack sends
// it (no message in the payload), and returns the response_url posts it
// caused, after waiting for the first.
func (h *harness) clickEphemeral(user slacktest.User, m msg, actionID, valuePart string) []msg {
	h.t.Helper()
	blockID, el, opt := m.element(h.t, actionID, valuePart)
	r, err := h.send.Click(h.t.Context(), slacktest.Click{User: user, Ephemeral: true, BlockID: blockID, Element: el, Option: opt})
	require.NoError(h.t, err)
	require.Equal(h.t, http.StatusOK, r.Status)
	return h.responses(r.ResponseURLID, 1)
}

// screen waits until user sees n ephemeral messages in the default channel
// (as the fake Slack keeps them: see slacktest.Server.Screen) and returns
// what they see, oldest first.
func (h *harness) screen(user slacktest.User, n int) []slacktest.Ephemeral {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(h.t, h.slack.Wait(ctx, func() bool { return len(h.slack.Screen(user.ID, "C0GENERAL")) >= n }),
		"waiting for %d messages on %s's screen", n, user.Name)
	return h.slack.Screen(user.ID, "C0GENERAL")
}

// responses waits for at least n posts to response_url id and returns them.
func (h *harness) responses(id string, n int) []msg {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(h.t, h.slack.Wait(ctx, func() bool { return len(h.slack.ResponsePosts(id)) >= n }),
		"waiting for %d response_url posts to %s", n, id)
	var out []msg
	for _, p := range h.slack.ResponsePosts(id) {
		out = append(out, parseMsg(h.t, p.Body))
	}
	return out
}

// openActionsOf returns the dataset's open and in-progress actions of a
// person's email.
func (h *harness) openActionsOf(email string) []recordstest.Action {
	var out []recordstest.Action
	for _, a := range h.records.Actions() {
		if strings.EqualFold(a.AssigneeEmail, email) && (a.Status == "open" || a.Status == "in_progress") {
			out = append(out, a)
		}
	}
	return out
}

func (h *harness) String() string { return fmt.Sprintf("harness(%s)", h.http.URL) }
