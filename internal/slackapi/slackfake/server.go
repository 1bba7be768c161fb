package slackfake

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"time"
)

// Defaults used when no option overrides them.
const (
	// DefaultToken is the bot token a Server accepts unless [WithToken] says
	// otherwise.
	DefaultToken = "xoxb-test"
	// DefaultBotUserID is the bot's user ID unless [WithBotUser] says
	// otherwise.
	DefaultBotUserID = "U0BOT"
	// TeamID is the workspace ID the Server reports.
	TeamID = "T0TEST"
	// BotID is the bot ID the Server reports in auth.test and on the
	// messages the bot posts.
	BotID = "B0BOT"
	// AppID is the app ID the Server reports on published views.
	AppID = "A0APP"
)

// User is a member of the fake workspace.
type User struct {
	ID       string // such as "U123"; required
	Name     string // the handle, also answered as the profile's display_name
	RealName string
	Email    string // matched case-insensitively by users.lookupByEmail
	TZ       string // IANA zone such as "Europe/Paris"
	// Locale is the user's chosen display language as Slack writes it,
	// an IETF tag such as "fr-FR" or "en-US"; users.info and users.list
	// return it only when asked with include_locale=true (see userJSON).
	// Empty answers "en-US", Slack's default.
	Locale string
	IsBot  bool
	// Guest is the kind of guest the user is; the zero value is a full
	// member.
	Guest Guest
}

// Guest is a kind of Slack guest, as the user object tells it
// (https://api.slack.com/types/user): is_restricted "indicates whether or
// not the user is a guest user", and with is_ultra_restricted also true
// the guest is a single-channel guest. A multi-channel guest has only
// is_restricted.
type Guest int

// The kinds of guest.
const (
	NotGuest           Guest = iota // a full member: neither flag
	MultiChannelGuest               // is_restricted
	SingleChannelGuest              // is_restricted and is_ultra_restricted
)

// Option configures a Server built by [NewServer].
type Option func(*Server)

// WithUsers adds users to the workspace. A later user with the same ID
// replaces an earlier one.
func WithUsers(u ...User) Option {
	return func(s *Server) {
		for _, user := range u {
			s.ws.users[user.ID] = user
		}
	}
}

// WithBotUser sets the bot's user ID, which auth.test answers and which
// authors the messages the bot posts. The default is [DefaultBotUserID].
func WithBotUser(id string) Option {
	return func(s *Server) { s.ws.botUserID = id }
}

// WithToken sets the only bot token the Server accepts; calls with any other
// token are answered "invalid_auth", and calls with none "not_authed". The
// default is [DefaultToken].
func WithToken(token string) Option {
	return func(s *Server) { s.token = token }
}

// WithClock sets the clock the Server uses for message timestamps, call
// times and an extension's rate limits ([LimitedCall]). The default, and the effect of a nil now, is
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(s *Server) {
		if now != nil {
			s.ws.now = now
		}
	}
}

// Server is a fake Slack Web API listening on 127.0.0.1. It is safe for
// concurrent use. Build it with [NewServer] and stop it with [Server.Close].
type Server struct {
	// Set while NewServer runs and never changed afterwards.
	http    *httptest.Server
	handler http.Handler
	methods map[string]apiMethod
	token   string

	ext Extension

	mu    sync.Mutex
	ws    workspace // guarded by mu
	calls []Call    // guarded by mu
	// changed is closed, and replaced, whenever the recorded state changes;
	// see Notify. Guarded by mu.
	changed chan struct{}
	// closing is closed by Close, releasing calls held by a Hang refusal.
	closing   chan struct{}
	closeOnce sync.Once
}

