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
	a, outcome, err := u.actions.SetStatus(ctx, caller, id, to)
	if err == nil && outcome == actions.Changed {
		u.snoozes.statusChanged(ctx, id, to)
	}
	if err != nil || (outcome != actions.Changed && outcome != actions.Duplicate) {
		return notice(u.statusOutcomeText(ctx, id, a, to, outcome, err))
	}
	now := u.now()
	seen, err := u.actions.ChangerView(ctx, caller, &a, now)
	if err != nil {
		u.log.WarnContext(ctx, "status change: actor lookup failed after the change", "error", err)
	}
	row := u.row(&a, seen, &blocks.Change{By: caller, At: now, Status: string(to)})
	row.Lang = lang.FromContext(ctx)
	u.snoozes.changed(ctx, caller, &a, &row) // bot/snooze.go
	text := blocks.StatusDone(row.Lang, string(to), blocks.Escape(a.Title))
	msg := blocks.Notice(text)
	msg.Blocks = append(msg.Blocks, blocks.ActionRowBlocks(row)...)
	return ephemeral(msg)
}
