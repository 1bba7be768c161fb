package bot

import (
	"context"
	"encoding/json"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// recountReminder returns msg, a message's blocks just redrawn after a,
// one of its rows, changed, with the opening sentence of a reminder DM
// recounted (blocks.RecountReminder): after a Complete click "You have 3
// actions…" says 2. Any other message is returned as it was.
func (c *clicks) recountReminder(ctx context.Context, msg []json.RawMessage, a *apiclient.Action) []json.RawMessage {
	var open map[string]bool
	read := false
	stillToDo := func(id string) bool {
		if id == a.ID {
			return actions.StillToDo(a.Status)
		}
		if !read {
			open, read = c.openActions(ctx), true
		}
		// A row the shared list could not be read for counts as it did.
		return open == nil || open[id]
	}
	out, ok := blocks.RecountReminder(lang.FromContext(ctx), msg, stillToDo)
	if !ok {
		return msg
	}
	return out
}

// openActions is the IDs of the actions still to do, from the shared list
// (as fresh as ACTIONS_CACHE_TTL: a row changed elsewhere since may count
// until it refreshes); nil when it cannot be read.
func (c *clicks) openActions(ctx context.Context) map[string]bool {
	list, err := c.acts.actions.List(ctx, "")
	if err != nil {
		c.log.WarnContext(ctx, "interaction: action list unreadable; the reminder's count is left as it was", "error", err)
		return nil
	}
	open := make(map[string]bool, len(list.Actions))
	for i := range list.Actions {
		open[list.Actions[i].ID] = true
	}
	return open
}