// NewServer starts a fake Slack Web API on a loopback port. Like
// httptest.NewServer, it panics if it cannot listen. The caller must call
// [Server.Close].
func NewServer(opts ...Option) *Server {
	s := &Server{
		methods: apiMethods(),
		token:   DefaultToken,
		ws:      newWorkspace(),
		changed: make(chan struct{}),
		closing: make(chan struct{}),
	}
	for _, opt := range opts {
		opt(s)
	}
	s.ws.revised = s.ext.Revised
	// The bot is a member of its own workspace, so users.info on it works
	// without every test having to say so.
	if _, ok := s.ws.users[s.ws.botUserID]; !ok {
		s.ws.users[s.ws.botUserID] = User{
			ID:       s.ws.botUserID,
			Name:     "recordsbot",
			RealName: "Records Bot",
			IsBot:    true,
		}
	}
	for name, run := range s.ext.AppMethods {
		s.methods[name] = apiMethod{run: appMethod(run), appToken: true}
	}
	mux := http.NewServeMux()
	addRoutes(mux, s)
	if s.ext.Mount != nil {
		s.ext.Mount(mux)
	}
	s.handler = mux
	s.http = httptest.NewServer(s.handler)
	if s.ext.Listening != nil {
		s.ext.Listening(s.http.URL)
	}
	return s
}

// Handler returns the handler that serves the API under /api/ and
// response_urls under /response/, so it can be mounted elsewhere. The URLs
// [Server.APIURL] and [Server.ResponseURL] return always name the Server's
// own listener.
func (s *Server) Handler() http.Handler { return s.handler }

// APIURL returns the base URL to give slack.OptionAPIURL, such as
// "http://127.0.0.1:PORT/api/". It ends in a slash because slack-go appends
// method names to it.
func (s *Server) APIURL() string { return s.http.URL + "/api/" }

// ResponseURL returns a response_url on this server for id, such as
// "http://127.0.0.1:PORT/response/<id>". Posts to it are recorded as
// [ResponsePost] values under that id.
func (s *Server) ResponseURL(id string) string {
	return s.http.URL + "/response/" + url.PathEscape(id)
}

// Close shuts the server down and waits for requests in flight to finish.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closing) })
	if s.ext.Close != nil {
		s.ext.Close()
	}
	s.http.Close()
}

// AddUser adds u to the workspace, replacing any user with the same ID.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ws.users[u.ID] = u
	s.signalLocked()
}

// SetLocale sets user id's Slack locale ("fr-FR"), as the person choosing
// another language in Slack's preferences does: users.info and users.list
// return it from then on when asked with include_locale. It reports
// whether the user exists.
func (s *Server) SetLocale(id, locale string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.ws.users[id]
	if !ok {
		return false
	}
	u.Locale = locale
	s.ws.users[id] = u
	s.signalLocked()
	return true
}

// SetBotInChannel sets whether the bot is a member of channelID. The bot is
// a member of every channel until told otherwise; outside a channel,
// chat.postMessage, chat.update, chat.postEphemeral and conversations.history
// on it are answered "not_in_channel".
func (s *Server) SetBotInChannel(channelID string, in bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in {
		delete(s.ws.notInChannel, channelID)
	} else {
		s.ws.notInChannel[channelID] = true
	}
	s.signalLocked()
}

// Wait returns nil as soon as cond reports true, or the context's error
// (wrapped; the cause when ctx has one) once ctx ends. It checks cond first
// and again after every change [Server.Notify] reports, so it neither sleeps
// nor spins. cond runs without the Server's lock held, so it may call the
// Server's accessors such as [Server.Messages]; it must not block.
func (s *Server) Wait(ctx context.Context, cond func() bool) error {
	for {
		// Take the signal before checking, so a change that lands between
		// the check and the select still wakes us.
		changed := s.Notify()
		if cond() {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("wait for condition: %w", context.Cause(ctx))
		}
	}
}

// Notify returns a channel that is closed at the next change to what the
// Server records: a call (refused ones included), a response_url post, or a
// change made through AddUser, SetBotInChannel or an extension
// ([Server.Changed]).
// Each channel fires once; call Notify again for the next change. The change
// is complete, and visible through the accessors, when the channel closes.
func (s *Server) Notify() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// signalLocked wakes everything waiting on Notify. s.mu must be held.
func (s *Server) signalLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}
