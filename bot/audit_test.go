package bot_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/store"
)

// newAuditHarness is the bot on st with the action domain writing its
// audit trail there, as cmd wires it.
func newAuditHarness(t *testing.T, st *store.Store, opts ...harnessOption) *harness {
	t.Helper()
	return newStoreHarness(t, st, append(opts, withActions(func(c *actions.Config) { c.Trail = st }))...)
}

// trailOf is what the trail says of target: "actor surface kind from→to
// outcome" per entry, oldest first.
func trailOf(t *testing.T, st *store.Store, target string) []string {
	t.Helper()
	es, err := st.AuditOf(t.Context(), target, 50)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Actor+" "+string(e.Surface)+" "+string(e.Kind)+" "+e.From+"→"+e.To+" "+string(e.Outcome))
	}
	return out
}

func TestAuditRecordsStatusChangesOnEverySurface(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice, bob := h.person("alice"), h.person("bob")
		open := byDeadline(h.openActionsOf(alice.Email))
		require.GreaterOrEqual(t, len(open), 3)
		byCommand, byReply, byHome := open[0], open[1], open[2]

		// Refused: not bob's.
		m, _ := h.slash(bob, "/actions", "complete "+byCommand.ID)
		assert.Contains(t, m.Text, "Only the action's assignee")
		// A command.
		h.slash(alice, "/actions", "done "+byCommand.ID)
		assert.Equal(t, []string{
			bob.ID + " command action.status " + byCommand.Status + "→complete refused: not yours",
			alice.ID + " command action.status " + byCommand.Status + "→complete requested",
			alice.ID + " command action.status " + byCommand.Status + "→complete done",
		}, trailOf(t, st, byCommand.ID))

		// A button on a reply.
		list, _ := h.slash(alice, "/actions", "")
		h.clickEphemeral(alice, list, "status:complete", "complete|"+byReply.ID+"|")
		assert.Equal(t, []string{
			alice.ID + " reply action.status " + byReply.Status + "→complete requested",
			alice.ID + " reply action.status " + byReply.Status + "→complete done",
		}, trailOf(t, st, byReply.ID))

		// The Home tab.
		view := h.openHome(t, "Ev_audit_home", alice)
		h.clickHome(t, alice, view, "status:complete", "complete|"+byHome.ID+"|")
		assert.Equal(t, []string{
			alice.ID + " home action.status " + byHome.Status + "→complete requested",
			alice.ID + " home action.status " + byHome.Status + "→complete done",
		}, trailOf(t, st, byHome.ID))

		es, err := st.AuditOf(t.Context(), byHome.ID, 1)
		require.NoError(t, err)
		assert.Equal(t, alice.Email, es[0].ActorRecords, "the records identity the actor resolved to")
		assert.NotEmpty(t, es[0].RequestID, "the request id that ties the entry to the logs")
		_, err = st.VerifyAudit(t.Context())
		require.NoError(t, err)
	})
}

func TestAuditStoreDownRefusesTheChange(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		a := h.openActionsOf(alice.Email)[0]
		require.NoError(t, st.Close())

		m, _ := h.slash(alice, "/actions", "complete "+a.ID)
		assert.Equal(t, blocks.MsgNotRecorded, m.Text, "the person is told the change could not be recorded")
		assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "nothing is sent to the records service")
		got, _ := h.records.Action(a.ID)
		assert.Equal(t, a.Status, got.Status)
	})
}

func TestAuditRecordsRefusedAnswers(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newAuditHarness(t, st)
		alice := h.person("alice")
		m, _ := h.slash(alice, "/actions", "complete A-NOPE")
		assert.Contains(t, m.Text, "doesn't exist")
		assert.Equal(t, []string{alice.ID + " command action.status →complete " + string(audit.Refused(audit.ReasonGone))}, trailOf(t, st, "A-NOPE"))

		// The records service refuses the PUT.
		a := h.openActionsOf(alice.Email)[0]
		h.records.InjectFault(recordstest.Fault{Method: http.MethodPut, PathPrefix: "/actions/", Status: http.StatusUnprocessableEntity})
		h.slash(alice, "/actions", "complete "+a.ID)
		assert.Equal(t, []string{
			alice.ID + " command action.status " + a.Status + "→complete requested",
			alice.ID + " command action.status " + a.Status + "→complete refused: records service refused (HTTP 422)",
		}, trailOf(t, st, a.ID))
	})
}
