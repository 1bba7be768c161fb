// Package bot is recordsbot's Slack surface: it verifies and dispatches what
// Slack sends (slash commands, button clicks, events) over signed HTTP or
// Socket Mode, asks the domains (actions, minutes, calendar), and answers with messages built by
// package blocks.
package bot

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/bot/calendarfeed"
	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/health"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/publicgate"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/topics"
)

// SlackAPI is the part of Slack's Web API the bot calls; *slack.Client
// implements it.
type SlackAPI interface {
	AuthTestContext(ctx context.Context) (*slack.AuthTestResponse, error)
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
	GetUserByEmailContext(ctx context.Context, email string) (*slack.User, error)
	PostMessageContext(ctx context.Context, channelID string, options ...slack.MsgOption) (string, string, error)
	PostEphemeralContext(ctx context.Context, channelID, userID string, options ...slack.MsgOption) (string, error)
	UpdateMessageContext(ctx context.Context, channelID, timestamp string, options ...slack.MsgOption) (string, string, string, error)
	PublishViewContext(ctx context.Context, req slack.PublishViewContextRequest) (*slack.ViewResponse, error)
	OpenViewContext(ctx context.Context, triggerID string, view slack.ModalViewRequest) (*slack.ViewResponse, error)
	UpdateViewContext(ctx context.Context, view slack.ModalViewRequest, externalID, hash, viewID string) (*slack.ViewResponse, error)
	UnfurlMessageContext(ctx context.Context, channelID, timestamp string, unfurls map[string]slack.Attachment, options ...slack.MsgOption) (string, string, string, error)
	UnfurlMessageWorkObjectContext(ctx context.Context, channelID, timestamp string, unfurls map[string]slack.Attachment, metadata slack.WorkObjectMetadata, options ...slack.MsgOption) (string, string, string, error)
	EntityPresentDetailsContext(ctx context.Context, params slack.EntityPresentDetailsParameters) error
	OpenConversationContext(ctx context.Context, params *slack.OpenConversationParameters) (*slack.Channel, bool, bool, error)
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
	GetConversationInfoContext(ctx context.Context, input *slack.GetConversationInfoInput) (*slack.Channel, error)
}

// Config is the bot's behaviour. The zero value of every optional field
// means its documented default.
type Config struct {
	// SigningSecret verifies requests from Slack. Required for HTTP.
	SigningSecret string
	// AckBudget is how long a request may work before Slack is answered
	// with an interim reply and the result follows via response_url.
	// Default 2 s (Slack allows 3 s).
	AckBudget time.Duration
	// WorkTimeout bounds work that continues after the ack. Default 15 s.
	WorkTimeout time.Duration
	// PageSize is the number of rows per message page. Default 10.
	PageSize int
	// MaxBodyBytes caps a request body from Slack. Default 1 MiB.
	MaxBodyBytes int64
	// OrgName is the organisation's name (ORG_NAME), shown on the public
	// pages and in their feed; empty: none.
	OrgName string
	// PublicImageHosts are the https origins whose images the public
	// minutes pages may show (PUBLIC_IMAGE_HOSTS,
	// minutespage.ParseImageHosts); empty: no third-party image.
	PublicImageHosts []string
	// A11yContact is where the accessibility statement asks readers to
	// report a problem (ACCESSIBILITY_CONTACT); empty: the organisation.
	A11yContact string
	// Follows are the organisation's follow settings (FOLLOW_ADMINS_ONLY,
	// FOLLOW_DEFAULTS, DIGEST_DEFAULT), the watcher's own; wire builds
	// Deps.Follows from them in Language (follows.NewRules). The zero
	// value lets anyone in a channel follow, hears everything and has the
	// digest at follows.DefaultDigest.
	Follows follows.Settings
	// Workdays are the organisation's working days (REMIND_HOLIDAYS,
	// REMIND_SKIP_WEEKENDS), for a snooze to the next working day. The
	// zero Calendar works every day.
	Workdays workdays.Calendar
	// Notify are the organisation's notification defaults, shown on the
	// Home tab to whoever has not chosen.
	Notify NotifyDefaults
	// Public bounds what the public minutes pages may cost; see
	// PublicLimits for the defaults.
	Public PublicLimits
	// Language is ORG_LANGUAGE: what channel posts are written in, and
	// people whose Slack locale recordsbot does not ship read. The zero
	// value is English.
	Language lang.Lang
	// WorkObjects unfurls minutes and actions as Work Object cards, whose
	// click opens a flexpane drawn for the clicker (WORK_OBJECTS). Slack
	// shows them only once the app's "Work Object Previews" setting is on
	// with the Task and Content item types, a setting with no manifest
	// key (https://docs.slack.dev/messaging/work-objects-implementation),
	// so the bot cannot tell by itself. Off: classic unfurls of minutes
	// links, and action links left as links.
	WorkObjects bool
	// MaxInFlight bounds the commands, clicks and events at work at once;
	// past it a request is answered "I'm busy" at once. Default: 16 a
	// second for the whole WorkTimeout (240 at 15 s); see inFlightRate.
	MaxInFlight int
}

