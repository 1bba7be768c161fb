package remind

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
)

// report posts the unmatched assignees to cfg.ReportChannel once a day
// (the organisation's day): with a Ledger under report:<channel>:<date>,
// without one after looking for today's report in the channel's history,
// which takes channels:history or groups:history. When the history cannot
// be read, a repeated report beats a lost one.
func (j *remindJob) report(ctx context.Context) {
	channel := j.cfg.ReportChannel
	if channel == "" || len(j.sum.Unmatched) == 0 || ctx.Err() != nil {
		return
	}
	date := j.sum.Date
	key := "report:" + channel + ":" + date
	check := true
	if l := j.deps.Ledger; l != nil {
		claim, err := l.Claim(ctx, key, j.cfg.Owner, j.cfg.Lease)
		if err != nil {
			j.reportFailed(ctx, channel, fmt.Errorf("claim %s: %w", key, err))
			return
		}
		switch claim {
		case ClaimDone, ClaimBusy:
			j.log.InfoContext(ctx, "remind: today's report of unmatched assignees is already posted", "channel", channel)
			return
		case ClaimNew:
			check = false
		}
	}
	if check {
		sent, err := j.sentBefore(ctx, channel, ReportEventType, key, date)
		switch {
		case err != nil:
			j.log.WarnContext(ctx, "remind: cannot check the report channel for today's report; posting it anyway",
				"channel", channel, "error", err)
		case sent:
			j.log.InfoContext(ctx, "remind: today's report of unmatched assignees is already posted", "channel", channel)
			if j.deps.Ledger != nil {
				_ = j.markDone(ctx, key, "found in history") // a lost mark costs one more history read
			}
			return
		}
	}
	ts, err := j.post(ctx, channel,
		slack.MsgOptionText(reportText(date, j.sum.Unmatched), false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReportEventType, EventPayload: map[string]any{
			"key": key, "date": date, "unmatched": len(j.sum.Unmatched),
		}}))
	if err != nil {
		if j.deps.Ledger != nil && refused(err) {
			j.release(ctx, key)
		}
		j.reportFailed(ctx, channel, err)
		return
	}
	if j.deps.Ledger != nil {
		if err := j.markDone(ctx, key, ts); err != nil {
			j.log.WarnContext(ctx, "remind: report posted but not marked done", "key", key, "error", err)
		}
	}
}

func (j *remindJob) reportFailed(ctx context.Context, channel string, err error) {
	j.log.ErrorContext(ctx, "remind: report of unmatched assignees failed", "channel", channel, "error", err)
	j.sum.Failed = append(j.sum.Failed, Failure{Who: "report to " + channel, Err: err})
}

// reportText is the message listing assignees whom no Slack user matches.
func reportText(date string, unmatched []UnmatchedAssignee) string {
	var b strings.Builder
	fmt.Fprintf(&b, ":bust_in_silhouette: *Action reminders %s:* %s with due actions %s no Slack user, so %s not reminded. "+
		"Add them to `USER_MAP` (`assignee=SLACKID`) or correct their email in the records.\n",
		date, plural(len(unmatched), "assignee", "assignees"), pick(len(unmatched) == 1, "matches", "match"), pick(len(unmatched) == 1, "was", "were"))
	for i, u := range unmatched {
		if i == maxReportNames {
			fmt.Fprintf(&b, "…and %d more (see the job's log).\n", len(unmatched)-i)
			break
		}
		fmt.Fprintf(&b, "• %s: %s\n", blocks.Escape(u.Assignee), plural(u.Actions, "action", "actions"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
