package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/store/storetest"
)

// What people type reaches the audit trail: an action id with a NUL or
// bytes that are not UTF-8 is recorded on both engines (PostgreSQL
// refuses both in text, error 22021), found again by the id as typed,
// and the chain verifies.
func TestAuditKeepsTypedTextOnBothEngines(t *testing.T) {
	t.Parallel()
	for _, e := range []engine{sqliteMemory, postgres} {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			if e.name == "postgres" {
				storetest.Skip(t)
			}
			s := open(t, e.newURL(t))
			ctx := t.Context()
			typed := "act\x00=1\xff"
			entry := statusEntry("U1", typed, "open", "complete")
			entry.Outcome = audit.Refused(audit.ReasonGone)
			got, err := s.AppendAudit(ctx, entry)
			require.NoError(t, err, "a refusal of a typed id is recorded")
			assert.Equal(t, "act\uFFFD=1\uFFFD", got.Target)
			of, err := s.AuditOf(ctx, typed, 10)
			require.NoError(t, err)
			require.Len(t, of, 1, "found by the id as typed")
			assert.Equal(t, got, of[0])
			_, err = s.VerifyAudit(ctx, nil)
			assert.NoError(t, err, "the hash is of what is kept")
		})
	}
}
