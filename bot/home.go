package bot

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// homeRows is the number of action rows on the Home tab: each takes two
// blocks, well within blocks.MaxViewBlocks.
const homeRows = 20

// homeState is what a Home publish shows beyond the defaults.
type homeState struct {
	offset  int
	note    string   // shown on top (the answer to a click)
	clicked *clicked // the row a click changed, kept and annotated
	// settingsNote is shown atop the Notifications section: the answer
	// to a change of settings.
	settingsNote string
	// calendarNote is shown atop the Calendar section: the answer to its
	// buttons.
	calendarNote string
	// hash is that of the Home tab version a click came from, "" for a
	// publish no click asked for.
	hash string
	// auditBefore is the cursor of the Recent changes page shown (admins;
	// bot/home_audit.go); 0: the newest.
	auditBefore int64
}

func (h *homeUI) publishHomeLogged(ctx context.Context, user string, st homeState) {
	if err := h.publishHome(ctx, user, st); err != nil {
		h.log.ErrorContext(ctx, "app home: publish failed", "user", user, "error", err)
		if _, transient := publishRetryWait(err); transient {
			h.tellHomeStale(ctx, user)
		}
	}
}

// publishHome builds and publishes the user's App Home: their open and
// in-progress actions with buttons, and the latest minutes per committee.
//
// Two answers for one user can be built at once (quick clicks on the
// Notifications section; Slack delivering interactions in parallel), and
// the one built first, from older state, must not be published last. In
// this process a user's builds and publishes take turns. Between replicas,
// the hash of the version clicked goes with the publish, and Slack refuses
// it with hash_conflict when another answer landed since ("Error returned
// when the provided hash doesn't match the current stored value",
// https://api.slack.com/methods/views.publish); the view is then built again
// from what is stored now and published without a hash.
func (h *homeUI) publishHome(ctx context.Context, user string, st homeState) error {
	defer h.publishing.lock(user)()
	err := h.publishRetried(ctx, user, st)
	if st.hash != "" && slackapi.ErrorCode(err) == "hash_conflict" {
		h.log.InfoContext(ctx, "app home: a newer version was published meanwhile; building again", "user", user)
		st.hash = ""
		err = h.publishRetried(ctx, user, st)
	}
	return err
}

func (h *homeUI) publish(ctx context.Context, user string, st homeState) error {
	view := h.build(ctx, user, st)
	_, err := h.slack.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view, Hash: hashArg(st.hash)})
	if err != nil {
		return fmt.Errorf("views.publish: %w", err)
	}
	return nil
}

// hashArg is the optional hash argument of views.publish: none for "".
func hashArg(hash string) *string {
	if hash == "" {
		return nil
	}
	return &hash
}

// build is user's Home tab as it stands.
func (h *homeUI) build(ctx context.Context, user string, st homeState) slack.HomeTabViewRequest {
	me, meErr := h.actions.Who(ctx, user)
	lg := h.actions.ReaderLanguage(me.Locale)
	v := blocks.HomeView{User: user, Lang: lg}
	now := h.now()
	list, err := h.actions.List(ctx, "")
	if err != nil {
		v.RecordsError = h.say(ctx, "home actions", err)
	} else {
		var mine []*apiclient.Action
		// The Home tab lists the viewer's own actions, through the one
		// visibility rule like every list.
		for _, a := range h.actions.Visible(me, withClickedPtrs(h.actions.Assigned(list, me), st.clicked)) {
			if actions.StillToDo(a.Status) || st.clicked.is(a.ID) {
				mine = append(mine, a)
			}
		}
		if len(mine) == 0 && !me.Mapped() {
			v.Unmapped = unmappedText(lg, me, me.ID)
			if meErr != nil {
				v.Unmapped = lg.T("home.profile_unknown")
			}
		}
		h.acts.sortKeeping(mine, now, me.Zone, st.clicked)
		offset := st.offset
		if offset < 0 || offset >= len(mine) {
			offset = 0
		}
		end := min(offset+homeRows, len(mine))
		v.Actions = blocks.ActionList{Title: lg.T("home.your_actions"), Offset: offset, Total: len(mine), Truncated: list.Truncated, Read: len(list.Actions), Available: list.Total,
			Empty: lg.T("home.nothing_open")}
		for _, a := range mine[offset:end] {
			v.Actions.Rows = append(v.Actions.Rows, h.acts.row(a, h.acts.snoozes.view(h.actions.ViewOf(me, a, now, actions.OnePerson), me, a), st.clicked.changeOf(a.ID)))
		}
		h.acts.snoozes.markSnoozed(ctx, me, v.Actions.Rows) // bot/home_steer.go
		if end < len(mine) {
			v.MoreOffset = end
		}
	}
	if st.note != "" {
		if v.RecordsError != "" {
			v.RecordsError = st.note + "\n" + v.RecordsError
		} else {
			v.RecordsError = st.note
		}
	}
	latest, err := h.mins.svc.LatestPerCommittee(ctx)
	if err != nil {
		h.log.WarnContext(ctx, "app home: latest minutes", "error", err)
		// Without a word, an outage would read as "No minutes to show."
		// When the actions failed too, their note already says why.
		if v.RecordsError == "" {
			v.RecordsError = lg.T("home.minutes_down")
		}
	}
	for _, e := range latest {
		v.Minutes = append(v.Minutes, blocks.MinutesView{Display: h.mins.svc.View(e), Lang: lg})
	}
	v.Notifications = h.settings.homeNotifications(ctx, user, st.settingsNote)
	v.Search = h.mins.search != nil
	v.Topics = h.mins.topics.homeTopics(ctx, user) // bot/commands_topics.go
	v.Calendar = h.calendar.homeSection(ctx, user, st.calendarNote)
	v.AwayRhythm = h.settings.homeAwayRhythm(ctx, me)          // bot/home_steer.go
	v.RecentChanges = h.recentChanges(ctx, me, st.auditBefore) // bot/home_audit.go
	return blocks.Home(v)
}
