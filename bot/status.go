package bot

import (
	"context"
	"errors"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
)

func isNotFound(err error) bool { return errors.Is(err, apiclient.ErrNotFound) }

// statusOutcomeText is the message for a status change that did not happen.
func (u *actionsUI) statusOutcomeText(ctx context.Context, id string, a apiclient.Action, to apiclient.Status, outcome actions.Outcome, err error) string {
	lg := lang.FromContext(ctx)
	switch {
	case errors.Is(err, actions.ErrNotRecorded):
		u.say(ctx, "status change", err)           // logged, and counted as a store outage
		return blocks.MsgNotRecorded(lang.English) // the bot has no reader's language yet
	case errors.Is(err, actions.ErrUnconfirmed):
		return lg.F("status.unconfirmed", "problem", u.say(ctx, "status change", err))
	case errors.Is(err, actions.ErrProfileLookup):
		u.log.WarnContext(ctx, "status change: actor lookup failed", "error", err)
		return lg.T("msg.profile_unknown")
	case err != nil:
		return lg.F("status.failed", "problem", u.say(ctx, "status change", err))
	case outcome == actions.Gone:
		return lg.F("status.gone", "id", blocks.Escape(id))
	case outcome == actions.Forbidden:
		return lg.T("status.not_yours")
	case outcome == actions.Unchanged:
		return blocks.StatusAlready(lg, string(to), blocks.Escape(a.Title))
	}
	return ""
}

// commandSetStatus is /actions complete <id> and friends.
func (u *actionsUI) commandSetStatus(ctx context.Context, caller, id string, to apiclient.Status) *reply {
	ctx = audit.WithSurface(ctx, audit.Command)
	a, outcome, err := u.setStatus(ctx, caller, id, to)
	if err != nil || (outcome != actions.Changed && outcome != actions.Duplicate) {
		return notice(u.statusOutcomeText(ctx, id, a, to, outcome, err))
	}
	row := u.changedRow(ctx, &a, &blocks.Change{By: caller, At: u.now(), Status: string(to)})
	text := blocks.StatusDone(row.Lang, string(to), blocks.Escape(a.Title))
	msg := blocks.Notice(text)
	msg.Blocks = append(msg.Blocks, blocks.ActionRowBlocks(row)...)
	return ephemeral(msg)
}

// setStatus sets the status of action id to to for caller, through the
// action domain, and ends the action's snoozes once it is no longer to do:
// the one status change behind the commands and the buttons.
func (u *actionsUI) setStatus(ctx context.Context, caller, id string, to apiclient.Status) (apiclient.Action, actions.Outcome, error) {
	a, outcome, err := u.actions.SetStatus(ctx, caller, id, to)
	if err == nil && outcome == actions.Changed {
		u.snoozes.statusChanged(ctx, id, to)
	}
	return a, outcome, err
}

// changedRow is the row of a, just changed by change, as its changer
// sees it, in the language of ctx: the one row shown after a status
// change, by a command or a click.
func (u *actionsUI) changedRow(ctx context.Context, a *apiclient.Action, change *blocks.Change) blocks.ActionRow {
	seen, err := u.actions.ChangerView(ctx, change.By, a, change.At)
	if err != nil {
		u.log.WarnContext(ctx, "status change: actor lookup failed after the change", "error", err)
	}
	row := u.row(a, seen, change)
	row.Lang = lang.FromContext(ctx)
	u.snoozes.changed(ctx, change.By, a, &row) // bot/snooze.go
	return row
}
