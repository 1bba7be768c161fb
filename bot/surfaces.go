package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/minutes"
)

// The bot's surfaces. Each is a small value built once by NewServer and
// closing over only what it needs; a request flows down from the edge
// (Server: verify, dispatch, ack budget, response_url) into one surface,
// which asks the domain (package actions) or the records client and builds
// its answer with package blocks. Nothing calls back up into the edge: a
// surface that answers a click is handed the way to answer.

// userMessageFunc turns an error into the one short message a person
// reads, logging the detail once (see Server.userMessage).
type userMessageFunc func(ctx context.Context, what string, err error) string

// actionsUI is /actions and the status buttons: lists for a viewer and
// status changes, through the action domain.
type actionsUI struct {
	actions *actions.Service
	// meetings reads a meeting for /actions meeting, through the minutes
	// domain like every other read of meetings.
	meetings *minutes.Service
	revs     *revisions
	// memo holds encoded list replies (see listReply); nil in tests
	// that draw every page.
	memo     *replyMemo
	now      func() time.Time
	pageSize int
	log      *slog.Logger
	say      userMessageFunc
	// trail is where /actions history reads; nil without a store.
	trail AuditTrail
	// snoozes is snoozing: Snooze, Unsnooze and /actions snoozed (bot/snooze.go).
	snoozes *snoozing
}

// minutesUI is /minutes and /meetings, and the meeting and minutes
// buttons.
type minutesUI struct {
	svc *minutes.Service
	// org is ORG_LANGUAGE, the language of what is posted in a channel
	// (a shared summary).
	org lang.Lang
	// search is the minutes search index; nil without a store.
	search   MinutesSearch
	pageSize int
	now      func() time.Time
	say      userMessageFunc
	// follow answers /minutes follow, unfollow and following.
	follow *followUI
	// topics answers /minutes watch and watching.
	topics *topicUI
	// cal gives a meeting its "Add to calendar" link.
	cal *calendar.Service
}

// followUI is /minutes follow, unfollow and following: it reads what
// people type and tick, asks the follow domain (package follows, which
// holds every rule) and draws its answers.
type followUI struct {
	follows *follows.Service
	// actions says what a channel's digest may say of people's actions
	// (ChannelMayName), which the digest's confirmation tells.
	actions *actions.Service
	store   Store // nil: the bot runs without one
	slack   SlackAPI
	now     func() time.Time // for the render revision of /minutes following
	log     *slog.Logger
	say     userMessageFunc
}

// settingsUI is people's notification settings, kept in the store: the
// Home tab's Notifications section and the changes made there or from a
// DM's Stop these.
type settingsUI struct {
	now    func() time.Time
	store  Store // nil: the bot runs without one
	notify NotifyDefaults
	log    *slog.Logger
	say    userMessageFunc
	trail  *trailWriter // nil records nothing
}

// homeUI is the App Home tab.
type homeUI struct {
	publishing keyedMutex // one build-and-publish at a time per user
	actions    *actions.Service
	acts       *actionsUI
	mins       *minutesUI
	slack      SlackAPI
	settings   *settingsUI
	calendar   *calendarUI
	now        func() time.Time
	log        *slog.Logger
	say        userMessageFunc
	trail      AuditTrail // Recent changes, for admins; nil without a store
}

// unfurler answers link_shared for links to minutes and actions.
type unfurler struct {
	mins    *minutesUI
	actions *actions.Service
	slack   SlackAPI
	log     *slog.Logger
	// workObjects unfurls as Work Object cards (Config.WorkObjects).
	workObjects bool
}

// clicks answers button clicks: it routes each to its surface and answers
// where the button was (response_url, chat.update, the Home tab).
type clicks struct {
	acts     *actionsUI
	mins     *minutesUI
	home     *homeUI
	slack    SlackAPI
	settings *settingsUI
	calendar *calendarUI
	post     func(ctx context.Context, responseURL string, msg any) error
	now      func() time.Time
	log      *slog.Logger
	say      userMessageFunc
	trail    *trailWriter // shares and stale buttons; nil records nothing
	panels   *panels      // the Work Objects' flexpane buttons
	// shares posts minutes shared to a channel exactly once
	// (internal/once), with no ledger: a click reaches one process, once.
	shares *once.Poster
}
