package bot_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/bot"
)

// Every REST convention the records client reads works end to end through
// the bot: /actions lists the caller's actions and a status click changes
// one and redraws the row, against records services that speak JSON:API,
// HAL, OData or PostgREST, in any casing, and answer a PUT in each way.
func TestCommandsAndButtonsOverEveryDialect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dialect recordstest.Dialect
		casing  recordstest.Casing
		put     recordstest.PutAnswer
	}{
		{recordstest.JSONAPI, recordstest.Snake, recordstest.DialectDefault},
		{recordstest.HAL, recordstest.Camel, recordstest.PutArray},
		{recordstest.OData, recordstest.Pascal, recordstest.DialectDefault}, // 204: read back
		{recordstest.PostgREST, recordstest.Kebab, recordstest.PutEnvelope},
		{recordstest.Plain, recordstest.Camel, recordstest.PutNoContent},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("dialect%d/casing%d/put%d", tt.dialect, tt.casing, tt.put), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			srv := recordstest.NewServer(recordstest.WithDataset(h.data), recordstest.WithDialect(tt.dialect),
				recordstest.WithCasing(tt.casing), recordstest.WithPutAnswer(tt.put), recordstest.WithPageSize(7))
			t.Cleanup(srv.Close)
			h.rebuild(bot.Deps{}, withRecords(srv.URL))
			h.records = srv // the harness' helpers read this service now

			alice := h.person("alice")
			mine := h.openActionsOf(alice.Email)
			require.NotEmpty(t, mine)
			list, _ := h.slash(alice, "/actions", "")
			for _, a := range mine {
				assert.Contains(t, list.all(), `"action:`+a.ID+`"`, "alice's action %s is listed", a.ID)
				// JSON:API names an action's meeting only as a
				// relationship; the row still shows its title.
				i := slices.IndexFunc(srv.Meetings(), func(m recordstest.Meeting) bool { return m.ID == a.MeetingID })
				require.GreaterOrEqual(t, i, 0, "the meeting of %s", a.ID)
				m := srv.Meetings()[i]
				assert.Contains(t, list.all(), blocks.Escape(m.Title), "%s's row names its meeting", a.ID)
				assert.NotContains(t, list.all(), " · "+a.MeetingID+`\n`, "not by its ID")
			}
			posts := h.clickEphemeral(alice, list, "status:complete", "complete|"+mine[0].ID+"|")
			require.Len(t, posts, 1)
			assert.Contains(t, posts[0].all(), "Marked complete by <@"+alice.ID+">")
			assert.Contains(t, posts[0].all(), mine[0].Title[:20], "the row still says what the action is")
			got, _ := srv.Action(mine[0].ID)
			assert.Equal(t, "complete", got.Status)
			assert.Equal(t, 1, srv.Count(http.MethodPut, "/"))
		})
	}
}
