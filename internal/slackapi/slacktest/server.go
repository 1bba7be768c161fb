package slacktest

import (
	"time"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// The model of Slack is package slackfake's; these are its names here, so
// a test needs one import.
type (
	User             = slackfake.User
	Guest            = slackfake.Guest
	Call             = slackfake.Call
	Message          = slackfake.Message
	ResponsePost     = slackfake.ResponsePost
	View             = slackfake.View
	Unfurl           = slackfake.Unfurl
	Modal            = slackfake.Modal
	Ephemeral        = slackfake.Ephemeral
	Channel          = slackfake.Channel
	Sender           = slackfake.Sender
	Response         = slackfake.Response
	Command          = slackfake.Command
	Click            = slackfake.Click
	Submission       = slackfake.Submission
	SubmitResult     = slackfake.SubmitResult
	SubmissionAnswer = slackfake.SubmissionAnswer
	Entity           = slackfake.Entity
	EntityButton     = slackfake.EntityButton
	Card             = slackfake.Card
	Panel            = slackfake.Panel
)

// slackfake's constants.
const (
	DefaultToken          = slackfake.DefaultToken
	DefaultBotUserID      = slackfake.DefaultBotUserID
	TeamID                = slackfake.TeamID
	BotID                 = slackfake.BotID
	AppID                 = slackfake.AppID
	NotGuest              = slackfake.NotGuest
	MultiChannelGuest     = slackfake.MultiChannelGuest
	SingleChannelGuest    = slackfake.SingleChannelGuest
	ChannelPublic         = slackfake.ChannelPublic
	ChannelPrivate        = slackfake.ChannelPrivate
	ChannelMPIM           = slackfake.ChannelMPIM
	ChannelIM             = slackfake.ChannelIM
	ResponseMethod        = slackfake.ResponseMethod
	OAuthScopesHeader     = slackfake.OAuthScopesHeader
	InvalidMetadataSchema = slackfake.InvalidMetadataSchema
	EntityTask            = slackfake.EntityTask
	EntityFile            = slackfake.EntityFile
	EntityItem            = slackfake.EntityItem
	EntityIncident        = slackfake.EntityIncident
	EntityContentItem     = slackfake.EntityContentItem
)

// Sign is slackfake.Sign: Slack's v0 request signature.
func Sign(secret string, ts int64, body []byte) string { return slackfake.Sign(secret, ts, body) }

// EscapeCommandText is slackfake.EscapeCommandText.
func EscapeCommandText(typed string, users []User) string {
	return slackfake.EscapeCommandText(typed, users)
}

// ManifestScopes is slackfake.ManifestScopes.
func ManifestScopes() []string { return slackfake.ManifestScopes() }

// Option configures a Server built by [NewServer].
type Option func(*config)

type config struct {
	fake     []slackfake.Option
	limiter  *channelLimiter
	tiers    *tierModel
	appToken string
}

// fakeOption is an option of slackfake's Server.
func fakeOption(o slackfake.Option) Option {
	return func(c *config) { c.fake = append(c.fake, o) }
}

// WithUsers adds users to the workspace. A later user with the same ID
// replaces an earlier one.
func WithUsers(u ...User) Option { return fakeOption(slackfake.WithUsers(u...)) }

// WithBotUser sets the bot's user ID, which auth.test answers and which
// authors the messages the bot posts. The default is [DefaultBotUserID].
func WithBotUser(id string) Option { return fakeOption(slackfake.WithBotUser(id)) }

// WithToken sets the only bot token the Server accepts; calls with any
// other token are answered "invalid_auth", and calls with none
// "not_authed". The default is [DefaultToken].
func WithToken(token string) Option { return fakeOption(slackfake.WithToken(token)) }

// WithClock sets the clock the Server uses for message timestamps, call
// times and rate limits. The default, and the effect of a nil now, is
// time.Now.
func WithClock(now func() time.Time) Option { return fakeOption(slackfake.WithClock(now)) }

// WithScopes grants the bot token only scopes (see slackfake.WithScopes).
func WithScopes(scopes ...string) Option { return fakeOption(slackfake.WithScopes(scopes...)) }

// WithWorkObjects turns the app's Work Object previews on for types (see
// slackfake.WithWorkObjects).
func WithWorkObjects(types ...string) Option {
	return fakeOption(slackfake.WithWorkObjects(types...))
}

// Server is slackfake's Server with what tests add: injected faults
// ([Server.InjectFault]), rate limits ([WithChannelRateLimit],
// [WithTiers]), Socket Mode ([Server.WaitSocket]) and the standard
// Markdown the app sent as mrkdwn ([Server.MarkdownInMrkdwn]) and the
// block_ids its updates sent again ([Server.BlockIDReuse]). It is safe for
// concurrent use. Build it with [NewServer] and stop it with
// [Server.Close].
type Server struct {
	*slackfake.Server

	faults   faultSet
	limiter  *channelLimiter // nil: no per-channel limit
	tiers    tierState
	sockets  *socketHub
	markdown markdownNotes
	blockIDs blockIDNotes
}

// NewServer starts a fake Slack Web API on a loopback port. Like
// httptest.NewServer, it panics if it cannot listen. The caller must call
// [Server.Close].
func NewServer(opts ...Option) *Server {
	cfg := config{appToken: DefaultAppToken}
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{limiter: cfg.limiter, tiers: tierState{model: cfg.tiers}, sockets: newSocketHub(cfg.appToken)}
	ext := slackfake.Extension{
		Refuse:   s.faults.take,
		Limit:    s.limit,
		AppToken: cfg.appToken,
		AppMethods: map[string]func() (map[string]any, error){
			"apps.connections.open": s.sockets.connectionsOpen,
		},
		Called:    s.markdown.called,
		Shown:     s.markdown.shown,
		Revised:   s.blockIDs.revised,
		Mount:     s.sockets.mount,
		Listening: s.sockets.setBaseURL,
		// Hijacked websockets outlive httptest's Close.
		Close: s.sockets.close,
	}
	s.Server = slackfake.NewServer(append(cfg.fake, slackfake.WithExtension(ext))...)
	return s
}

// limit applies the per-channel limit to chat.postMessage and chat.update,
// keyed by their "channel" argument as sent, then Slack's tiers.
func (s *Server) limit(c slackfake.LimitedCall) (retryAfter int, ok bool) {
	if c.Method == "chat.postMessage" || c.Method == "chat.update" {
		if wait, ok := s.limiter.take(c.Channel, c.Now); !ok {
			return wait, false
		}
	}
	return s.tiers.take(c.Method, c.ChannelKey, c.Now)
}