func (c *Config) setDefaults() {
	if c.AckBudget <= 0 {
		c.AckBudget = 2 * time.Second
	}
	if c.WorkTimeout <= 0 {
		c.WorkTimeout = 15 * time.Second
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = inFlightSlots(c.WorkTimeout)
	}
	if c.PageSize <= 0 {
		c.PageSize = 10
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 1 << 20
	}
}

// Deps are the bot's collaborators. Slack, Actions, Minutes and Calendar
// are required: the bot builds no service of its own (wire builds
// them, once a process, for serve, the demo and the test world). The bot
// reads the records service only through the domains.
type Deps struct {
	Logger *slog.Logger
	Slack  SlackAPI
	// HTTPClient posts to response_url. Default: a client with a 10 s timeout.
	HTTPClient *http.Client
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Ready reports why this process cannot take requests (nil: it can),
	// as /readyz says; such as "shutting down". Default: always ready.
	Ready func() error
	// Metrics is updated by every request; nil: none. It is not served
	// here (see addRoutes): serve builds it once, shares it with the
	// clients' transports and the jobs, and serves it on METRICS_ADDR.
	Metrics *metrics.Set
	// Actions is the action domain: who is an admin, USER_MAP, whose
	// actions each may see, the shared list and its TTL, the
	// organisation's time zone (also the public pages'); the one serve
	// shares with the jobs. Required.
	Actions *actions.Service
	// Minutes is the minutes domain (which minutes may be shown, the
	// shared cache, the public pages and their URL). Required.
	Minutes *minutes.Service
	// StoreOutage logs the store's failures as an outage (see
	// health.Outage); share it with the dependency checker so that both
	// keep one state. Default: one of the bot's own.
	StoreOutage *health.Outage
	// MinutesSearch answers the public archive's search box; nil: the
	// store's search index when it has one, else the archive says search
	// is not available.
	MinutesSearch minutespage.Search
	// Calendar is the calendar domain: the iCalendar feeds (public with
	// PUBLIC_CALENDAR, and each person's private deadlines) and the "Add
	// to calendar" links. Required.
	Calendar *calendar.Service
	// Store keeps follows and notification settings; nil: the commands
	// and settings that need it say it is not configured.
	Store Store
	// Baseline takes a new follow's baseline when /minutes follow makes it
	// (watch.Baseline), so minutes published before the watcher's next
	// poll are announced; nil, or a failure, leaves it to that poll. wire
	// builds Follows with it.
	Baseline func(ctx context.Context, f store.Follow) error
	// Search is the minutes search every surface reads (/minutes search,
	// the Home tab's, the public archive's when MinutesSearch is nil):
	// the store's index showing only minutes the records service still
	// serves (minutes.ServedSearch), built by wire; nil: no search.
	Search MinutesSearch
	// Topics is the topic-watch domain over Store, built by wire; nil:
	// the store keeps no topic watches, and /minutes watch says so.
	Topics *topics.Service
	// Follows is the follow domain (which channels follow which
	// committees, and its rules), built by wire over Store; the bot hands
	// it the Store wrapped to write the audit trail. Required.
	Follows *follows.Service
}

// missing names the first required dependency d lacks, or "".
func (d Deps) missing() string {
	switch {
	case d.Slack == nil:
		return "Slack"
	case d.Actions == nil:
		return "Actions"
	case d.Minutes == nil:
		return "Minutes"
	case d.Calendar == nil:
		return "Calendar"
	case d.Follows == nil:
		return "Follows"
	}
	return ""
}

