package doctor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/store"
)

var updateGolden = flag.Bool("update", false, "rewrite doctor/testdata golden files")

// doctorDay fixes the dataset, so the checklist is the same on every run.
var doctorDay = time.Date(2026, time.March, 2, 12, 0, 0, 0, time.UTC)

// doctorReportChannel is REMIND_REPORT_CHANNEL in the set-ups.
const doctorReportChannel = "C0REPORT"

// doctorEnv is a complete, working set-up: the records service, Slack, the
// bot's public /healthz and a store, each a real local server or file.
type doctorEnv struct {
	records *recordstest.Server
	slack   *slacktest.Server
	set     Settings
}

// doctorSetUp builds a good set-up; rewrite, when not nil, stands between
// the bot and the records service, changing its answers as another
// service's would differ.
func doctorSetUp(t *testing.T, recOpts []recordstest.Option, slackOpts []slacktest.Option, rewrite func(path string, body []byte) []byte) *doctorEnv {
	t.Helper()
	recOpts = append([]recordstest.Option{recordstest.WithDataset(testworld.Dataset(doctorDay))}, recOpts...)
	e := &doctorEnv{}
	var recordsURL string
	if rewrite == nil {
		e.records = recordstest.NewServer(recOpts...)
		t.Cleanup(e.records.Close)
		recordsURL = e.records.URL
	} else {
		e.records = recordstest.NewHandler(recOpts...)
		ts := httptest.NewServer(rewriting(e.records.Handler(), rewrite))
		t.Cleanup(ts.Close)
		recordsURL = ts.URL + "/api/v1"
	}
	e.slack = slacktest.NewServer(append([]slacktest.Option{slacktest.WithUsers(doctorMembers()...)}, slackOpts...)...)
	t.Cleanup(e.slack.Close)
	// The real bot's handler answers /healthz, as the deployed bot would.
	public := httptest.NewServer(bottest.Offline(t, bot.Config{}, bot.Deps{}))
	t.Cleanup(public.Close)
	e.set = Settings{
		SigningSecret: strings.Repeat("0123456789abcdef", 2),
		BotToken:      slacktest.DefaultToken,
		SlackAPIURL:   e.slack.APIURL(),
		RecordsURL:    recordsURL,
		RecordsKey:    recordstest.DefaultKey,
		PublicURL:     public.URL,
		Admins:        []string{"U0ADMIN"},
		UserMap:       map[string]string{"treasurer@example.org": "U0TREAS"},
		ReportChannel: doctorReportChannel,
		DatabaseURL:   "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
	}
	return e
}

// doctorMembers are the workspace's people: the test world's, most in
// Slack's default locale, some in others (one recordsbot does not ship).
func doctorMembers() []slacktest.User {
	users := sampleorg.SlackUsers(testworld.Dataset(doctorDay).People)
	for i, loc := range map[int]string{0: "fr-FR", 1: "de-DE", 2: "fr-CA", 3: "ja-JP", 4: "es-LA"} {
		users[i].Locale = loc
	}
	return users
}

