package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store"
)

// hearOptions are the checkboxes of /minutes following: what a follow can
// hear, each honoured by the watcher (announcements in watch/announce.go,
// the weekly digest in watch/digest.go, the pre-meeting brief in
// watch/brief.go), in store.Hearable's order.
var hearOptions = []blocks.HearOption{
	{Value: store.HearDrafts, Label: "Drafts published"},
	{Value: store.HearApprovals, Label: "Approvals"},
	{Value: store.HearDigest, Label: "Weekly digest"},
	{Value: store.HearBriefs, Label: "Pre-meeting briefs"},
}

const (
	msgChoicesAdminsOnly = "Only the app's admins may change what this channel hears (`FOLLOW_ADMINS_ONLY`)."
	msgChoicesGuest      = ":lock: Guests can't change what this channel hears. Nothing was changed."
	msgChoicesGone       = ":information_source: This channel no longer follows that committee."
)

// following answers /minutes following: the channel's follows, each with
// what the channel hears of it, as checkboxes userID may tick (anyone, or
// only admins with FOLLOW_ADMINS_ONLY). note, when set, is shown under the
// list.
func (fu *followUI) following(ctx context.Context, channelID, userID, note string) *reply {
	follows, err := fu.store.FollowsInChannel(ctx, channelID)
	if err != nil {
		return notice(fu.say(ctx, "following", err))
	}
	if len(follows) == 0 {
		return notice(":information_source: This channel doesn't follow any committee yet. `/minutes follow <committee>` makes it hear when a committee's minutes are published or approved.")
	}
	f := blocks.Following{
		Options:    hearOptions,
		CanChange:  !fu.adminsOnly || fu.isAdmin(userID),
		ChangeNote: msgChoicesAdminsOnly,
		Note:       note,
		Rev:        strconv.FormatInt(fu.now().UnixNano(), 36),
	}
	for _, fl := range follows {
		// The digest's own schedule, chosen with /minutes follow … digest;
		// a store that fails here only leaves it out.
		d, err := fu.store.Digest(ctx, channelID, fl.CommitteeKey)
		if err != nil {
			d = store.Digest{}
		}
		hears := map[string]bool{}
		for _, o := range hearOptions {
			hears[o.Value] = fu.defaults.Hears(fl.Choices, o.Value)
		}
		// One switch: the box is ticked exactly when the watcher will
		// post the digest (watch/digest.go honours both).
		hears[store.HearDigest] = hears[store.HearDigest] && fu.digestScheduled(d.Schedule)
		f.Follows = append(f.Follows, blocks.FollowRow{Committee: fl.Committee, Key: fl.CommitteeKey, By: fl.By, Since: fl.At, Hears: hears,
			DigestOption: store.HearDigest, DigestDefault: fu.digestDefault, Digest: d.Schedule, DigestMentions: d.Mentions})
	}
	return ephemeral(blocks.FollowingMessage(f))
}

