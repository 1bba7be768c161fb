package blocks

import (
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// ActionFollowChoices is the checkbox group of one follow in the answer to
// /minutes following: each option's value is what the channel hears
// (store.HearDrafts, …), and the block_id is FollowBlockID of the follow's
// committee key. Slack sends, with each tick or untick, every option still
// ticked as selected_options
// (https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element;
// bolt-js CheckboxesAction).
const ActionFollowChoices = "follow:choices"

// blockFollow starts the block_id of a follow's section; the committee key
// follows it, then the render revision.
const blockFollow = "follow:"

// FollowBlockID is the block_id of the follow of committeeKey, drawn at
// revision rev (a new block_id each time the message is redrawn, as Slack
// asks of an updated message; see RowBlockID).
func FollowBlockID(committeeKey, rev string) string {
	return RowBlockID(blockFollow, committeeKey, rev)
}

// FollowKeyOf is the committee key of a FollowBlockID, and whether
// blockID is one.
func FollowKeyOf(blockID string) (string, bool) {
	rest, ok := strings.CutPrefix(blockID, blockFollow)
	if !ok {
		return "", false
	}
	key, _, _ := strings.Cut(rest, revSep)
	return key, key != ""
}

// maxFollowsShown keeps the list within MaxMessageBlocks.
const maxFollowsShown = MaxMessageBlocks - 5

// HearOption is one thing a follow can hear, as its checkbox shows it.
type HearOption struct {
	Value string // store.HearDrafts, …
	Label string // "Drafts published", …
	// Phrase is the option as it reads inside a sentence ("drafts
	// published"); the label lower-cased when empty.
	Phrase string
}

// HearOptions are the options of every follow in l, in order: values
// (store.Hearable's names) with the catalogue's labels.
func HearOptions(l lang.Lang, values []string) []HearOption {
	out := make([]HearOption, 0, len(values))
	for _, v := range values {
		k := hearKeys[v]
		out = append(out, HearOption{Value: v, Label: l.T(k.label), Phrase: l.T(k.phrase)})
	}
	return out
}

// Heard is what follows hear when they hear what (a store.Hearable name),
// as it reads inside a sentence in l: "drafts published".
func Heard(l lang.Lang, what string) string {
	if k, ok := hearKeys[what]; ok {
		return l.T(k.phrase)
	}
	return Escape(what)
}

// hearKeys are the catalogue's words for each thing a follow can hear
// (store.Hearable's names): its checkbox's label and its phrase.
var hearKeys = map[string]struct{ label, phrase lang.Key }{
	"drafts":    {"follow.hear.drafts", "follow.heard.drafts"},
	"approvals": {"follow.hear.approvals", "follow.heard.approvals"},
	"digest":    {"follow.hear.digest", "follow.heard.digest"},
	"briefs":    {"follow.hear.briefs", "follow.heard.briefs"},
}

// phrase is o inside a sentence.
func (o HearOption) phrase() string {
	if o.Phrase != "" {
		return o.Phrase
	}
	return strings.ToLower(o.Label)
}

// FollowRow is one follow as /minutes following shows it.
type FollowRow struct {
	Committee string // as the records spell it; escaped here
	Key       string // the committee key
	By        string // Slack user ID of who followed; "" when unknown
	Since     time.Time
	// Hears are the values of Options the channel hears now.
	Hears map[string]bool
	// Digest, when set, is the channel's own choice of weekly digest
	// ("fri 16:30", or off); nil is the organisation's default.
	Digest *clocktime.Weekly
	// DigestDefault is the organisation's weekly digest time
	// (DIGEST_DEFAULT: "mon 09:00", or off), said where Digest is nil;
	// nil says "the usual time".
	DigestDefault *clocktime.Weekly
	// DigestMentions is set when the digest mentions the assignees.
	DigestMentions bool
	// DigestOption is the value of the option that is the weekly digest
	// (store.HearDigest): its checkbox says when the digest comes.
	DigestOption string
	// Language is the name of the language the channel's posts about the
	// committee are written in ("Deutsch"); "" says nothing.
	Language string
	// LanguageChosen is set when the follow chose Language; else it is
	// the organisation's (ORG_LANGUAGE).
	LanguageChosen bool
}

// Following is the answer to /minutes following.
type Following struct {
	Lang    lang.Lang // the reader's language
	Follows []FollowRow
	// Options are what a follow can hear, each a checkbox, in order.
	Options []HearOption
	// CanChange shows the checkboxes; without it each follow lists what
	// it hears and says who may change it (ChangeNote).
	CanChange  bool
	ChangeNote string // mrkdwn written by the bot
	// Note, when set, is shown under the list: the confirmation of a
	// change (mrkdwn written by the bot).
	Note string
	// Rev is the render revision of the block IDs.
	Rev string
}

// FollowingMessage is the list of a channel's follows, each with what the
// channel hears of it, as checkboxes when the reader may change them.
func FollowingMessage(f Following) Message {
	lg := f.Lang
	out := []slack.Block{section(lg.T("follow.header"))}
	shown := f.Follows
	if len(shown) > maxFollowsShown {
		shown = shown[:maxFollowsShown]
	}
	for _, r := range shown {
		text := "*" + Escape(r.Committee) + "*"
		if r.By != "" {
			text += lg.F("follow.since_by", "date", dateOnly(lg, r.Since), "who", "<@"+Escape(r.By)+">")
		}
		// Where the reader can change it, the digest's schedule is under
		// its checkbox (an option's description); else on the row.
		switch {
		case r.Language != "" && r.LanguageChosen:
			text += "\n" + lg.F("follow.posts_in", "language", r.Language)
		case r.Language != "":
			text += "\n" + lg.F("follow.posts_in_org", "language", r.Language)
		}
		if !f.CanChange && (r.Digest != nil || r.DigestMentions) {
			text += "\n" + lg.F("follow.weekly_digest", "choice", digestChoice(lg, r))
		}
		var on []string
		var options, initial []*slack.OptionBlockObject
		for _, o := range f.Options {
			var desc *slack.TextBlockObject
			if o.Value == r.DigestOption && r.DigestOption != "" {
				// An option's description is held to MaxOptionText;
				// French and Spanish run close to it.
				desc = plain(truncate(digestWhen(lg, r), MaxOptionText))
			}
			opt := slack.NewOptionBlockObject(o.Value, plain(o.Label), desc)
			options = append(options, opt)
			if r.Hears[o.Value] {
				initial = append(initial, opt)
				on = append(on, o.phrase())
			}
		}
		if !f.CanChange {
			hears := lg.T("follow.hears_nothing")
			if len(on) > 0 {
				hears = strings.Join(on, ", ")
			}
			out = append(out, slack.NewSectionBlock(mrkdwn(truncateMrkdwn(text+"\n"+lg.F("follow.hears", "what", hears), MaxSectionText)), nil, nil,
				slack.SectionBlockOptionBlockID(FollowBlockID(r.Key, f.Rev))))
			continue
		}
		boxes := slack.NewCheckboxGroupsBlockElement(ActionFollowChoices, options...)
		boxes.InitialOptions = initial
		out = append(out, slack.NewSectionBlock(mrkdwn(truncateMrkdwn(text, MaxSectionText)), nil, slack.NewAccessory(boxes),
			slack.SectionBlockOptionBlockID(FollowBlockID(r.Key, f.Rev))))
	}
	foot := lg.T("follow.foot")
	if n := len(f.Follows) - len(shown); n > 0 {
		foot = lg.N("follow.more_not_shown", n) + " " + foot
	}
	if !f.CanChange && f.ChangeNote != "" {
		foot = f.ChangeNote + " " + foot
	}
	out = append(out, contextLine(foot))
	if note := strings.TrimSpace(f.Note); note != "" {
		out = append(out, contextLine(truncateMrkdwn(note, MaxSectionText)))
	}
	var names []string
	for _, r := range f.Follows {
		names = append(names, r.Committee)
	}
	return Message{Text: lg.F("follow.fallback", "committees", strings.Join(names, ", ")), Blocks: out}
}

// digestWhen is a follow's digest choice as plain text, for the
// description of its checkbox (at most 75 characters, cut between words
// where a language runs longer:
// https://docs.slack.dev/reference/block-kit/composition-objects/option-object).
// An unticked digest (the channel does not hear it) keeps its own
// schedule, said as what ticking the box brings back.
func digestWhen(lg lang.Lang, r FollowRow) string {
	schedule, orgDefault, on := r.Digest, r.DigestDefault, r.Hears[r.DigestOption]
	s := Every(lg, schedule)
	switch {
	case !weeklyOn(schedule) && weeklyOff(orgDefault):
		s = lg.T("follow.when.off_usual")
	case !on && !weeklyOn(schedule) && orgDefault != nil:
		s = lg.F("follow.when.off_default", "schedule", scheduleText(lg, *orgDefault))
	case !on && !weeklyOn(schedule):
		s = lg.T("follow.when.off_ticked")
	case !on:
		s = lg.F("follow.when.off_was", "schedule", scheduleText(lg, *schedule))
	case schedule == nil && orgDefault != nil:
		s = lg.F("follow.when.default", "schedule", scheduleText(lg, *orgDefault))
	case schedule == nil:
		s = lg.T("follow.when.usual")
	}
	if r.DigestMentions {
		s = lg.F("follow.mentioning", "choice", s)
	}
	return s
}

// digestChoice is a follow's digest choice as /minutes following shows it.
func digestChoice(lg lang.Lang, r FollowRow) string {
	schedule, orgDefault, on := r.Digest, r.DigestDefault, r.Hears[r.DigestOption]
	s := Every(lg, schedule)
	switch {
	case !on && weeklyOn(schedule):
		s = lg.F("follow.choice.off_was", "schedule", Every(lg, schedule))
	case !on:
		s = lg.T("follow.choice.off")
	case schedule == nil && orgDefault != nil:
		s = lg.F("follow.choice.default", "schedule", Every(lg, orgDefault))
	case schedule == nil:
		s = lg.T("follow.choice.usual")
	}
	if r.DigestMentions {
		s = lg.F("follow.mentioning", "choice", s)
	}
	return s
}

// weeklyOn reports whether a schedule is said and on; weeklyOff whether
// it is said and off (nil is neither: the default).
func weeklyOn(w *clocktime.Weekly) bool  { return w != nil && w.On }
func weeklyOff(w *clocktime.Weekly) bool { return w != nil && !w.On }

// Every is a weekly slot as people read it in l, lower-case as it sits
// inside a sentence or a label: "every Monday 09:00", "chaque lundi à
// 09:00"; "off" for an off slot and "" for nil.
func Every(lg lang.Lang, w *clocktime.Weekly) string {
	switch {
	case w == nil:
		return ""
	case !w.On:
		return lg.T("follow.choice.off")
	}
	return lg.F("follow.when.every", "schedule", scheduleText(lg, *w))
}

// scheduleText is an on slot's day and time in l: "Monday 09:00".
func scheduleText(lg lang.Lang, w clocktime.Weekly) string {
	return lg.F("follow.schedule", "day", lg.Weekday(w.Day), "time", w.At.String())
}
