package blocks

import (
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

// Action IDs of the Home tab's "Away and rhythm" section (issue 31).
const (
	// ActionSteerPrefix starts each of them.
	ActionSteerPrefix = "steer:"
	// ActionAwaySet is the date picker of the last day away.
	ActionAwaySet = "steer:away"
	// ActionAwayEnd is *I'm back*.
	ActionAwayEnd = "steer:back"
	// ActionCadence is the menu of rhythms: "daily" or a weekly slot
	// ("fri 09:00").
	ActionCadence = "steer:cadence"
	// CadenceDaily is the daily choice's value.
	CadenceDaily = "daily"
)

// Steering is the Home tab's "Away and rhythm" section: a person's time
// away and reminder rhythm.
type Steering struct {
	// AwayUntil is their last day away, in their zone; zero when not
	// away.
	AwayUntil time.Time
	// Cadence is their rhythm as it applies (their choice, else
	// REMIND_CADENCE): off daily, on weekly.
	Cadence clocktime.Weekly
	// At is their reminder time, the time of a weekly choice.
	At clocktime.Time
	// Unavailable, when set, replaces the controls (bot-written mrkdwn).
	Unavailable string
}

// steeringBlocks is the section, none for nil.
func steeringBlocks(s *Steering) []slack.Block {
	if s == nil {
		return nil
	}
	out := []slack.Block{slack.NewDividerBlock(), header("Away and rhythm")}
	if s.Unavailable != "" {
		return append(out, section(s.Unavailable))
	}
	if !s.AwayUntil.IsZero() {
		out = append(out, slack.NewSectionBlock(mrkdwn("*Away:* until "+s.AwayUntil.Format("Mon 2 Jan")+
			". No reminders or assignment DMs until then; one DM of what you missed when you are back."), nil,
			slack.NewAccessory(button(ActionAwayEnd, "back", "I'm back"))))
	} else {
		picker := slack.NewDatePickerBlockElement(ActionAwaySet)
		picker.Placeholder = plain("Away until…")
		out = append(out, slack.NewSectionBlock(mrkdwn("*I'm away until:* pick your last day away. No reminders or assignment DMs until then; one DM of what you missed after."), nil,
			slack.NewAccessory(picker)))
	}
	at := s.At.Or(clocktime.Of(9, 0))
	opts := []*slack.OptionBlockObject{slack.NewOptionBlockObject(CadenceDaily, plain("Daily"), nil)}
	var initial *slack.OptionBlockObject = opts[0]
	for _, d := range []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday} {
		w := clocktime.Weekly{On: true, Day: d, At: at}
		o := slack.NewOptionBlockObject(w.String(), plain("Weekly, "+d.String()+" "+at.String()), nil)
		if s.Cadence.On && s.Cadence.Day == d {
			initial = o
		}
		opts = append(opts, o)
	}
	menu := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plain("Choose a rhythm"), ActionCadence, opts...)
	menu.InitialOption = initial
	rhythm := "Daily"
	if s.Cadence.On {
		rhythm = "Weekly, " + s.Cadence.Day.String() + " " + s.Cadence.At.String() + ": one summary of what is overdue or due within the week"
	}
	out = append(out, slack.NewSectionBlock(mrkdwn("*Reminder rhythm:* "+rhythm), nil, slack.NewAccessory(menu)))
	return out
}
