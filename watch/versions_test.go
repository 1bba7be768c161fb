package watch_test

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// refuseAuditAndRelease makes the database at url refuse new audit
// entries and the ledger's releases (a claim given back clears its
// owner), as a store that has stopped taking writes would.
func refuseAuditAndRelease(t *testing.T, e engine, url string) {
	t.Helper()
	driver, dsn, stmts := "pgx", url, []string{
		`CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'write refused'; END $$`,
		`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_write()`,
		`CREATE TRIGGER refuse_release BEFORE UPDATE ON ledger FOR EACH ROW WHEN (NEW.owner = '') EXECUTE FUNCTION refuse_write()`,
	}
	if e.Name == "sqlite" {
		driver, dsn, stmts = "sqlite", store.SQLiteFile(url), []string{
			`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'write refused'); END`,
			`CREATE TRIGGER refuse_release BEFORE UPDATE ON ledger WHEN NEW.owner = '' BEGIN SELECT RAISE(ABORT, 'write refused'); END`,
		}
	}
	db, err := sql.Open(driver, dsn)
	require.NoError(t, err)
	defer db.Close()
	for _, s := range stmts {
		_, err := db.ExecContext(t.Context(), s)
		require.NoError(t, err, s)
	}
}

// TestEditAuditRefusedSaysWhyItsClaimIsKept: when the store refuses an
// edit's audit entry and then the release of its claim, the poll's error
// says both, so the polls that then find the claim held ("another worker
// holds it") until its lease lapses are explained.
func TestEditAuditRefusedSaysWhyItsClaimIsKept(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.mustPoll(w)
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Present: most.\n\nThe budget was agreed."})
		env.mustPoll(w)

		// An edit after approval, kept where a reader's /minutes read it.
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Present: most.\n\nThe budget was agreed at 3%."})
		read, err := w.deps.Minutes.Read(t.Context(), "M-2")
		require.NoError(t, err)
		_, err = minutes.Record(t.Context(), w.deps.Store, "M-2", read.Minutes)
		require.NoError(t, err)

		refuseAuditAndRelease(t, e, env.url)
		_, err = w.poll(t)
		require.Error(t, err)
		assert.ErrorContains(t, err, "audit the edit of M-2")
		assert.ErrorContains(t, err, "release edited-audit/M-2/")
	})
}
