package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// User-facing messages of the follow commands and the settings.
const (
	msgStoreDown         = ":warning: I can't reach my database right now, so nothing was changed. Nothing is lost: please try again in a few minutes."
	msgStoreNotSet       = ":warning: recordsbot runs without its database here, so it can't remember follows or settings. Please tell the app's admin (DATABASE_URL)."
	msgFollowUsage       = "Use `/minutes follow <committee>`, `/minutes unfollow <committee>` or `/minutes following` in a channel."
	msgFollowAdminsOnly  = ":lock: Only the app's admins may change which committees a channel follows here. Please ask one of them."
	msgMembershipUnknown = ":warning: Slack didn't tell me just now whether I'm in this channel, so nothing was changed. Please try again in a minute."
	msgFollowGuest       = ":lock: Guests can't change which committees a channel follows. Please ask a member of the channel to do it."
	msgProfileUnknown    = ":warning: I couldn't check your Slack profile just now, so nothing was changed. Please try again in a minute."
	// committeeListMax bounds the committees named in one answer.
	committeeListMax = 20
)

// followCommand answers `/minutes follow|unfollow|following …`, or returns
// nil when the command is something else (a committee or meeting for
// /minutes).
func (fu *followUI) followCommand(ctx context.Context, cmd command) *reply {
	verb, name, ok := parseFollow(cmd.Args)
	if !ok {
		return nil
	}
	if msg := notAChannel(cmd.ChannelID, cmd.ChannelName); msg != "" {
		return notice(msg)
	}
	if verb != "following" && fu.adminsOnly && !fu.isAdmin(cmd.UserID) {
		return notice(msgFollowAdminsOnly)
	}
	if verb != "following" {
		// A follow posts to everyone in the channel from then on, which
		// is a member's decision; users.info is cached, so this costs
		// nothing most of the time.
		me, err := fu.who(ctx, cmd.UserID)
		switch {
		case me.Guest:
			return notice(msgFollowGuest)
		case err != nil:
			fu.log.WarnContext(ctx, "follow: users.info failed", "user", cmd.UserID, "error", err)
			return notice(msgProfileUnknown)
		}
	}
	if fu.store == nil {
		return notice(msgStoreNotSet)
	}
	switch {
	case verb == "following":
		return fu.following(ctx, cmd.ChannelID, cmd.UserID, "")
	case name == "":
		return notice(fmt.Sprintf(":thinking_face: Which committee? %s", msgFollowUsage))
	case verb == "follow":
		typed, digest, bad := splitDigest(name)
		if bad != "" {
			return notice(bad)
		}
		return fu.follow(ctx, cmd, typed, digest)
	}
	return fu.unfollow(ctx, cmd.ChannelID, name)
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

// notAChannel says why a follow cannot live in a DM or a group DM, or ""
// for a channel. Slack names such conversations by ID (D…) and by the
// channel_name it sends with a command ("directmessage", "mpdm-…"); apps
// cannot be invited into a DM between people or a group DM
// (https://api.slack.com/methods/chat.postMessage#errors, see
// cantPostHere), and the bot's own DM has nobody to announce to.
func notAChannel(channelID, channelName string) string {
	switch {
	case strings.HasPrefix(channelID, "D") || channelName == "directmessage":
		return ":speech_balloon: Follows are for channels: in a direct message Slack doesn't let me in, and `/invite` can't add me. Run `/minutes follow <committee>` in the channel that should hear about new minutes."
	case strings.HasPrefix(channelName, "mpdm-"):
		return ":speech_balloon: Follows are for channels: Slack doesn't let apps into a group DM, so `/invite` can't add me here. Run `/minutes follow <committee>` in a channel instead."
	}
	return ""
}

func (fu *followUI) follow(ctx context.Context, cmd command, typed string, digest *digestChoice) *reply {
	committee, known, err := fu.resolveCommittee(ctx, typed)
	if err != nil {
		return notice(fu.say(ctx, "resolve committee", err))
	}
	if committee == "" {
		return notice(unknownCommittee(typed, known))
	}
	if msg, err := fu.botInChannel(ctx, cmd.ChannelID); err != nil {
		fu.log.WarnContext(ctx, "follow: conversations.info failed", "channel", cmd.ChannelID, "error", err)
		return notice(msgMembershipUnknown)
	} else if msg != "" {
		return notice(msg)
	}
	f := store.Follow{ChannelID: cmd.ChannelID, Committee: committee, CommitteeKey: minutes.CommitteeKey(committee), By: cmd.UserID}
	existed, err := fu.store.Follow(ctx, f)
	if err != nil {
		return notice(fu.say(ctx, "follow", err))
	}
	if !existed && fu.baseline != nil {
		// "From now on" starts here: what is visible now is old news, and
		// anything published after this is announced.
		if err := fu.baseline(ctx, f); err != nil {
			fu.log.WarnContext(ctx, "follow: baseline not taken; the watcher's next poll takes it", "channel", f.ChannelID,
				"committee", committee, "error", err)
		}
	}
	name := blocks.Escape(committee)
	digestLine := ""
	if digest != nil {
		digestLine = " " + fu.setDigest(ctx, cmd.ChannelID, committee, f.CommitteeKey, digest)
	}
	if existed {
		if digest != nil {
			return &reply{ResponseType: slack.ResponseTypeInChannel, Text: fmt.Sprintf("<@%s> changed this channel's digest.%s", cmd.UserID, digestLine)}
		}
		return notice(fmt.Sprintf(":information_source: This channel already follows *%s*: I post here when its minutes are published or approved.", name))
	}
	return &reply{ResponseType: slack.ResponseTypeInChannel, Text: fmt.Sprintf(
		":white_check_mark: <@%s> made this channel follow *%s*. From now on I'll post here when minutes of *%s* are published (as a draft) or approved; nothing from before today. `/minutes unfollow %s` stops it.%s",
		cmd.UserID, name, name, name, digestLine)}
}

func (fu *followUI) unfollow(ctx context.Context, channelID, typed string) *reply {
	follows, err := fu.store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return notice(fu.say(ctx, "unfollow", err))
	}
	// Matched against what the channel follows rather than the records, so
	// a committee the records no longer list can still be unfollowed.
	var names []string
	for _, f := range follows {
		names = append(names, f.Committee)
	}
	committee, ambiguous := matchCommittee(names, typed)
	switch {
	case len(follows) == 0:
		return notice(fmt.Sprintf(":information_source: This channel doesn't follow any committee, so there is nothing to unfollow. %s", msgFollowUsage))
	case len(ambiguous) > 1:
		return notice(fmt.Sprintf(":thinking_face: `%s` could be %s. Please type more of the name.", blocks.EscapeTyped(typed), committeeList(ambiguous)))
	case committee == "":
		return notice(fmt.Sprintf(":information_source: This channel doesn't follow `%s`. It follows %s.", blocks.EscapeTyped(typed), committeeList(names)))
	}
	existed, err := fu.store.Unfollow(ctx, channelID, minutes.CommitteeKey(committee))
	if err != nil {
		return notice(fu.say(ctx, "unfollow", err))
	}
	if !existed {
		return notice(fmt.Sprintf(":information_source: This channel no longer followed *%s*.", blocks.Escape(committee)))
	}
	return notice(fmt.Sprintf(":white_check_mark: This channel no longer follows *%s*: I won't post its minutes here any more.", blocks.Escape(committee)))
}

