package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// TestMain fails the package when a test leaves a goroutine behind: the
// demo starts servers and a reader of stdin, and must stop them all however
// it ends.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// startTestDemo starts the demo's services for one test and stops them
// when it ends.
func startTestDemo(t *testing.T, records ...recordsfake.Option) *demoEnv {
	t.Helper()
	env, err := startDemo(t.Context(), slog.New(slog.DiscardHandler), "test", records...)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, env.close()) })
	return env
}

// runScript runs a non-interactive console over the commands and returns
// what it printed, split by command, and the console's result.
func runScript(t *testing.T, env *demoEnv, opts consoleOptions, commands ...string) (map[string]string, string, error) {
	t.Helper()
	var out bytes.Buffer
	con, err := newConsole(env, &out, opts)
	require.NoError(t, err)
	err = con.run(t.Context(), strings.NewReader(strings.Join(commands, "\n")+"\n"))
	return sections(out.String()), out.String(), err
}

// promptRE matches the echo of a command in a script's output.
var promptRE = regexp.MustCompile(`(?m)^[a-z]+> (.*)$`)

// sections splits a script's output at each echoed command, keyed by the
// command; a command given twice is keyed "cmd#2".
func sections(out string) map[string]string {
	got := map[string]string{}
	idx := promptRE.FindAllStringSubmatchIndex(out, -1)
	for i, m := range idx {
		end := len(out)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		key := out[m[2]:m[3]]
		for n := 2; got[key] != ""; n++ {
			key = out[m[2]:m[3]] + "#" + strconv.Itoa(n)
		}
		got[key] = out[m[1]:end]
	}
	return got
}

// titleAbove returns the text of the line two above the first line holding
// button, which is the bold title of an action row (title, details,
// buttons), without the action's own link the console prints after it.
func titleAbove(t *testing.T, section, button string) string {
	t.Helper()
	title, _, _ := strings.Cut(rowLineAbove(t, section, button), " (http")
	return title
}

// rowLineAbove is the whole line titleAbove reads, link and all.
func rowLineAbove(t *testing.T, section, button string) string {
	t.Helper()
	lines := strings.Split(section, "\n")
	for i, l := range lines {
		if strings.Contains(l, button) {
			require.GreaterOrEqual(t, i, 2, "no title above %q in:\n%s", button, section)
			return strings.TrimSpace(strings.TrimPrefix(lines[i-2], "│"))
		}
	}
	t.Fatalf("no %q in:\n%s", button, section)
	return ""
}

func aliceAction(t *testing.T, env *demoEnv, title string) recordstest.Action {
	t.Helper()
	for _, a := range env.records.Actions() {
		if a.Title == title && a.AssigneeEmail == "alice@example.org" {
			return a
		}
	}
	t.Fatalf("no action of alice's titled %q", title)
	return recordstest.Action{}
}

func TestDemoCompleteMovesTheActionOutOfTheList(t *testing.T) {
	t.Parallel()
	var journal recordstest.Journal
	env := startTestDemo(t, recordsfake.WithMiddleware(journal.Middleware))
	out, all, err := runScript(t, env, consoleOptions{}, "/actions", "click 1", "/actions")
	require.NoError(t, err, all)

	before := out["/actions"]
	title := titleAbove(t, before, "[1] Complete")
	target := aliceAction(t, env, title)
	assert.Contains(t, before, "Your open actions")
	assert.Contains(t, before, "only visible to you")

	assert.Equal(t, "complete", target.Status, "the records service has the new status")
	var puts []recordstest.Request
	for _, r := range journal.Requests() {
		if r.Method == http.MethodPut {
			puts = append(puts, r)
		}
	}
	require.Len(t, puts, 1, "one PUT reached the records service")
	assert.Equal(t, "/api/v1/actions/"+url.PathEscape(target.ID), puts[0].Path)
	assert.Equal(t, http.StatusOK, puts[0].Status)

	click := out["click 1"]
	assert.Contains(t, click, "@alice clicks “Complete”")
	assert.Contains(t, click, "replaces the earlier message", "the ephemeral list is replaced in place")
	assert.Contains(t, click, "Marked complete by @alice today at", "the row says who changed it, the date resolved")
	assert.NotContains(t, click, "<!date", "dates are resolved")

	after := out["/actions#2"]
	assert.Contains(t, after, "Your open actions")
	assert.NotContains(t, after, title, "the completed action is no longer in the open list")
}

