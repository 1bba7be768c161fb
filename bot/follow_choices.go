package bot

import (
	"context"
	"errors"
	"strconv"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// following answers /minutes following: the channel's follows, each with
// what the channel hears of it (announcements in watch/announce.go, the
// weekly digest in watch/digest.go, the pre-meeting brief in
// watch/brief.go, in store.Hearable's order), as checkboxes when userID
// may change them (follows.Service.MayChange). note, when set, is shown
// under the list.
func (fu *followUI) following(ctx context.Context, channelID, userID, note string) *reply {
	lg := lang.FromContext(ctx)
	listed, err := fu.follows.InChannel(ctx, channelID)
	if err != nil {
		return notice(fu.say(ctx, "following", err))
	}
	if len(listed) == 0 {
		return notice(lg.T("follow.none_yet"))
	}
	rules := fu.follows.Rules()
	usual := rules.Usual()
	f := blocks.Following{
		Lang:    lg,
		Options: blocks.HearOptions(lg, store.Hearable()),
		Note:    note,
		Rev:     strconv.FormatInt(fu.now().UnixNano(), 36),
	}
	switch err := fu.follows.MayChange(ctx, userID); {
	case err == nil:
		f.CanChange = true
	case errors.Is(err, follows.ErrGuest):
		f.ChangeNote = lg.T("follow.choices_guest_note")
	case errors.Is(err, follows.ErrAdminsOnly):
		f.ChangeNote = lg.T("follow.choices_admins_only")
	default:
		// Slack could not say who is asking: the boxes are shown, and a
		// tick is checked again (choose).
		f.CanChange = true
	}
	for _, l := range listed {
		f.Follows = append(f.Follows, blocks.FollowRow{Committee: l.Committee, Key: l.CommitteeKey, By: l.By, Since: l.At, Hears: l.Hears,
			DigestOption: store.HearDigest, DigestDefault: &usual, Digest: l.Digest.Schedule, DigestMentions: l.Digest.Mentions,
			Language: l.Language.NameIn(lg), LanguageChosen: l.LanguageChosen})
	}
	return ephemeral(blocks.FollowingMessage(f))
}

// choose answers a tick or untick in /minutes following: the follow's
// choices become the boxes now ticked (follows.Service.Choose), and the
// list is drawn again in place (with the store's state, so a refused
// change shows the boxes as they were).
func (fu *followUI) choose(ctx context.Context, in *interaction) *reply {
	lg := lang.FromContext(ctx)
	channel, user := in.channelID(), in.User.ID
	act := in.Actions[0]
	key, ok := blocks.FollowKeyOf(act.BlockID)
	if !ok || fu.store == nil {
		return notice(staleButton(ctx))
	}
	if err := fu.follows.MayChange(ctx, user); err != nil {
		why := fu.refusal(ctx, user, err, "follow.choices_admins_only", "follow.choices_guest_note")
		if !errors.Is(err, follows.ErrProfileUnknown) {
			why = lg.F("follow.choices_refused", "why", why)
		}
		return fu.following(ctx, channel, user, why)
	}
	ticked := map[string]bool{}
	for _, o := range act.SelectedOptions {
		ticked[o.Value] = true
	}
	chosen, err := fu.follows.Choose(ctx, channel, key, ticked)
	switch {
	case errors.Is(err, follows.ErrNotFollowed):
		return fu.following(ctx, channel, user, lg.T("follow.choices_gone"))
	case err != nil:
		return fu.following(ctx, channel, user, fu.say(ctx, "follow choices", err))
	}
	fu.log.InfoContext(ctx, "follow choices changed", "channel", channel, "committee", key, "user", user, "hears", chosen.Hears)
	var heard []string
	for _, what := range chosen.Hears {
		heard = append(heard, blocks.Heard(lg, what))
	}
	what := lg.T("follow.brings_nothing")
	if len(heard) > 0 {
		what = joinWords(lg, heard, "follow.list.and")
	}
	name := blocks.Escape(chosen.Committee)
	note := lg.F("follow.changed", "who", "<@"+user+">", "committee", name, "what", what)
	if chosen.DigestNeedsTime {
		note += " " + lg.F("follow.digest_no_time", "committee", name)
	}
	return fu.following(ctx, channel, user, note)
}
