package remind

import (
	"context"
	"strings"

	"github.com/recordsbot/recordsbot/internal/lang"

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
				slack.MsgOptionText(reportText(j.cfg.Language, date, j.sum.Unmatched), false),
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

// reportText is the message listing assignees whom no Slack user matches,
// in l (ORG_LANGUAGE: a channel post).
func reportText(l lang.Lang, date string, unmatched []UnmatchedAssignee) string {
	var b strings.Builder
	b.WriteString(l.N("report.header", len(unmatched), "date", date))
	b.WriteString("\n")
	for i, u := range unmatched {
		if i == maxReportNames {
			b.WriteString(l.N("report.more", len(unmatched)-i))
			b.WriteString("\n")
			break
		}
		b.WriteString(l.F("report.line", "who", blocks.Escape(u.Assignee), "actions", l.N("count.actions", u.Actions)))
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