func TestDemoMinutesRemindAndHome(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{},
		"/minutes finance", "remind", "click 1", "home", "remind")
	require.NoError(t, err, all)

	t.Run("minutes link to the bot's own page", func(t *testing.T) {
		minutes := out["/minutes finance"]
		assert.Contains(t, minutes, "Finance Committee:")
		assert.Contains(t, minutes, "Share in channel")
		link := regexp.MustCompile(regexp.QuoteMeta(env.botURL) + `/minutes/[^ )]+`).FindString(minutes)
		require.NotEmpty(t, link, "a link to the bot's minutes page in:\n%s", minutes)
		hc := &http.Client{Transport: env.transport}
		resp, err := hc.Get(link)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the printed page opens while the demo runs")
		assert.Contains(t, string(body), "Finance Committee")
	})

	t.Run("remind sends DMs with working buttons", func(t *testing.T) {
		remind := out["remind"]
		assert.Contains(t, remind, "users reminded")
		assert.Contains(t, remind, "recordsbot · DM to you")
		assert.Contains(t, remind, "Action reminder")
		assert.Contains(t, remind, "DMs to other people")
		assert.Contains(t, remind, "@bob ")
		dms := env.slack.Messages("DU0ALICE")
		require.Len(t, dms, 1)

		title := titleAbove(t, remind, "[1] Complete")
		assert.Equal(t, "complete", aliceAction(t, env, title).Status)
		click := out["click 1"]
		assert.Contains(t, click, "DM to you · updated", "the DM is updated in place")
		assert.Contains(t, click, "Marked complete by @alice")
		assert.True(t, env.slack.Messages("DU0ALICE")[0].Edited, "with chat.update")

		again := out["remind#2"]
		assert.Contains(t, again, "0 users reminded")
		assert.Contains(t, again, "no new DMs")
	})

	t.Run("home shows the App Home view", func(t *testing.T) {
		home := out["home"]
		assert.Contains(t, home, "your Home tab")
		assert.Contains(t, home, "Your actions")
		assert.Contains(t, home, "Latest minutes")
		assert.Contains(t, home, "[1] Complete")
		_, ok := env.slack.HomeView("U0ALICE")
		assert.True(t, ok, "the bot published alice's Home tab")
	})
}

func TestDemoClickOnHomeRepublishesIt(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "home", "1")
	require.NoError(t, err, all)
	title := titleAbove(t, out["home"], "[1] Complete")
	assert.Equal(t, "complete", aliceAction(t, env, title).Status)
	assert.Contains(t, out["1"], "your Home tab")
	assert.Contains(t, out["1"], "Marked complete by @alice")
	assert.Len(t, env.slack.Views("U0ALICE"), 2, "opened, then republished after the click")
}

func TestDemoShareAndUnfurl(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/minutes finance", "click 2")
	require.NoError(t, err, all)
	require.Contains(t, out["/minutes finance"], "[2] Share in channel")
	share := out["click 2"]
	assert.Contains(t, share, "recordsbot · in #general")
	assert.Contains(t, share, "Shared by @alice")
	assert.Contains(t, share, "Shared the minutes of")
	assert.Len(t, env.slack.Messages(demoChannel), 1)

	link := regexp.MustCompile(regexp.QuoteMeta(env.botURL) + `/minutes/[^ )]+`).FindString(share)
	require.NotEmpty(t, link)
	out, all, err = runScript(t, env, consoleOptions{As: "bob"}, "post have a look: "+link, "post https://example.org/elsewhere")
	require.NoError(t, err, all)
	unfurl := out["post have a look: "+link]
	assert.Contains(t, unfurl, "@bob in #general")
	assert.Contains(t, unfurl, "recordsbot · unfurls "+link)
	assert.Contains(t, unfurl, "Finance Committee:")
	require.Len(t, env.slack.Unfurls(), 1)
	assert.Contains(t, out["post https://example.org/elsewhere"], "only about links to its own domain")
}

func TestDemoPeople(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/who", "/as Bob", "/actions", "/as nobody")
	require.Error(t, err, "a script with a failed command fails")
	assert.EqualError(t, err, "1 command of the demo script failed")
	assert.Contains(t, out["/who"], "→ @alice")
	assert.Contains(t, out["/who"], "Jamal Johnson")
	assert.Contains(t, out["/as Bob"], "You are now @bob (Bob Brown).")
	assert.Contains(t, all, "bob> /actions", "the prompt names who is speaking")
	title := titleAbove(t, out["/actions"], "Complete")
	assert.NotEmpty(t, title)
	assert.Contains(t, out["/as nobody"], `there is no one called "nobody"`)
}