// setDefaults fills in the optional dependencies d lacks (see Deps).
func (d *Deps) setDefaults() {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.HTTPClient == nil {
		d.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Ready == nil {
		d.Ready = func() error { return nil }
	}
	if d.StoreOutage == nil {
		d.StoreOutage = health.NewOutage(d.Logger, "store", 0)
	}
}

// Server is recordsbot's HTTP server and dispatcher. It implements
// http.Handler; the same dispatcher serves Socket Mode.
type Server struct {
	cfg     Config
	deps    Deps
	log     *slog.Logger
	handler http.Handler
	// events is the router's handler of eventsPath, with its middleware.
	events http.Handler

	cmds map[string]func(context.Context, command) *reply
	// quick answers a command at once from what is already in memory,
	// or returns nil; see actionsUI.quickActions.
	quick   map[string]func(context.Context, command) *reply
	actions *actions.Service
	home    *homeUI
	unfurls *unfurler
	panels  *panels
	clicks  *clicks
	mins    *minutes.Service
	site    *minutespage.Site
	cal     *calendar.Service
	feeds   *calendarfeed.Handlers
	public  *publicGuard
	// gate admits whatever a public address names (a meeting, a
	// committee, a cursor, a token) before anything is read for it: every
	// public route asks it, a new one too (internal/publicgate).
	gate *publicgate.Gate
	// work bounds the requests at work; busy bounds the "I'm busy"
	// notices sent through response_url when work is full.
	work, busy *workSlots
	seen       seenEvents
	// pending tracks follow-ups that outlive their request, so shutdown can
	// wait for them.
	pending sync.WaitGroup
}

// NewServer returns the bot's HTTP handler: POST /slack/events (everything
// Slack sends), /healthz, /readyz and the public minutes pages; never
// /metrics, which serve answers on a listener of its own.
//
// It panics when a required dependency (see Deps) is missing: that is a
// wiring mistake, found by the first test that builds the server, not a
// condition to handle at run time.
func NewServer(cfg Config, deps Deps) *Server {
	if missing := deps.missing(); missing != "" {
		panic("bot.NewServer: Deps." + missing + " is required")
	}
	cfg.setDefaults()
	deps.setDefaults()
	s := &Server{cfg: cfg, deps: deps, log: deps.Logger, actions: deps.Actions, mins: deps.Minutes}
	search := deps.Search
	trail := newTrailWriter(deps.Store, deps.Actions, deps.Now, s.log)
	// Every change made through the Store is recorded (auditedStore).
	deps.Store = auditStore(deps.Store, trail)
	if deps.MinutesSearch == nil && search != nil {
		deps.MinutesSearch = archiveSearch(search)
	}
	s.public = newPublicGuard(cfg.Public, cfg.Language, deps.Now, deps.Metrics, s.log)
	// One gate for every lookup a public reader names, whichever route
	// (internal/publicgate; docs/public-routes.md).
	s.gate = publicgate.New(publicgate.Config{Held: deps.Minutes, Calendar: deps.Calendar, Unheld: s.public.unheldContext,
		Metrics: deps.Metrics, Log: s.log, Now: deps.Now})
	s.site = minutespage.New(deps.Minutes, minutespage.Options{OrgName: cfg.OrgName, Zone: deps.Actions.Zone(), Search: deps.MinutesSearch, Log: s.log,
		Gate: s.gate, Now: deps.Now, ImageHosts: cfg.PublicImageHosts,
		Language: cfg.Language, AccessibilityContact: cfg.A11yContact})
	s.cal = deps.Calendar
	s.feeds = calendarfeed.New(deps.Calendar, s.gate, s.log)
	s.work, s.busy = newWorkSlots(cfg.MaxInFlight), newWorkSlots(busyNotices)
	s.addSurfaces(deps, search, trail)
	r := chi.NewRouter()
	r.Use(recoverer(s.log), requestid.Middleware)
	// Slack's requests get their request ID where they are verified.
	s.events = chi.Chain(recoverer(s.log)).Handler(addRoutes(r, s))
	s.handler = r
	return s
}

// addSurfaces builds what s dispatches Slack's requests to: the commands,
// the Home tab, link unfurls and clicks. deps.Store records every change
// in trail (nil: no audit trail); search is the minutes' search index, or
// nil.
func (s *Server) addSurfaces(deps Deps, search MinutesSearch, trail *trailWriter) {
	cfg, say := s.cfg, s.userMessage
	acts := s.newActionsUI(deps, trail)
	mins := &minutesUI{svc: deps.Minutes, org: cfg.Language, search: search, pageSize: cfg.PageSize, now: deps.Now, say: say,
		follow: &followUI{store: deps.Store, slack: deps.Slack, now: deps.Now, log: s.log, say: say, actions: deps.Actions,
			follows: deps.Follows.WithStore(deps.Store)}}
	mins.topics = &topicUI{follow: mins.follow}
	if deps.Topics != nil {
		// The topic-watch domain wire built, over the store wrapped for
		// the audit trail.
		mins.topics.topics = deps.Topics
		if ts, ok := deps.Store.(topics.Store); ok {
			mins.topics.topics = deps.Topics.WithStore(ts)
		}
	}
	settings := &settingsUI{now: deps.Now, store: deps.Store, notify: cfg.Notify, log: s.log, say: say, trail: trail}
	mins.cal = deps.Calendar
	calUI := &calendarUI{cal: deps.Calendar, log: s.log}
	s.home = &homeUI{actions: s.actions, acts: acts, mins: mins, slack: deps.Slack,
		settings: settings, calendar: calUI, now: deps.Now, log: s.log, say: say}
	if trail != nil {
		s.home.trail = trail.trail
	}
	s.unfurls = &unfurler{mins: mins, actions: s.actions, slack: deps.Slack, log: s.log, workObjects: s.cfg.WorkObjects}
	s.panels = &panels{actions: s.actions, acts: acts, mins: mins, home: s.home, slack: deps.Slack, log: s.log, say: say}
	s.clicks = &clicks{acts: acts, mins: mins, home: s.home, slack: deps.Slack, settings: settings, calendar: calUI,
		post: s.postResponse, now: deps.Now, log: s.log, say: say, trail: trail, panels: s.panels,
		shares: &once.Poster{Slack: deps.Slack, HistoryDepth: shareHistoryDepth, Log: s.log}}
	s.cmds = map[string]func(context.Context, command) *reply{
		"/actions":  acts.commandActions,
		"/minutes":  mins.commandMinutes,
		"/meetings": mins.commandMeetings,
	}
	s.quick = map[string]func(context.Context, command) *reply{"/actions": acts.quickActions}
}

// newActionsUI builds the /actions surface, which the Home tab and clicks
// share. deps.Store records every change in trail (nil: no audit trail).
func (s *Server) newActionsUI(deps Deps, trail *trailWriter) *actionsUI {
	svc, say := s.actions, s.userMessage
	acts := &actionsUI{actions: svc, meetings: deps.Minutes, revs: newRevisions(deps.Now()), now: deps.Now,
		pageSize: s.cfg.PageSize, log: s.log, say: say}
	// Replies are memoised per version of the action list. With the
	// cache off every command reads the list, which is the same version
	// as long as the records service sends the same bytes
	// (actions.sharedList.again); the caller's snoozes are then read for
	// every command and checked against the memo's (listReply).
	acts.memo = newReplyMemo()
	if trail != nil {
		acts.trail = trail.trail
	}
	acts.snoozes = &snoozing{store: deps.Store, actions: svc, days: s.cfg.Workdays, now: deps.Now, log: s.log, say: say}
	return acts
}

// ServeHTTP implements http.Handler. Slack's requests, nearly all of the
// traffic, go to their handler through the same middleware but not
// through the router, whose context would cost each of them a copy of the
// request (most of a cached /actions is fixed costs like that).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == eventsPath {
		s.events.ServeHTTP(w, r)
		return
	}
	s.handler.ServeHTTP(w, r)
}

