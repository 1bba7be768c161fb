package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
)

// committeeListMax bounds the committees named in one answer.
const committeeListMax = 20

// followCommand answers `/minutes follow|unfollow|following …`, or returns
// nil when the command is something else (a committee or meeting for
// /minutes). What may be done is the follow domain's (package follows);
// this reads the command, asks it, and says what it answered: ephemeral
// answers in the language of who asked (ctx), what the channel reads in
// the channel's.
func (fu *followUI) followCommand(ctx context.Context, cmd command) *reply {
	verb, name, ok := parseFollow(cmd.Args)
	if !ok {
		return nil
	}
	lg := lang.FromContext(ctx)
	if msg := notAChannel(lg, cmd.ChannelID, cmd.ChannelName); msg != "" {
		return notice(msg)
	}
	if verb != "following" {
		if err := fu.follows.MayChange(ctx, cmd.UserID); err != nil {
			return notice(fu.refusal(ctx, cmd.UserID, err, "follow.admins_only", "follow.guest"))
		}
	}
	if fu.store == nil {
		return notice(lg.T("follow.store_not_set"))
	}
	switch {
	case verb == "following":
		return fu.following(ctx, cmd.ChannelID, cmd.UserID, "")
	case name == "":
		return notice(lg.F("follow.which", "usage", lg.T("follow.usage")))
	case verb == "follow":
		opts, bad := splitFollowOptions(lg, name)
		if bad != "" {
			return notice(bad)
		}
		return fu.follow(ctx, cmd, opts)
	}
	return fu.unfollow(ctx, cmd.ChannelID, name)
}

// refusal says why follows.MayChange refused userID, in the reader's
// language: adminsOnly and guest name the messages for this surface.
func (fu *followUI) refusal(ctx context.Context, userID string, err error, adminsOnly, guest lang.Key) string {
	lg := lang.FromContext(ctx)
	switch {
	case errors.Is(err, follows.ErrAdminsOnly):
		return lg.T(adminsOnly)
	case errors.Is(err, follows.ErrGuest):
		return lg.T(guest)
	}
	fu.log.WarnContext(ctx, "follow: users.info failed", "user", userID, "error", err)
	return lg.T("follow.profile_unknown")
}

// parseFollow reads "follow <committee>", "unfollow <committee>" or
// "following" (the verb in any case) from a /minutes command's text: the
// verb, lowercased, and the committee as typed, its words joined by single
// spaces and the quotes people type around names removed. ok is false for
// any other text.
func parseFollow(t commandText) (verb, name string, ok bool) {
	if len(t.Words) == 0 {
		return "", "", false
	}
	verb = strings.ToLower(t.Words[0].Text)
	if verb != "follow" && verb != "unfollow" && verb != "following" {
		return "", "", false
	}
	rest := make([]string, 0, len(t.Words)-1)
	for _, w := range t.Words[1:] {
		rest = append(rest, w.Text)
	}
	return verb, strings.TrimSpace(strings.Trim(strings.Join(rest, " "), "`'\"")), true
}

// notAChannel says why a follow cannot live in a DM or a group DM
// (conversationOf), or "" for a channel: apps cannot be invited into
// either, and the bot's own DM has nobody to announce to.
func notAChannel(lg lang.Lang, channelID, channelName string) string {
	switch conversationOf(channelID, channelName) {
	case inDM:
		return lg.T("follow.dm")
	case inGroupDM:
		return lg.T("follow.mpdm")
	}
	return ""
}

func (fu *followUI) follow(ctx context.Context, cmd command, opts followOptions) *reply {
	lg := lang.FromContext(ctx)
	committee, known, err := fu.follows.Resolve(ctx, opts.name)
	if err != nil {
		return notice(fu.say(ctx, "resolve committee", err))
	}
	if committee == "" {
		return notice(unknownCommittee(lg, opts.name, known))
	}
	if msg, err := fu.botInChannel(ctx, cmd.ChannelID); err != nil {
		fu.log.WarnContext(ctx, "follow: conversations.info failed", "channel", cmd.ChannelID, "error", err)
		return notice(lg.T("follow.membership_unknown"))
	} else if msg != "" {
		return notice(msg)
	}
	f, existed, err := fu.follows.Follow(ctx, cmd.ChannelID, committee, cmd.UserID)
	if err != nil {
		return notice(fu.say(ctx, "follow", err))
	}
	who, name := "<@"+cmd.UserID+">", blocks.Escape(committee)
	var lines []string
	// A choice that fails after the follow is made is said in the
	// channel's answer, with the follow that did happen.
	var langErr error
	if c := opts.language; c != nil {
		if c.orgDefault {
			if langErr = fu.follows.UseOrgLanguage(ctx, cmd.ChannelID, f.CommitteeKey); langErr == nil {
				f.Language = ""
			}
		} else if langErr = fu.follows.SetLanguage(ctx, cmd.ChannelID, f.CommitteeKey, c.lang); langErr == nil {
			f.Language = c.lang.Code()
		}
	}
	// What the channel reads is in the channel's language.
	ch := fu.follows.Rules().Language(f)
	if opts.digest != nil {
		line, err := fu.setDigest(ctx, ch, cmd.ChannelID, f.CommitteeKey, committee, *opts.digest)
		if err != nil {
			line = fu.say(ctx, "set digest choice", err)
		}
		lines = append(lines, line)
	}
	switch {
	case langErr != nil:
		lines = append(lines, fu.say(ctx, "set follow language", langErr))
	case opts.language != nil && opts.language.orgDefault:
		lines = append(lines, ch.F("follow.language_default", "who", who, "committee", name, "language", ch.NameIn(ch)))
	case opts.language != nil:
		lines = append(lines, ch.F("follow.language_set", "who", who, "committee", name, "language", ch.NameIn(ch)))
	}
	switch {
	case existed && len(lines) == 0:
		return notice(lg.F("follow.already", "committee", name))
	case existed && opts.digest != nil && opts.language == nil:
		lines = append([]string{ch.F("follow.changed_digest", "who", who)}, lines...)
	case !existed:
		lines = append([]string{ch.F("follow.made", "who", who, "committee", name)}, lines...)
	}
	return &reply{ResponseType: slack.ResponseTypeInChannel, Text: strings.Join(lines, " ")}
}

