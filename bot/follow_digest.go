package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store"
)

// digestChoice is what `/minutes follow <committee> digest …` asked for.
type digestChoice struct {
	// schedule is nil for the organisation's default (DIGEST_DEFAULT),
	// else the channel's day and time, or off.
	schedule *clocktime.Weekly
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
		s, err := clocktime.ParseWeekly(strings.Join(args, " "))
		if err != nil {
			return name, nil, fmt.Sprintf(":thinking_face: I didn't understand `%s`. Use `/minutes follow <committee> digest mon 09:00` (a day and a time, %s), `digest off`, and `mentions` after either to mention the assignees.",
				blocks.EscapeTyped(strings.Join(args, " ")), "in the organisation's time zone")
		}
		c.schedule = &s
	}
	return name, c, ""
}

// setDigest records the channel's digest choice for committee and says
// so, or says why it could not.
func (fu *followUI) setDigest(ctx context.Context, channelID, committee, key string, c *digestChoice) string {
	name := blocks.Escape(committee)
	if c.schedule != nil && !c.schedule.On {
		return fu.digestOff(ctx, channelID, key, name)
	}
	if err := fu.store.SetDigestChoice(ctx, channelID, key, c.schedule, c.mentions); err != nil {
		return fu.say(ctx, "set digest choice", err)
	}
	when := "at the organisation's usual time"
	switch {
	case c.schedule == nil && fu.defaultDigestOff():
		return fmt.Sprintf(":zipper_mouth_face: No weekly digest of *%s* here: the organisation has none by default. `/minutes follow %s digest mon 09:00` chooses a time.", name, name)
	case c.schedule == nil && fu.digestDefault != nil:
		when = "every `" + fu.digestDefault.String() + "`, the organisation's usual time"
	case c.schedule != nil:
		when = "every `" + c.schedule.String() + "`"
	}
	how := "naming the assignees without mentioning them"
	if c.mentions {
		how = "mentioning the assignees"
	}
	msg := fmt.Sprintf(":spiral_calendar_pad: The weekly digest of *%s* comes here %s, %s: its open actions by assignee, overdue first, and what changed since the last one.", name, when, how)
	// Asking for a time is asking for the digest: a channel whose Weekly
	// digest box was unticked (or off by FOLLOW_DEFAULTS) would otherwise
	// be promised a digest that never comes.
	if ticked, err := fu.tickDigest(ctx, channelID, key); err != nil {
		fu.log.WarnContext(ctx, "follow: could not tick the weekly digest", "channel", channelID, "committee", committee, "error", err)
		msg += " Its *Weekly digest* box in `/minutes following` is unticked: tick it there."
	} else if ticked {
		msg += " Its *Weekly digest* box in `/minutes following` is ticked again."
	}
	return msg
}

// tickDigest turns the weekly digest on for the follow of key in
// channelID when it is off, and reports whether it did. It leaves a
// digest that is on alone: turning it on marks it resumed, which would
// skip a slot due but not yet posted.
func (fu *followUI) tickDigest(ctx context.Context, channelID, key string) (bool, error) {
	follows, err := fu.store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return false, fmt.Errorf("read follows: %w", err)
	}
	i := slices.IndexFunc(follows, func(f store.Follow) bool { return f.CommitteeKey == key })
	if i < 0 || fu.defaults.Hears(follows[i].Choices, store.HearDigest) {
		return false, nil
	}
	if _, err := fu.store.SetFollowChoice(ctx, channelID, key, store.HearDigest, true); err != nil {
		return false, fmt.Errorf("tick digest: %w", err)
	}
	return true, nil
}

// digestOff answers `digest off`: it unticks the follow's Weekly digest
// box, the one switch of the digest, and keeps the channel's own day and
// time (and mentions), so that ticking the box again resumes it as it
// was, at its next slot.
func (fu *followUI) digestOff(ctx context.Context, channelID, key, name string) string {
	if _, err := fu.store.SetFollowChoice(ctx, channelID, key, store.HearDigest, false); err != nil {
		return fu.say(ctx, "set digest choice", err)
	}
	back := "Tick its *Weekly digest* box in `/minutes following` to bring it back"
	if d, err := fu.store.Digest(ctx, channelID, key); err == nil && d.Schedule != nil && d.Schedule.On {
		back += " every `" + d.Schedule.String() + "`, as before"
	}
	return fmt.Sprintf(":zipper_mouth_face: No weekly digest of *%s* here: its *Weekly digest* box is unticked. %s, or choose a time with `/minutes follow %s digest mon 09:00`.", name, back, name)
}
