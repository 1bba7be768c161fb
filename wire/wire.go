// Package wire builds recordsbot's services from settings, in one place:
// the records client, the Slack client and the domains over them (actions,
// minutes, calendar), and the bot's HTTP handler over those. `serve` and
// the jobs (cmd/recordsbot), the demo and the test world
// (bot/bottest) all build through New and Services.Bot, so
// the demo and the tests run the services as production wires them, and a
// new dependency is added once.
//
// Wiring lives here and in cmd/recordsbot only: no other package builds a
// domain service for another to use (bot.NewServer requires them).
package wire

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/topics"
)

// Config is what New builds the services from: where the records service
// and Slack are, and each domain's settings.
type Config struct {
	Records Records
	Slack   Slack
	// Actions are the action domain's settings (admins, USER_MAP, zone,
	// cache, visibility, audit trail).
	Actions actions.Config
	// Minutes are the minutes domain's settings (public pages, cache).
	Minutes minutes.Config
	// Calendar are the calendar domain's settings; its Minutes is the
	// minutes domain New builds.
	Calendar calendar.Config
	// CalendarKey and CalendarTokens turn on the private deadline feeds
	// (calendar.Private, over the action domain New builds); either
	// empty: none.
	CalendarKey    []byte
	CalendarTokens calendar.Tokens
}

// Records is how the records service is reached.
type Records struct {
	// URL is RECORDS_API_URL and Key RECORDS_API_KEY.
	URL, Key string
	// Options are the client's further options (transport, User-Agent,
	// field map, limits).
	Options []apiclient.Option
}

// Slack is how Slack's Web API is reached.
type Slack struct {
	// Token is the bot token (SLACK_BOT_TOKEN); AppToken the app-level
	// token for Socket Mode (SLACK_APP_TOKEN), empty for none.
	Token, AppToken string
	// APIURL is Slack's Web API base, ending in a slash; empty: Slack's
	// own (slack.APIURL).
	APIURL string
	// HTTPClient makes the calls; nil: one with a 15 s timeout.
	HTTPClient *http.Client
}

// Services are the clients and domains, each built once, to be shared by
// the bot and the jobs of one process.
type Services struct {
	Records  *apiclient.Client
	Slack    *slack.Client
	Actions  *actions.Service
	Minutes  *minutes.Service
	Calendar *calendar.Service
	// actions are the settings Actions was built with, for FreshActions.
	actions actions.Config
}

// New builds the clients and domains from cfg. The one error is a records
// URL the client refuses, wrapped.
func New(cfg Config) (*Services, error) {
	// The action domain shares every list it reads and changes none
	// (actions.sharedList), nor does the reminder job.
	records, err := apiclient.NewClient(cfg.Records.URL, cfg.Records.Key, append(slices.Clip(cfg.Records.Options), apiclient.WithSharedLists())...)
	if err != nil {
		return nil, fmt.Errorf("records client: %w", err)
	}
	hc := cfg.Slack.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 15 * time.Second}
	}
	opts := []slack.Option{slack.OptionHTTPClient(hc)}
	if cfg.Slack.APIURL != "" {
		opts = append(opts, slack.OptionAPIURL(cfg.Slack.APIURL))
	}
	if cfg.Slack.AppToken != "" {
		opts = append(opts, slack.OptionAppLevelToken(cfg.Slack.AppToken))
	}
	s := &Services{Records: records, Slack: slack.New(cfg.Slack.Token, opts...), actions: cfg.Actions}
	s.Actions = actions.New(records, slackusers.Directory(s.Slack), cfg.Actions)
	s.Minutes = minutes.New(records, cfg.Minutes)
	ccfg := cfg.Calendar
	ccfg.Minutes = s.Minutes
	s.Calendar = calendar.New(ccfg)
	if len(cfg.CalendarKey) > 0 && cfg.CalendarTokens != nil {
		s.Calendar.EnablePrivate(calendar.Private{Key: cfg.CalendarKey, Tokens: cfg.CalendarTokens, Actions: s.Actions})
	}
	return s, nil
}

// FreshActions returns a new action domain with the settings and clients
// of s.Actions but a list and profiles of its own: a job run that must not
// read the bot's cached list (the demo's watcher polls, as each
// `recordsbot watch` run has its own).
func (s *Services) FreshActions() *actions.Service {
	return actions.New(s.Records, slackusers.Directory(s.Slack), s.actions)
}

// Bot returns the bot's HTTP handler over s: deps' Actions, Minutes and
// Calendar are s's, and its Slack too unless set (a test that wraps the
// client); its Follows (from cfg's follow rules), Topics (topic watches)
// and Search (the store's minutes index, showing only what the records
// still serve) are built here, over deps.Store and the domains; its other
// fields (logger, store, metrics,
// readiness, clock, response_url client, follow baseline) are the
// caller's.
func (s *Services) Bot(cfg bot.Config, deps bot.Deps) *bot.Server {
	if deps.Slack == nil {
		deps.Slack = s.Slack
	}
	deps.Actions, deps.Minutes, deps.Calendar = s.Actions, s.Minutes, s.Calendar
	var st follows.Store
	if deps.Store != nil {
		st = deps.Store
	}
	if ts, ok := deps.Store.(topics.Store); ok && deps.Topics == nil {
		idx, _ := deps.Store.(topics.Index)
		deps.Topics = &topics.Service{Store: ts, Index: idx, Limits: topics.DefaultLimits}
	}
	// Every search surface shows only minutes the records service still
	// serves.
	if idx, ok := deps.Store.(bot.MinutesSearch); ok && deps.Search == nil {
		remove, _ := deps.Store.(minutes.Remover)
		deps.Search = minutes.ServedSearch{Index: idx, Minutes: s.Minutes, Remove: remove, Log: deps.Logger}
	}
	deps.Follows = follows.New(follows.NewRules(cfg.Follows, cfg.Language),
		follows.Deps{Store: st, Meetings: s.Minutes, Baseline: deps.Baseline, Changer: s.changer, Log: deps.Logger})
	return bot.NewServer(cfg, deps)
}

// changer is who a Slack user is, as the follow domain asks it: the
// action domain's profile (users.info, cached) and its one admin rule
// (actions.Service.Admin, which fails closed).
func (s *Services) changer(ctx context.Context, userID string) follows.Changer {
	me, err := s.Actions.Who(ctx, userID)
	return follows.Changer{Admin: s.Actions.Admin(me), Guest: me.Guest, ProfileErr: err}
}