func (fu *followUI) unfollow(ctx context.Context, channelID, typed string) *reply {
	lg := lang.FromContext(ctx)
	u, err := fu.follows.Unfollow(ctx, channelID, typed)
	if err != nil {
		return notice(fu.say(ctx, "unfollow", err))
	}
	name := blocks.Escape(u.Committee)
	switch u.Outcome {
	case follows.NothingFollowed:
		return notice(lg.F("unfollow.none", "usage", lg.T("follow.usage")))
	case follows.Ambiguous:
		return notice(lg.F("follow.could_be", "typed", blocks.EscapeTyped(typed), "names", committeeList(lg, u.Candidates)))
	case follows.NotFollowed:
		return notice(lg.F("unfollow.not_followed", "typed", blocks.EscapeTyped(typed), "names", committeeList(lg, u.Candidates)))
	case follows.AlreadyGone:
		return notice(lg.F("unfollow.gone", "committee", name))
	}
	return notice(lg.F("unfollow.done", "committee", name))
}

// matchCommittee picks typed among names; see minutes.MatchCommittee.
func matchCommittee(names []string, typed string) (name string, ambiguous []string) {
	return minutes.MatchCommittee(names, typed)
}

// unknownCommittee is the answer to a committee the records do not know.
func unknownCommittee(lg lang.Lang, typed string, known []string) string {
	if len(known) == 0 {
		return lg.F("follow.no_meetings", "typed", blocks.EscapeTyped(typed))
	}
	var which []string
	for _, n := range known {
		if committeeMatches(n, typed) {
			which = append(which, n)
		}
	}
	if len(which) > 1 {
		return lg.F("follow.could_be", "typed", blocks.EscapeTyped(typed), "names", committeeList(lg, which))
	}
	return lg.F("follow.unknown", "typed", blocks.EscapeTyped(typed), "names", committeeList(lg, known))
}

// committeeList is "*A*, *B* or *C*" in lg, escaped, at most
// committeeListMax names.
func committeeList(lg lang.Lang, names []string) string {
	var parts []string
	for _, n := range names[:min(len(names), committeeListMax)] {
		parts = append(parts, "*"+blocks.Escape(n)+"*")
	}
	if rest := len(names) - len(parts); rest > 0 {
		parts = append(parts, lg.N("follow.list.more", rest))
	}
	return joinWords(lg, parts, "follow.list.or")
}

// joinWords joins parts as a list in lg: "a, b or c" with last naming
// the last joint ("follow.list.or", "follow.list.and"); "none" for none.
func joinWords(lg lang.Lang, parts []string, last lang.Key) string {
	switch len(parts) {
	case 0:
		return lg.T("follow.list.none")
	case 1:
		return parts[0]
	}
	return lg.F(last, "list", strings.Join(parts[:len(parts)-1], ", "), "last", parts[len(parts)-1])
}

// botInChannel checks that the bot can post in channelID before a follow
// is saved, and returns what to tell the user when it cannot ("" when it
// can). conversations.info answers is_member for a channel the bot can
// see, and channel_not_found for a private channel it is not in
// (https://docs.slack.dev/reference/methods/conversations.info: scopes
// channels:read and groups:read for a bot;
// https://docs.slack.dev/reference/objects/conversation-object: is_member).
func (fu *followUI) botInChannel(ctx context.Context, channelID string) (string, error) {
	lg := lang.FromContext(ctx)
	ch, err := fu.slack.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channelID})
	switch code := slackapi.ErrorCode(err); {
	case err == nil && ch.IsMember:
		return "", nil
	case err == nil && (ch.IsIM || ch.IsMpIM):
		return notAChannel(lg, "D", ""), nil
	case err == nil:
		return lg.T("follow.not_in_channel"), nil
	case code == "channel_not_found":
		return lg.T("follow.not_in_private"), nil
	}
	return "", err
}