// choose answers a tick or untick in /minutes following: the follow's
// choices become the boxes now ticked, and the list is drawn again in
// place (with the store's state, so a refused change shows the boxes as
// they were). Slack sends every box still ticked, not the one clicked
// (selected_options), so two quick clicks each land whole.
func (fu *followUI) choose(ctx context.Context, in *interaction) *reply {
	channel, user := in.channelID(), in.User.ID
	act := in.Actions[0]
	key, ok := blocks.FollowKeyOf(act.BlockID)
	if !ok || fu.store == nil {
		return notice(staleButton(ctx))
	}
	if fu.adminsOnly && !fu.isAdmin(user) {
		return fu.following(ctx, channel, user, ":lock: "+msgChoicesAdminsOnly+" Nothing was changed.")
	}
	if me, err := fu.who(ctx, user); err != nil {
		fu.log.WarnContext(ctx, "follow choices: users.info failed", "user", user, "error", err)
		return fu.following(ctx, channel, user, msgProfileUnknown)
	} else if me.Guest {
		return fu.following(ctx, channel, user, msgChoicesGuest)
	}
	follows, err := fu.store.FollowsInChannel(ctx, channel)
	if err != nil {
		return notice(fu.say(ctx, "follow choices", err))
	}
	i := slices.IndexFunc(follows, func(f store.Follow) bool { return f.CommitteeKey == key })
	if i < 0 {
		return fu.following(ctx, channel, user, msgChoicesGone)
	}
	d, err := fu.store.Digest(ctx, channel, key)
	if err != nil {
		return fu.following(ctx, channel, user, fu.say(ctx, "follow choices", err))
	}
	ticked := map[string]bool{}
	for _, o := range act.SelectedOptions {
		ticked[o.Value] = true
	}
	var hears []string
	extra := ""
	for _, o := range hearOptions {
		was := fu.defaults.Hears(follows[i].Choices, o.Value)
		if o.Value == store.HearDigest {
			// As the box showed it: on only when a schedule is on too.
			was = was && fu.digestScheduled(d.Schedule)
		}
		if ticked[o.Value] && !was && o.Value == store.HearDigest {
			note, err := fu.resumeDigest(ctx, channel, key, follows[i].Committee, d)
			if err != nil {
				return fu.following(ctx, channel, user, fu.say(ctx, "follow choices", err))
			}
			if note != "" {
				extra = " " + note
				continue
			}
		}
		if ticked[o.Value] {
			hears = append(hears, strings.ToLower(o.Label))
		}
		if ticked[o.Value] == was {
			continue
		}
		if _, err := fu.store.SetFollowChoice(ctx, channel, key, o.Value, ticked[o.Value]); err != nil {
			return fu.following(ctx, channel, user, fu.say(ctx, "follow choices", err))
		}
	}
	// A digest ticked back on comes at its next slot, not at once for
	// the slot it missed: the store marks it resumed (store.Digest's
	// ResumedAt), which the watcher honours.
	fu.log.InfoContext(ctx, "follow choices changed", "channel", channel, "committee", key, "user", user, "hears", hears)
	what := "nothing from me"
	switch n := len(hears); {
	case n == 1:
		what = hears[0]
	case n > 1:
		what = strings.Join(hears[:n-1], ", ") + " and " + hears[n-1]
	}
	return fu.following(ctx, channel, user, ":white_check_mark: <@"+user+"> changed it: *"+blocks.Escape(follows[i].Committee)+"* now brings "+what+" here."+extra)
}

// digestScheduled reports whether a follow's digest schedule (as
// store.Digest.Schedule keeps it) has a slot: its own day and time, or
// DIGEST_DEFAULT when it has none and that is not off. An off schedule
// is how `digest off` was kept before it became the Weekly digest box.
func (fu *followUI) digestScheduled(schedule *clocktime.Weekly) bool {
	if schedule != nil {
		return schedule.On
	}
	return !fu.defaultDigestOff()
}

// defaultDigestOff reports whether DIGEST_DEFAULT is said and off.
func (fu *followUI) defaultDigestOff() bool {
	return fu.digestDefault != nil && !fu.digestDefault.On
}

// resumeDigest makes ready a digest whose box is being ticked, d being
// its row. A schedule kept as "off" (before `digest off` became the box)
// gives way to DIGEST_DEFAULT. When there is no slot at all (no schedule
// of its own and DIGEST_DEFAULT off) it leaves the box unticked and
// returns what the channel must do instead.
func (fu *followUI) resumeDigest(ctx context.Context, channel, key, committee string, d store.Digest) (string, error) {
	if (d.Schedule == nil || !d.Schedule.On) && fu.defaultDigestOff() {
		name := blocks.Escape(committee)
		return fmt.Sprintf(":spiral_calendar_pad: The weekly digest of *%s* has no time here yet (`DIGEST_DEFAULT` is off): `/minutes follow %s digest mon 09:00` chooses one and ticks the box.", name, name), nil
	}
	if d.Schedule != nil && !d.Schedule.On {
		// Also marks it resumed: no back-dated digest.
		if err := fu.store.SetDigestChoice(ctx, channel, key, nil, d.Mentions); err != nil {
			return "", fmt.Errorf("clear digest off: %w", err)
		}
	}
	return "", nil
}