// Wait blocks until every pending follow-up has finished or ctx ends. Call it
// after http.Server.Shutdown so replies already promised still arrive.
func (s *Server) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.pending.Wait()
		s.actions.Wait() // background refreshes of the shared action list
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("follow-ups still pending at shutdown")
	}
}

// revisions hands out render revisions for block IDs (see
// blocks.RowBlockID): each redraw of a message or view must use new
// block_ids, so every row rendered gets a revision never handed out
// before. The start time keeps them apart across restarts; a random part
// keeps them apart between replicas started in the same millisecond (or on
// a clock that stands still, as in tests), since each replica may redraw
// the same person's Home tab; the counter keeps them apart within a
// process.
type revisions struct {
	start string
	n     atomic.Uint64
}

func newRevisions(now time.Time) *revisions {
	return &revisions{start: strconv.FormatInt(now.UnixMilli(), 36) + "." + strconv.FormatUint(uint64(rand.Uint32()), 36)}
}

func (r *revisions) next() string {
	return r.start + "." + strconv.FormatUint(r.n.Add(1), 36)
}

// recoverer turns a panic in a handler into a logged 500 instead of a dead
// connection. Slack retries a 500, so the dispatch paths never let a panic
// reach here on purpose; this is the last line.
func recoverer(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					path := r.URL.Path
					if strings.HasPrefix(path, "/calendar/u/") {
						path = "/calendar/u/…" // a private feed's token is its key: never logged
					}
					log.ErrorContext(r.Context(), "panic in handler", "panic", v, "path", path)
					http.Error(w, "internal error", http.StatusInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
