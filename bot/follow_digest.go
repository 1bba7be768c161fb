package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/watch"
)

// digestChoice is what `/minutes follow <committee> digest …` asked for.
type digestChoice struct {
	// schedule is "" for the organisation's default (DIGEST_DEFAULT),
	// "off", or a day and time as watch.Schedule writes it.
	schedule string
	mentions bool
}

// splitDigest splits "<committee> digest <day> <HH:MM>|off [mentions]"
// into the committee as typed and the choice; choice is nil when the text
// has no "digest" after the committee. errMsg says what was not
// understood.
func splitDigest(typed string) (name string, choice *digestChoice, errMsg string) {
	words := strings.Fields(typed)
	at := -1
	for i := len(words) - 1; i > 0; i-- {
		if strings.EqualFold(words[i], "digest") {
			at = i
			break
		}
	}
	if at < 0 {
		return typed, nil, ""
	}
	name = strings.Trim(strings.Join(words[:at], " "), "`'\"")
	args := words[at+1:]
	c := &digestChoice{}
	if n := len(args); n > 0 && strings.EqualFold(args[n-1], "mentions") {
		c.mentions, args = true, args[:n-1]
	}
	if len(args) > 0 {
		s, err := watch.ParseSchedule(strings.Join(args, " "))
		if err != nil {
			return name, nil, fmt.Sprintf(":thinking_face: I didn't understand `%s`. Use `/minutes follow <committee> digest mon 09:00` (a day and a time, %s), `digest off`, and `mentions` after either to mention the assignees.",
				blocks.EscapeTyped(strings.Join(args, " ")), "in the organisation's time zone")
		}
		c.schedule = s.String()
	}
	return name, c, ""
}

// setDigest records the channel's digest choice for committee and says
// so, or says why it could not.
func (fu *followUI) setDigest(ctx context.Context, channelID, committee, key string, c *digestChoice) string {
	if err := fu.store.SetDigestChoice(ctx, channelID, key, c.schedule, c.mentions); err != nil {
		return fu.say(ctx, "set digest choice", err)
	}
	name := blocks.Escape(committee)
	when := "at the organisation's usual time"
	switch {
	case c.schedule == "off", c.schedule == "" && fu.digestDefault == "off":
		return fmt.Sprintf(":zipper_mouth_face: No weekly digest of *%s* here. `/minutes follow %s digest mon 09:00` brings it back.", name, name)
	case c.schedule == "" && fu.digestDefault != "":
		when = "every `" + fu.digestDefault + "`, the organisation's usual time"
	case c.schedule != "":
		when = "every `" + c.schedule + "`"
	}
	how := "naming the assignees without mentioning them"
	if c.mentions {
		how = "mentioning the assignees"
	}
	return fmt.Sprintf(":spiral_calendar_pad: The weekly digest of *%s* comes here %s, %s: its open actions by assignee, overdue first, and what changed since the last one.", name, when, how)
}
