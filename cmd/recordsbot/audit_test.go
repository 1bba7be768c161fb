package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
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
	st, err := store.Open(t.Context(), url)
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
	return url, func(q string) {
		db, err := sql.Open(driver, dsn)
		require.NoError(t, err)
		defer db.Close()
		_, err = db.ExecContext(t.Context(), q)
		require.NoError(t, err, q)
	}
}

func runAuditCmd(t *testing.T, url string, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	err = run(ctx, Config{DatabaseURL: url, Port: 3000, LogFormat: "text", LogLevel: "info"}, append([]string{"audit"}, args...), strings.NewReader(""), &out, &errOut)
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
			name, sql, want string
		}{
			{"edited", "UPDATE audit_log SET actor = 'U0MALLORY' WHERE seq = 2", "audit entry 2: altered"},
			{"deleted", "DELETE FROM audit_log WHERE seq = 3", "audit entry 4: out of place: entry 3 should come before it"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				url, exec := auditDB(t, engine)
				out, err := runAuditCmd(t, url, "verify")
				require.NoError(t, err)
				assert.Contains(t, out, "audit trail intact: 4 entries, 1 to 4, head ")

				exec(tc.sql)
				_, err = runAuditCmd(t, url, "verify")
				require.Error(t, err, "verify exits non-zero")
				assert.Contains(t, err.Error(), tc.want)
			})
		}
	})
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