// rewriting serves h, passing each answer's body through rewrite.
func rewriting(h http.Handler, rewrite func(path string, body []byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		body := rewrite(r.URL.Path, rec.Body.Bytes())
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// doctorRun runs doctor over set, as `recordsbot doctor args...` does
// (--write-check, --json), and returns what it prints, with ErrFailed when
// something blocks normal use.
func doctorRun(t *testing.T, set Settings, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	rep := Run(ctx, set, Options{WriteCheck: slices.Contains(args, "--write-check"), Version: "dev"})
	var out bytes.Buffer
	if slices.Contains(args, "--json") {
		enc := json.NewEncoder(&out)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(rep))
	} else {
		rep.WriteText(&out)
	}
	if rep.Blocking > 0 {
		return out.String(), ErrFailed
	}
	return out.String(), nil
}

// lines are the checklist's lines, trimmed.
func lines(out string) []string {
	var ls []string
	for l := range strings.SplitSeq(out, "\n") {
		ls = append(ls, strings.TrimSpace(l))
	}
	return ls
}

// lineWith returns the first line starting with prefix, and the line after
// it (its fix, for a ✗), failing the test when there is none.
func lineWith(t *testing.T, out, prefix string) (string, string) {
	t.Helper()
	ls := lines(out)
	for i, l := range ls {
		if strings.HasPrefix(l, prefix) {
			next := ""
			for _, n := range ls[i+1:] {
				if strings.HasPrefix(n, "→") {
					next = n
					break
				}
				if strings.HasPrefix(n, "✓") || strings.HasPrefix(n, "✗") || strings.HasPrefix(n, "!") || strings.HasPrefix(n, "–") || n == "" {
					break
				}
			}
			return l, next
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, out)
	return "", ""
}

// normalise replaces what changes from run to run: ports and temp paths.
func normalise(out string) string {
	out = regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(out, "127.0.0.1:PORT")
	out = strings.ReplaceAll(out, os.TempDir(), "/TMP")
	out = regexp.MustCompile(`/TMP/Test[^/\s]*/\d+`).ReplaceAllString(out, "/TMP")
	return regexp.MustCompile(`sqlite:///\S*/recordsbot\.db`).ReplaceAllString(out, "sqlite:///TMP/recordsbot.db")
}

func TestDoctorGoodSetUp(t *testing.T) {
	t.Parallel()
	e := doctorSetUp(t, nil, nil, nil)
	out, err := doctorRun(t, e.set)
	require.NoError(t, err, out)
	for _, want := range []string{
		"✓ every variable is valid and serve, remind and watch have what they need",
		"✓ API key accepted",
		"✓ scope actions:read",
		"✓ scope meetings:read",
		"– scope actions:write not checked: run doctor --write-check",
		"✓ GET /actions: envelope data",
		"✓ auth.test: workspace recordsbot test",
		"✓ bot token holds the 13 scopes the code needs",
		"✓ REMIND_REPORT_CHANNEL C0REPORT exists and the bot is in it",
		"✓ SLACK_SIGNING_SECRET looks like a signing secret",
		"✓ " + store.SQLiteFile(e.set.DatabaseURL) + " not created yet: serve creates it on first start",
		"✓ visible-minutes rule respected",
		`✓ records: up (recordsbot_dependency_up{dependency="records"} 1)`,
		`✓ slack: up (recordsbot_dependency_up{dependency="slack"} 1)`,
		"– store: not created yet",
	} {
		lineWith(t, out, want)
	}
	title, _ := lineWith(t, out, "action.title ←")
	assert.Equal(t, "action.title ← title (50/50)", title)
	assert.NotContains(t, out, "✗")
	assert.Zero(t, e.records.Count(http.MethodPut, "/actions"), "read-only without --write-check")
	assert.Contains(t, out, "\nReady to go live.\n")

	golden := filepath.Join("testdata", "doctor_good.golden")
	got := normalise(out)
	if *updateGolden {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./doctor -run TestDoctorGoodSetUp -update")
	assert.Equal(t, string(want), got, "golden differs; review, then rewrite with -update")

	_, err = os.Stat(store.SQLiteFile(e.set.DatabaseURL))
	assert.ErrorIs(t, err, os.ErrNotExist, "doctor leaves no database file behind")

	// Once serve has made the file, doctor opens it.
	st, err := store.Open(t.Context(), e.set.DatabaseURL)
	require.NoError(t, err)
	_, latest, err := st.SchemaVersion(t.Context())
	require.NoError(t, err)
	require.NoError(t, st.Close())
	out, err = doctorRun(t, e.set)
	require.NoError(t, err)
	lineWith(t, out, "✓ reachable: sqlite")
	lineWith(t, out, `✓ store: up (recordsbot_dependency_up{dependency="store"} 1)`)
	l, _ := lineWith(t, out, "✓ migrations current")
	assert.Equal(t, fmt.Sprintf("✓ migrations current (schema version %d)", latest), l)
}

// latestSchema is the schema version this recordsbot migrates to.
func latestSchema(t *testing.T) int {
	t.Helper()
	st, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	defer func() { _ = st.Close() }()
	_, latest, err := st.SchemaVersion(t.Context())
	require.NoError(t, err)
	return latest
}

func TestDoctorBrokenSetUps(t *testing.T) {
	t.Parallel()
	renameTitle := func(path string, body []byte) []byte {
		if strings.HasSuffix(path, "/actions") {
			return bytes.ReplaceAll(body, []byte(`"title":`), []byte(`"subject":`))
		}
		return body
	}
	tests := []struct {
		name      string
		recOpts   []recordstest.Option
		slackOpts []slacktest.Option
		rewrite   func(string, []byte) []byte
		edit      func(*testing.T, *doctorEnv)
		args      []string
		line      string // the line's start
		fix       string // in the fix under it; "" for none
		blocking  bool   // exit status 1
	}{
		{
			name: "wrong key",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.RecordsKey = "not-the-key" },
			line: "✗ the API key was refused (401)", fix: "check RECORDS_API_KEY", blocking: true,
		},
		{
			name:    "key without meetings:read",
			recOpts: []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{recordstest.DefaultKey: {recordstest.ScopeActionsRead, recordstest.ScopeActionsWrite}})},
			line:    "✗ scope meetings:read missing", fix: "give the key the meetings:read scope", blocking: true,
		},
		{
			name:    "key without actions:write, with --write-check",
			recOpts: []recordstest.Option{recordstest.WithKeys(map[string][]recordstest.Scope{recordstest.DefaultKey: {recordstest.ScopeActionsRead, recordstest.ScopeMeetingsRead}})},
			args:    []string{"--write-check"},
			line:    "✗ scope actions:write missing", fix: "give the key the actions:write scope", blocking: true,
		},
		{
			name: "unknown envelope",
			rewrite: func(path string, body []byte) []byte {
				if strings.HasSuffix(path, "/actions") {
					return bytes.Replace(body, []byte(`{"data":`), []byte(`{"records":`), 1)
				}
				return body
			},
			line: "✗ GET /actions: invalid response: parse actions list: no array under data, items, results, value, actions or _embedded", fix: "RECORDS_FIELD_MAP names fields, not envelopes", blocking: true,
		},
		{
			name:    "unmapped title",
			rewrite: renameTitle,
			line:    "✗ GET /actions: envelope data", fix: "set RECORDS_FIELD_MAP=action.title=subject (a guess", blocking: true,
		},
		{
			name:    "unmapped title, fixed by RECORDS_FIELD_MAP",
			rewrite: renameTitle,
			edit: func(t *testing.T, e *doctorEnv) {
				fm, err := apiclient.ParseFieldMap("action.title=subject")
				require.NoError(t, err)
				e.set.FieldMap = fm
			},
			line: "action.title ← subject (50/50) [RECORDS_FIELD_MAP]",
		},
		{
			name: "deadline under a name nobody guessed",
			rewrite: func(path string, body []byte) []byte {
				if strings.HasSuffix(path, "/actions") {
					body = bytes.ReplaceAll(body, []byte(`"due_date":`), []byte(`"target_date":`))
					return bytes.ReplaceAll(body, []byte(`"deadline":`), []byte(`"target_date":`))
				}
				return body
			},
			line: "! GET /actions: envelope data, pagination none, 1 page read, 50 records; action.deadline not found: no overdue flags and no reminders (advisory)",
			fix:  "set RECORDS_FIELD_MAP=action.deadline=target_date (a guess",
		},
		{
			name:    "an OData service in PascalCase",
			recOpts: []recordstest.Option{recordstest.WithDialect(recordstest.OData), recordstest.WithCasing(recordstest.Pascal)},
			line:    "✓ GET /actions: envelope value, pagination",
		},
		{
			name:      "Slack token missing a scope",
			slackOpts: []slacktest.Option{slacktest.WithScopes(slices.DeleteFunc(slacktest.ManifestScopes(), func(s string) bool { return s == "users:read.email" })...)},
			line:      "✗ the bot token lacks users:read.email", fix: "reinstall the app", blocking: true,
		},
		{
			name: "wrong Slack token",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.BotToken = "xoxb-revoked" },
			line: "✗ auth.test failed: invalid_auth", fix: "check SLACK_BOT_TOKEN", blocking: true,
		},
		{
			name: "bot not in the report channel",
			edit: func(_ *testing.T, e *doctorEnv) { e.slack.SetBotInChannel(doctorReportChannel, false) },
			line: "! the bot is not in REMIND_REPORT_CHANNEL C0REPORT: remind's report of unmatched assignees would fail (advisory)",
			fix:  "/invite @recordsbot",
		},
		{
			name: "report channel not found",
			edit: func(_ *testing.T, e *doctorEnv) {
				e.slack.InjectFault(slacktest.Fault{Method: "conversations.history", Error: "channel_not_found"})
			},
			line: "! REMIND_REPORT_CHANNEL C0REPORT not found", fix: "check the ID",
		},
		{
			name: "signing secret that is not one",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.SigningSecret = "xoxb-a-token-pasted-by-mistake" },
			line: "✗ SLACK_SIGNING_SECRET does not look like a signing secret", fix: "Signing Secret", blocking: true,
		},
		{
			name: "app token that is not one",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.AppToken = "xoxb-not-an-app-token" },
			line: "✗ SLACK_APP_TOKEN does not look like an app-level token", fix: "App-Level Tokens", blocking: true,
		},
		{
			name: "store with a newer schema",
			edit: func(t *testing.T, e *doctorEnv) { e.set.DatabaseURL = newerSchemaDB(t) },
			line: fmt.Sprintf("✗ database schema is version 99, newer than this recordsbot (knows up to %d): upgrade recordsbot or restore a backup", latestSchema(t)),
			fix:  "run the recordsbot release", blocking: true,
		},
		{
			name: "PUBLIC_URL down",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.PublicURL = closedURL() },
			line: "✗ http://127.0.0.1:PORT/healthz did not answer", fix: "start recordsbot serve", blocking: true,
		},
		{
			// Without it there are no minutes links and no action links.
			name: "PUBLIC_URL not set",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.PublicURL = "" },
			line: "– PUBLIC_URL not set: nothing to ask from outside, and no links to the bot's own minutes pages or to each action's own page",
		},
		{
			name: "PUBLIC_URL down in Socket Mode",
			edit: func(_ *testing.T, e *doctorEnv) {
				e.set.PublicURL = closedURL()
				e.set.AppToken = "xapp-1-A0APP-1-abc"
			},
			line: "! http://127.0.0.1:PORT/healthz did not answer", fix: "start recordsbot serve",
		},
		{
			name: "no records settings at all",
			edit: func(_ *testing.T, e *doctorEnv) {
				e.set.RecordsURL, e.set.RecordsKey = "", ""
				e.set.Problems = []Problem{{Name: "RECORDS_API_URL", Text: "RECORDS_API_URL is required (the Records API base URL, ending in /api/v1)"}}
			},
			line: "✗ RECORDS_API_URL and RECORDS_API_KEY must both be set; nothing was checked", fix: "set RECORDS_API_URL", blocking: true,
		},
		{
			name: "a problem start-up found",
			edit: func(_ *testing.T, e *doctorEnv) {
				e.set.Problems = []Problem{{Name: "REMIND_DAYS", Text: "REMIND_DAYS must be 0 or more, got -1"}}
			},
			line: "✗ REMIND_DAYS must be 0 or more", fix: "fix REMIND_DAYS", blocking: true,
		},
		{
			name: "a field map start-up could not read",
			edit: func(_ *testing.T, e *doctorEnv) {
				e.set.Problems = []Problem{{Name: "RECORDS_FIELD_MAP", Text: `RECORDS_FIELD_MAP "title" is not field=name`}}
			},
			line: "✗ RECORDS_FIELD_MAP could not be read (see Configuration); nothing was checked", fix: "fix RECORDS_FIELD_MAP", blocking: true,
		},
		{
			name: "records service down",
			edit: func(_ *testing.T, e *doctorEnv) { e.set.RecordsURL = closedURL() + "/api/v1" },
			line: "✗ not reachable at http://127.0.0.1:PORT/api/v1", fix: "check RECORDS_API_URL", blocking: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := doctorSetUp(t, tt.recOpts, tt.slackOpts, tt.rewrite)
			if tt.edit != nil {
				tt.edit(t, e)
			}
			out, err := doctorRun(t, e.set, tt.args...)
			out = normalise(out)
			t.Log(out)
			if tt.blocking {
				require.ErrorIs(t, err, ErrFailed, out)
			} else {
				require.NoError(t, err, out)
			}
			_, fix := lineWith(t, out, tt.line)
			if tt.fix != "" {
				assert.Contains(t, fix, tt.fix, "the fix under %q", tt.line)
			}
		})
	}
}

