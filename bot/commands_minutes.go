package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/minutes"
)

func (mu *minutesUI) commandMinutes(ctx context.Context, cmd command) *reply {
	arg := cmd.Args.argument()
	if strings.EqualFold(arg, "help") {
		return ephemeral(blocks.Help("/minutes", ""))
	}
	if r := mu.follow.followCommand(ctx, cmd); r != nil {
		return r
	}
	if typed, ok := searchTyped(cmd.Args); ok {
		return mu.commandSearch(ctx, typed)
	}
	if arg != "" {
		e, err := mu.svc.Read(ctx, arg)
		switch {
		case err == nil && e.Minutes == nil:
			return notice(fmt.Sprintf(":page_facing_up: *%s* has no published minutes yet.", blocks.Escape(e.Meeting.Name())))
		case err == nil:
			return mu.minutesReply(e, "")
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
			return ephemeral(blocks.Help("/minutes", fmt.Sprintf("I found no meeting or committee called `%s`.", blocks.EscapeTyped(arg))))
		case arg != "":
			return notice(fmt.Sprintf(":page_facing_up: No minutes have been published for *%s* in its last %d meetings.", blocks.EscapeTyped(arg), seen))
		}
		return notice(fmt.Sprintf(":page_facing_up: No minutes have been published in the last %d meetings.", seen))
	}
	return mu.minutesReply(e, "")
}

func (mu *minutesUI) minutesReply(e minutes.Entry, sharedBy string) *reply {
	return ephemeral(blocks.Minutes(blocks.MinutesView{Display: mu.svc.View(e), Shareable: sharedBy == "", SharedBy: sharedBy}))
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
