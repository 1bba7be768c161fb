package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
)

func isNotFound(err error) bool { return errors.Is(err, apiclient.ErrNotFound) }

const msgNotYours = ":no_entry: Only the action's assignee or an admin can change this."

// statusOutcomeText is the message for a status change that did not happen.
func (u *actionsUI) statusOutcomeText(ctx context.Context, id string, a apiclient.Action, to apiclient.Status, oc actions.Outcome, err error) string {
	switch {
	case errors.Is(err, actions.ErrNotRecorded):
		u.say(ctx, "status change", err)           // logged, and counted as a store outage
		return blocks.MsgNotRecorded(lang.English) // the bot has no reader's language yet
	case errors.Is(err, actions.ErrUnconfirmed):
		return u.say(ctx, "status change", err) + " I can't tell whether the change was made: run `/actions` to see the action's current status."
	case errors.Is(err, actions.ErrProfileLookup):
		u.log.WarnContext(ctx, "status change: actor lookup failed", "error", err)
		return msgProfileUnknown
	case err != nil:
		return u.say(ctx, "status change", err) + " Nothing was changed."
	case oc == actions.Gone:
		return fmt.Sprintf(":mag: Action `%s` doesn't exist (any more). Use `/actions` to see your current ones.", blocks.Escape(id))
	case oc == actions.Forbidden:
		return msgNotYours
	case oc == actions.Unchanged:
		return fmt.Sprintf(":information_source: *%s* is already %s.", blocks.Escape(a.Title), blocks.StatusAdjective(string(to)))
	}
	return ""
}

// commandSetStatus is /actions complete <id> and friends.
func (u *actionsUI) commandSetStatus(ctx context.Context, caller, id string, to apiclient.Status) *reply {
	ctx = audit.WithSurface(ctx, audit.Command)
	a, oc, err := u.dom.SetStatus(ctx, caller, id, to)
	if err != nil || (oc != actions.Changed && oc != actions.Duplicate) {
		return notice(u.statusOutcomeText(ctx, id, a, to, oc, err))
	}
	now := u.now()
	seen, err := u.dom.ChangerView(ctx, caller, &a, now)
	if err != nil {
		u.log.WarnContext(ctx, "status change: actor lookup failed after the change", "error", err)
	}
	row := u.row(&a, seen, &blocks.Change{By: caller, At: now, Status: string(to)})
	text := fmt.Sprintf(":white_check_mark: *%s* %s.", blocks.Escape(a.Title), blocks.StatusDone(string(to)))
	msg := blocks.Notice(text)
	msg.Blocks = append(msg.Blocks, blocks.ActionRowBlocks(row)...)
	return ephemeral(msg)
}
