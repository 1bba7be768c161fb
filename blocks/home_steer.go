package blocks

import (
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Action IDs of the Home tab's "Away and rhythm" section.
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

// AwayRhythm is the Home tab's "Away and rhythm" section: a person's time
// away and reminder rhythm.
type AwayRhythm struct {
	// AwayUntil is their last day away, in their zone; zero when not
	// away.
	AwayUntil time.Time
	// Cadence is their rhythm as it applies (their choice, else
	// REMIND_CADENCE): off daily, on weekly.
	Cadence clocktime.Weekly
	// At is their reminder time as it applies (store.Effective's, never
	// zero there), the time of a weekly choice.
	At clocktime.Time
	// Unavailable, when set, replaces the controls (bot-written mrkdwn).
	Unavailable string
}

// awayRhythmBlocks is the section in l, none for nil.
func awayRhythmBlocks(l lang.Lang, s *AwayRhythm) []slack.Block {
	if s == nil {
		return nil
	}
	out := []slack.Block{slack.NewDividerBlock(), header(l.T("steer.header"))}
	if s.Unavailable != "" {
		return append(out, section(s.Unavailable))
	}
	if !s.AwayUntil.IsZero() {
		out = append(out, slack.NewSectionBlock(mrkdwn(l.F("steer.away", "date", l.WeekdayDate(s.AwayUntil))), nil,
			slack.NewAccessory(button(ActionAwayEnd, "back", l.T("steer.back")))))
	} else {
		picker := slack.NewDatePickerBlockElement(ActionAwaySet)
		picker.Placeholder = plain(l.T("steer.away_until"))
		out = append(out, slack.NewSectionBlock(mrkdwn(l.T("steer.away_pick")), nil,
			slack.NewAccessory(picker)))
	}
	at := s.At
	opts := []*slack.OptionBlockObject{slack.NewOptionBlockObject(CadenceDaily, plain(l.T("steer.daily")), nil)}
	var initial *slack.OptionBlockObject = opts[0]
	for _, d := range []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday} {
		w := clocktime.Weekly{On: true, Day: d, At: at}
		o := slack.NewOptionBlockObject(w.String(), plain(l.F("steer.weekly", "weekday", l.Weekday(d), "time", at.String())), nil)
		if s.Cadence.On && s.Cadence.Day == d {
			initial = o
		}
		opts = append(opts, o)
	}
	menu := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plain(l.T("steer.choose")), ActionCadence, opts...)
	menu.InitialOption = initial
	rhythm := l.T("steer.daily")
	if s.Cadence.On {
		rhythm = l.F("steer.weekly_rhythm", "weekday", l.Weekday(s.Cadence.Day), "time", s.Cadence.At.String())
	}
	out = append(out, slack.NewSectionBlock(mrkdwn(l.F("steer.rhythm", "rhythm", rhythm)), nil, slack.NewAccessory(menu)))
	return out
}
