package bot

import (
	"context"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

func (mu *minutesUI) commandMinutes(ctx context.Context, cmd command) *reply {
	lg := lang.FromContext(ctx)
	cmd.Args = cmd.Args.withKeyword("help", "search", "follow", "unfollow", "following")
	arg := cmd.Args.argument()
	if strings.EqualFold(arg, "help") {
		return ephemeral(blocks.Help(lg, "/minutes", ""))
	}
	if r := mu.follow.followCommand(ctx, cmd); r != nil {
		return r
	}
	if r := mu.topics.topicCommand(ctx, cmd); r != nil {
		return r
	}
	if typed, ok := searchTyped(cmd.Args); ok {
		return mu.commandSearch(ctx, typed)
	}
	if arg != "" {
		e, err := mu.svc.Read(ctx, arg)
		switch {
		case err == nil && e.Minutes == nil:
			return notice(lg.F("minutes.not_published", "title", blocks.Escape(e.Meeting.Name())))
		case err == nil:
			return mu.minutesReply(lg, e)
		case e.Meeting != nil:
			return notice(mu.say(ctx, "get minutes", err))
		case !isNotFound(err):
			return notice(mu.say(ctx, "get meeting", err))
		}
		// Not a meeting ID or reference: a committee name.
	}
	e, seen, err := mu.svc.Latest(ctx, arg)
	if err != nil {
		return notice(mu.say(ctx, "latest minutes", err))
	}
	if e.Meeting == nil {
		switch {
		case arg != "" && seen == 0:
			return ephemeral(blocks.Help(lg, "/minutes", lg.F("cmd.no_such", "name", blocks.EscapeTyped(arg))))
		case arg != "":
			return notice(lg.N("minutes.none_for", seen, "committee", blocks.EscapeTyped(arg)))
		}
		return notice(lg.N("minutes.none_recent", seen))
	}
	return mu.minutesReply(lg, e)
}

// minutesReply shows e's minutes to their reader, in lg, with the button
// that shares them in the channel.
func (mu *minutesUI) minutesReply(lg lang.Lang, e minutes.Entry) *reply {
	return ephemeral(blocks.Minutes(blocks.MinutesView{Display: mu.svc.View(e), Lang: lg, Shareable: true}))
}

// committeeMatches reports whether committee is what the user typed; see
// minutes.CommitteeMatches.
func committeeMatches(committee, typed string) bool {
	return minutes.CommitteeMatches(committee, typed)
}

// minutesURL is where the full minutes can be read; see minutes.Service.URL.
func (mu *minutesUI) minutesURL(meetingID string, min *apiclient.Minutes) string {
	return mu.svc.URL(meetingID, min)
}