func TestDemoMentionsAreEscapedAsSlackDoes(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/actions @bob")
	require.NoError(t, err, all)
	// The bot knew the mention for Bob's user ID: its answer (the demo
	// runs with ACTIONS_VISIBILITY's default, own, so Alice may not look)
	// names him back.
	assert.Contains(t, out["/actions @bob"], "I can't show @bob's")
}

func TestDemoConsoleErrors(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, _, err := runScript(t, env, consoleOptions{}, "click 1", "/actions", "click 999", "frobnicate", "# a comment", "", "quit", "/actions")
	assert.EqualError(t, err, "3 commands of the demo script failed")
	assert.Contains(t, out["click 1"], "there are no buttons to click yet")
	assert.Contains(t, out["click 999"], "there is no button [999]")
	assert.Contains(t, out["frobnicate"], `unknown command "frobnicate"`)
	assert.NotContains(t, out, "/actions#2", "nothing runs after quit")
}

func TestDemoJSON(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	_, all, err := runScript(t, env, consoleOptions{JSON: true}, "/actions")
	require.NoError(t, err)
	link := regexp.MustCompile(`Block Kit Builder: (\S+)`).FindStringSubmatch(all)
	require.Len(t, link, 2, all)
	u, err := url.Parse(link[1])
	require.NoError(t, err)
	assert.Equal(t, "app.slack.com", u.Host)
	assert.Equal(t, "/block-kit-builder/", u.Path)
	var payload struct {
		Blocks []json.RawMessage `json:"blocks"`
	}
	require.NoError(t, json.Unmarshal([]byte(u.Fragment), &payload), "the fragment is the message JSON")
	assert.NotEmpty(t, payload.Blocks)
	assert.Contains(t, all, `"action_id": "status:complete"`, "the JSON is printed too")
	assert.Contains(t, all, `<!date^`, "without Go's \\u003c escaping")
}

func TestDemoStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	stdin, feed := io.Pipe()
	var out bytes.Buffer
	con, err := newConsole(env, &out, consoleOptions{Interactive: true})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- con.run(ctx, stdin) }()
	_, err = io.WriteString(feed, "/who\n")
	require.NoError(t, err)
	// The console has taken the line; stdin stays open, as a terminal would.
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err, "a cancelled console ends cleanly")
	case <-time.After(10 * time.Second):
		t.Fatal("the console did not stop when its context ended")
	}
	// The reader of stdin ends with it; TestMain checks that it did.
	feed.Close()
}

func TestWantColour(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"terminal", true, map[string]string{"TERM": "xterm-256color"}, true},
		{"pipe", false, map[string]string{"TERM": "xterm-256color"}, false},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, false},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, wantColour(tt.tty, func(k string) string { return tt.env[k] }))
		})
	}
	assert.False(t, isTerminal(&bytes.Buffer{}), "a buffer is not a terminal")
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "nor is a file")
}

func TestDemoMinutesSearch(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/minutes search room hire", "/minutes search xylophone")
	require.NoError(t, err, all)
	found := out["/minutes search room hire"]
	assert.Contains(t, found, "Minutes mentioning “room hire”")
	assert.Contains(t, found, "Share in channel")
	assert.Contains(t, out["/minutes search xylophone"], "No minutes mention “xylophone”")
}

