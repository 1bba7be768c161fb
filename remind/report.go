package remind

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/once"
)

// report posts the unmatched assignees to cfg.ReportChannel once a day
// (the organisation's day), exactly once under report:<channel>:<date>
// (internal/once); after an expired claim the channel's history is
// searched for it, which takes channels:history or groups:history.
func (j *remindJob) report(ctx context.Context) {
	channel := j.cfg.ReportChannel
	if channel == "" || len(j.sum.Unmatched) == 0 || ctx.Err() != nil {
		return
	}
	date := j.sum.Date
	key := "report:" + channel + ":" + date
	res := j.poster.Post(ctx, once.Work{
		Key:          key,
		Conversation: func(context.Context) (string, error) { return channel, nil },
		Post: func(ctx context.Context) (string, error) {
			return j.post(ctx, channel,
				slack.MsgOptionText(reportText(date, j.sum.Unmatched), false),
				slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReportEventType, EventPayload: map[string]any{
					"key": key, "date": date, "unmatched": len(j.sum.Unmatched),
				}}))
		},
	})
	switch res.Outcome {
	case once.Failed:
		j.reportFailed(ctx, channel, res.Err)
	case once.Already, once.Recovered:
		j.log.InfoContext(ctx, "remind: today's report of unmatched assignees is already posted", "channel", channel)
	case once.Busy:
		j.log.InfoContext(ctx, "remind: another run is posting today's report of unmatched assignees", "channel", channel)
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
		date, words.Count(len(unmatched), "assignee", "assignees"), pick(len(unmatched) == 1, "matches", "match"), pick(len(unmatched) == 1, "was", "were"))
	for i, u := range unmatched {
		if i == maxReportNames {
			fmt.Fprintf(&b, "…and %d more (see the job's log).\n", len(unmatched)-i)
			break
		}
		fmt.Fprintf(&b, "• %s: %s\n", blocks.Escape(u.Assignee), words.Count(u.Actions, "action", "actions"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