// resolveCommittee finds the committee typed among those of recent
// meetings, as /minutes does (case-insensitive, a prefix is enough), and
// returns its name as the records spell it, or "" and the committees known.
// An exact name wins over longer names it is a prefix of; a prefix of
// several names matches none of them.
func (fu *followUI) resolveCommittee(ctx context.Context, typed string) (string, []string, error) {
	known, err := fu.knownCommittees(ctx, typed)
	if err != nil {
		return "", nil, err
	}
	name, _ := matchCommittee(known, typed)
	return name, known, nil
}

// matchCommittee picks typed among names; see minutes.MatchCommittee.
func matchCommittee(names []string, typed string) (name string, ambiguous []string) {
	return minutes.MatchCommittee(names, typed)
}

// knownCommittees lists the committees of recent meetings (as many pages as
// /minutes reads), each once under its newest spelling, sorted by name.
// Future meetings count: a new committee may be followed before it meets.
// The walk stops at the page where a committee named exactly (ignoring
// case) stop appears: a prefix needs every page, to know it names one
// committee only, but a whole name does not.
func (fu *followUI) knownCommittees(ctx context.Context, stop string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	next := ""
	for page := 0; page < maxMeetingPages; page++ {
		p, err := fu.meetings.Meetings(ctx, next)
		if err != nil {
			return nil, err
		}
		for _, m := range p.Meetings {
			key := minutes.CommitteeKey(m.Committee)
			if key != "" && !seen[key] {
				seen[key] = true
				out = append(out, strings.TrimSpace(m.Committee))
			}
		}
		if next = p.Next; next == "" || seen[minutes.CommitteeKey(stop)] {
			break
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out, nil
}

// unknownCommittee is the answer to a committee the records do not know.
func unknownCommittee(typed string, known []string) string {
	if len(known) == 0 {
		return fmt.Sprintf(":mag: I found no committee called `%s`: the records list no meetings yet.", blocks.EscapeTyped(typed))
	}
	matches := 0
	for _, n := range known {
		if committeeMatches(n, typed) {
			matches++
		}
	}
	if matches > 1 {
		var which []string
		for _, n := range known {
			if committeeMatches(n, typed) {
				which = append(which, n)
			}
		}
		return fmt.Sprintf(":thinking_face: `%s` could be %s. Please type more of the name.", blocks.EscapeTyped(typed), committeeList(which))
	}
	return fmt.Sprintf(":mag: I found no committee called `%s`. The committees in the records are %s.", blocks.EscapeTyped(typed), committeeList(known))
}

// committeeList is "*A*, *B* or *C*", escaped, at most committeeListMax
// names.
func committeeList(names []string) string {
	var parts []string
	for _, n := range names[:min(len(names), committeeListMax)] {
		parts = append(parts, "*"+blocks.Escape(n)+"*")
	}
	if rest := len(names) - len(parts); rest > 0 {
		parts = append(parts, fmt.Sprintf("%d more", rest))
	}
	switch len(parts) {
	case 0:
		return "none"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// botInChannel checks that the bot can post in channelID before a follow
// is saved, and returns what to tell the user when it cannot ("" when it
// can). conversations.info answers is_member for a channel the bot can
// see, and channel_not_found for a private channel it is not in
// (https://docs.slack.dev/reference/methods/conversations.info: scopes
// channels:read and groups:read for a bot;
// https://docs.slack.dev/reference/objects/conversation-object: is_member).
func (fu *followUI) botInChannel(ctx context.Context, channelID string) (string, error) {
	ch, err := fu.slack.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channelID})
	fu.metrics.SlackCall("conversations.info", err)
	switch code := slackapi.ErrorCode(err); {
	case err == nil && ch.IsMember:
		return "", nil
	case err == nil && (ch.IsIM || ch.IsMpIM):
		return notAChannel("D", ""), nil
	case err == nil:
		return ":wave: I'm not in this channel yet, so I couldn't post the minutes here. Invite me with `/invite @recordsbot`, then run the command again.", nil
	case code == "channel_not_found":
		return ":lock: I'm not in this private channel, so I couldn't post the minutes here. Invite me with `/invite @recordsbot`, then run the command again.", nil
	}
	return "", err
}