// TestDemoButtonNumbersStayWhileTheMessageIsOnScreen: after a click
// redraws a message, every button still on it keeps its number, so the
// numbers a person read above still press what they said; a button that
// left the message leaves its number unused, a new one gets the next.
func TestDemoButtonNumbersStayWhileTheMessageIsOnScreen(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	// Each of Alice's rows: three status buttons, the menu's four options
	// (Mark cancelled and three Snooze choices), numbered one by one, and
	// the date picker.
	out, all, err := runScript(t, env, consoleOptions{}, "/actions overdue", "click 1", "click 10", "click 2")
	require.Error(t, err, "the last click presses a button that left")

	before := out["/actions overdue"]
	second := titleAbove(t, before, "[9] Complete")
	require.Contains(t, before, "[10] Start")
	require.Contains(t, before, "[4] ⋯ Mark cancelled")
	require.Contains(t, before, "[5] ⋯ Snooze until tomorrow")
	require.Contains(t, before, "[8] 📅 Snooze until…")
	after := out["click 1"]
	assert.Contains(t, after, "replaces the earlier message")
	assert.Contains(t, before, "Your overdue actions (2)")
	assert.Contains(t, after, "Your overdue actions (1)", "the completed row stays in sight, out of the header's count")
	assert.Equal(t, second, titleAbove(t, after, "[9] Complete"), "the second row's buttons keep [9] to [16]:\n%s", all)
	assert.Contains(t, after, "[10] Start")
	assert.Contains(t, after, "[17] Reopen", "the new button gets a number after the others")
	assert.NotContains(t, after, "[1] ", "[1] Complete left with the change")
	assert.NotContains(t, after, "[5] ", "a completed action offers no Snooze")
	started := out["click 10"]
	assert.Contains(t, started, "@alice clicks “Start”", "[10] is still the second row's Start")
	assert.Contains(t, started, "[9] Complete", "Complete keeps [9] as the row goes in progress")
	assert.Contains(t, started, "[13] ⋯ Snooze until tomorrow", "and Snooze keeps [13]: a status click redraws it")
	assert.Contains(t, started, "Back to open", "an action in progress goes back to open, not reopened")
	assert.Contains(t, out["click 2"], "button [2] has left the message")
}

// TestDemoDrawsDatesInTheReadersLanguage: the screen draws Slack's date
// tokens as Slack does, in the reader's language: after `lang fr` a
// deadline passed yesterday reads "Échéance hier", after `lang de`
// "Fällig gestern", and a follow made today "depuis aujourd’hui"; the
// language is the person's, so it is French again when Alice speaks after
// Bob.
func TestDemoDrawsDatesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{},
		"lang fr", "/actions en-retard", "/minutes follow finance", "/minutes suivis", "/as bob", "/as alice", "/actions overdue", "lang de", "/actions überfällig")
	require.NoError(t, err, all)
	assert.Contains(t, out["/minutes suivis"], "Finance, depuis aujourd’hui, par @alice", "the words around a date token read with \"aujourd’hui\"")
	assert.Contains(t, out["/actions en-retard"], "Échéance hier", all)
	assert.NotContains(t, out["/actions en-retard"], "yesterday")
	assert.Contains(t, out["/actions overdue"], "Échéance hier", "Alice's language is kept while Bob speaks")
	assert.Contains(t, out["/actions überfällig"], "Fällig gestern")
}

// TestDemoLangSwitchesTheSpeakersSlackLocale: `lang fr` is the speaker
// choosing French in Slack: /actions, the Home tab and the reminder DM
// then come in French; a locale recordsbot does not ship reads
// ORG_LANGUAGE (the demo's is English); `lang en` switches back.
func TestDemoLangSwitchesTheSpeakersSlackLocale(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{},
		"lang fr", "/actions", "home", "remind", "lang ja-JP", "/actions help", "lang en", "/actions help", "lang")
	require.Error(t, err, "the last lang has no code")
	assert.Contains(t, out["lang fr"], "fr-FR")
	assert.Contains(t, out["/actions"], "Vos actions ouvertes", all)
	assert.Contains(t, out["home"], "Vos actions")
	assert.Contains(t, out["remind"], "Rappel de vos actions")
	assert.Contains(t, out["/actions help"], "your open actions", "ja-JP is not shipped: ORG_LANGUAGE")
	assert.Contains(t, out["/actions help#2"], "your open actions")
	assert.Contains(t, out["lang"], "lang needs a language")
}

// The demo's bot has a PUBLIC_URL (its own address), so an action's row
// carries the action's own link on its title, as serve's rows do, and the
// link opens the bot's page for it.
func TestDemoActionRowsCarryTheActionsLink(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/actions")
	require.NoError(t, err, all)
	link := regexp.MustCompile(regexp.QuoteMeta(env.botURL) + `/actions/[^ )]+`).FindString(out["/actions"])
	require.NotEmpty(t, link, "a row's title links to the action:\n%s", out["/actions"])
	title := rowLineAbove(t, out["/actions"], "[1] Complete")
	assert.Contains(t, title, env.botURL+"/actions/", "the first row's title carries its link")

	res, err := http.Get(link)
	require.NoError(t, err)
	defer res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "the link opens the bot's page for an action")
}