// The write check writes the status each action already has, once, and
// says so.
func TestDoctorWriteCheck(t *testing.T) {
	t.Parallel()
	e := doctorSetUp(t, nil, nil, nil)
	before := e.records.Actions()
	out, err := doctorRun(t, e.set, "--write-check")
	require.NoError(t, err, out)
	l, _ := lineWith(t, out, "✓ scope actions:write: set action ")
	assert.Contains(t, l, "to its own status")
	assert.Equal(t, 1, e.records.Count(http.MethodPut, "/actions/"))
	assert.Equal(t, before, e.records.Actions(), "nothing changed")
}

// --json prints the same checklist for machines, with the records
// inspection in full.
func TestDoctorJSON(t *testing.T) {
	t.Parallel()
	granted := slices.DeleteFunc(slacktest.ManifestScopes(), func(s string) bool { return s == "im:history" || s == "links:write" })
	e := doctorSetUp(t, nil, []slacktest.Option{slacktest.WithScopes(granted...)}, nil)
	out, err := doctorRun(t, e.set, "--json")
	require.ErrorIs(t, err, ErrFailed)
	var rep struct {
		Version  string `json:"version"`
		Blocking int    `json:"blocking"`
		Advisory int    `json:"advisory"`
		Sections []struct {
			Title  string `json:"title"`
			Checks []struct {
				Status   string   `json:"status"`
				Blocking bool     `json:"blocking"`
				Text     string   `json:"text"`
				Fix      string   `json:"fix"`
				Details  []string `json:"details"`
			} `json:"checks"`
		} `json:"sections"`
		Records struct {
			Reachable   bool `json:"reachable"`
			KeyAccepted bool `json:"key_accepted"`
			Endpoints   []struct {
				Endpoint string `json:"endpoint"`
				Envelope string `json:"envelope"`
			} `json:"endpoints"`
		} `json:"records"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	var titles []string
	for _, s := range rep.Sections {
		titles = append(titles, s.Title)
	}
	assert.Equal(t, []string{"Configuration", "Records API", "Slack", "Store", "Public URL", "Dependencies"}, titles)
	assert.Equal(t, 1, rep.Blocking)
	var failedChecks []string
	for _, s := range rep.Sections {
		for _, c := range s.Checks {
			assert.Contains(t, []string{"ok", "failed", "skipped"}, c.Status)
			if c.Status == "failed" {
				failedChecks = append(failedChecks, c.Text)
				assert.True(t, c.Blocking)
				assert.Contains(t, c.Fix, "reinstall the app")
			}
		}
	}
	require.Len(t, failedChecks, 1)
	assert.Equal(t, "the bot token lacks im:history, links:write", failedChecks[0])
	assert.True(t, rep.Records.Reachable)
	assert.True(t, rep.Records.KeyAccepted)
	require.NotEmpty(t, rep.Records.Endpoints)
	assert.Equal(t, "GET /actions", rep.Records.Endpoints[0].Endpoint)
	assert.Equal(t, "data", rep.Records.Endpoints[0].Envelope)
}

// newerSchemaDB is a SQLite store migrated by a recordsbot newer than this
// one: its schema_migrations has a version this binary does not know.
func newerSchemaDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "newer.db")
	url := "sqlite://" + path
	st, err := store.Open(t.Context(), url)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.ExecContext(t.Context(), "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 0)")
	require.NoError(t, err)
	return url
}

// closedURL is the URL of a server that has stopped: nothing answers there.
func closedURL() string {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// doctor shows the dependencies as serve's checker would report them: a
// records service that does not answer is records 0, with the reason.
func TestDoctorShowsDependencies(t *testing.T) {
	t.Parallel()
	e := doctorSetUp(t, nil, nil, nil)
	e.set.RecordsURL = closedURL() + "/api/v1"
	out, err := doctorRun(t, e.set)
	require.ErrorIs(t, err, ErrFailed)
	l, _ := lineWith(t, out, `! records: down (recordsbot_dependency_up{dependency="records"} 0): records api:`)
	assert.Contains(t, l, "(advisory)", "the Records API section already counts it")
	lineWith(t, out, `✓ slack: up (recordsbot_dependency_up{dependency="slack"} 1)`)
}

// doctor flags the shapes start-up accepts but that cannot work.
func TestDoctorFlagsShapesThatCannotWork(t *testing.T) {
	t.Parallel()
	set := Settings{
		SigningSecret: strings.Repeat("0123456789abcdef", 2),
		BotToken:      "xoxp-a-user-token",
		Admins:        []string{"U0ADMIN", "alice@example.org", "Bob"},
		PublicURL:     "http://bot.example.org",
		ReportChannel: "#reports",
		DatabaseURL:   "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
		// Nothing below is reached: the records service is not set, and
		// Slack is asked at an address that answers nothing.
		SlackAPIURL: closedURL() + "/",
	}
	out, err := doctorRun(t, set)
	assert.ErrorIs(t, err, ErrFailed)
	for _, want := range []string{
		"✗ SLACK_BOT_TOKEN does not look like a bot token (xoxb-…)",
		`✗ ADMIN_USER_IDS: "alice@example.org", "Bob" not Slack user IDs (U… or W…)`,
		"✗ PUBLIC_URL is http, not https",
		`! REMIND_REPORT_CHANNEL "#reports" is not a channel ID (C… or G…)`,
	} {
		lineWith(t, out, want)
	}

	// In Socket Mode an http PUBLIC_URL only weakens links.
	set.AppToken = "xapp-1"
	out, _ = doctorRun(t, set)
	l, _ := lineWith(t, out, "! PUBLIC_URL is http, not https")
	assert.Contains(t, l, "(advisory)")
}

// doctor says which unfurls the workspace gets, and how to have Work
// Object cards: the setting has no manifest key.
func TestUnfurlsCheck(t *testing.T) {
	t.Parallel()
	off := unfurlsCheck(Settings{})
	assert.Equal(t, checkSkipped, off.Status)
	assert.Contains(t, off.Text, "classic")
	assert.Contains(t, off.Text, "Work Object Previews")
	assert.Contains(t, off.Text, "WORK_OBJECTS=true")
	on := unfurlsCheck(Settings{WorkObjects: true})
	assert.Equal(t, checkOK, on.Status)
	assert.Contains(t, on.Text, "Work Object cards")
	assert.Contains(t, strings.Join(on.Details, " "), "Work Object Previews")
}
