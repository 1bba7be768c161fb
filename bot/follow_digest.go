package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// followOptions are what `/minutes follow <committee> [digest …]
// [language <code>]` asked for.
type followOptions struct {
	name string // the committee as typed
	// digest is nil when the text has no "digest" after the committee.
	digest *follows.DigestChoice
	// language is nil when the text chose none.
	language *languageChoice
}

// languageChoice is what `language <code>` or `language default` chose
// for a follow's posts.
type languageChoice struct {
	lang lang.Lang // the language chosen, unless orgDefault
	// orgDefault is `language default`: no language of the follow's
	// own, so ORG_LANGUAGE again.
	orgDefault bool
}

// orgDefaultWord is what `language default` says in place of a code.
const orgDefaultWord = "default"

// splitFollowOptions splits "<committee> [digest <day> <HH:MM>|off
// [mentions]] [language <code>]" (the two options in either order) into
// the committee as typed and the options. errMsg, in lg, says what was
// not understood.
func splitFollowOptions(lg lang.Lang, typed string) (opts followOptions, errMsg string) {
	words := strings.Fields(typed)
	code, words, hasLang := cutLanguage(words)
	at := -1
	for i := len(words) - 1; i > 0; i-- {
		if strings.EqualFold(words[i], "digest") {
			at = i
			break
		}
	}
	if at >= 0 {
		args := words[at+1:]
		words = words[:at]
		if !hasLang {
			// "… language de digest mon 09:00": the language first.
			code, words, hasLang = cutLanguage(words)
		}
		c := &follows.DigestChoice{}
		if n := len(args); n > 0 && strings.EqualFold(args[n-1], "mentions") {
			c.Mentions, args = true, args[:n-1]
		}
		if len(args) > 0 {
			s, err := clocktime.ParseWeekly(strings.Join(args, " "))
			if err != nil {
				return opts, lg.F("follow.digest_bad", "typed", blocks.EscapeTyped(strings.Join(args, " ")))
			}
			c.Schedule = &s
		}
		opts.digest = c
	}
	if hasLang {
		c, err := parseLanguageChoice(code)
		if err != nil {
			return opts, lg.F("follow.language_bad", "typed", blocks.EscapeTyped(code), "languages", shippedLanguages())
		}
		opts.language = &c
	}
	opts.name = typed
	if at >= 0 || hasLang {
		opts.name = strings.Trim(strings.Join(words, " "), "`'\"")
	}
	return opts, ""
}

// cutLanguage takes "language <code>" off the end of words, when the
// words before it still name something: a committee may have "language"
// in its name ("Welsh Language Board"), but not as its second-last word
// followed by a code.
func cutLanguage(words []string) (code string, rest []string, ok bool) {
	n := len(words)
	if n < 3 || !strings.EqualFold(words[n-2], "language") {
		return "", words, false
	}
	return words[n-1], words[:n-2], true
}

// parseLanguageChoice reads what follows "language": a shipped code, or
// "default" (any case) for ORG_LANGUAGE. Errors: lang.Parse's.
func parseLanguageChoice(code string) (languageChoice, error) {
	if strings.EqualFold(code, orgDefaultWord) {
		return languageChoice{orgDefault: true}, nil
	}
	l, err := lang.Parse(code)
	if err != nil {
		return languageChoice{}, fmt.Errorf("follow language: %w", err)
	}
	return languageChoice{lang: l}, nil
}

// shippedLanguages lists the languages a follow may choose, as a
// command's answer names them: "`en` (English), `fr` (Français), …".
func shippedLanguages() string {
	var parts []string
	for _, l := range lang.Shipped() {
		parts = append(parts, "`"+l.Code()+"` ("+l.Name()+")")
	}
	return strings.Join(parts, ", ")
}

// setDigest records the channel's digest choice for committee (key) and
// says so in ch, the channel's language.
func (fu *followUI) setDigest(ctx context.Context, ch lang.Lang, channelID, key, committee string, c follows.DigestChoice) (string, error) {
	set, err := fu.follows.SetDigest(ctx, channelID, key, c)
	if err != nil {
		return "", err
	}
	name := blocks.Escape(committee)
	box := ch.T("follow.hear.digest")
	switch set.Outcome {
	case follows.DigestNoSlot:
		return ch.F("follow.digest_none_org", "committee", name), nil
	case follows.DigestOff:
		back := ch.F("follow.digest_back", "box", box)
		if set.When.On {
			back = ch.F("follow.digest_back_was", "box", box, "when", blocks.Every(ch, &set.When))
		}
		return ch.F("follow.digest_off", "committee", name, "box", box, "back", back), nil
	}
	when := blocks.Every(ch, &set.When)
	if set.Usual {
		when = ch.F("follow.digest_when_usual", "when", when)
	}
	msg := ch.F("follow.digest_comes_counted", "committee", name, "when", when)
	if fu.actions.ChannelMayName() {
		how := ch.T("follow.digest_how_names")
		if set.Mentions {
			how = ch.T("follow.digest_how_mentions")
		}
		msg = ch.F("follow.digest_comes", "committee", name, "when", when, "how", how)
	}
	// Asking for a time is asking for the digest: a channel whose Weekly
	// digest box was unticked (or off by FOLLOW_DEFAULTS) would otherwise
	// be promised a digest that never comes.
	switch {
	case set.TickFailed:
		msg += " " + ch.F("follow.digest_unticked", "box", box)
	case set.Ticked:
		msg += " " + ch.F("follow.digest_ticked", "box", box)
	}
	return msg, nil
}
