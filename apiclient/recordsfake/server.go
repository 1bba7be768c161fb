package recordsfake

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Default page sizes.
const (
	defaultMeetingsPageSize = 5
	defaultActionsPageSize  = 100
)

type config struct {
	keys             keySet
	dataset          Dataset
	meetingsPageSize int
	actionsPageSize  int
	now              func() time.Time
	pathPrefix       string
	// routes, when set, replaces the plain endpoints (see [WithRoutes]).
	routes func(Records, PageSizes) []Route
	// wraps are applied to the API handler in order, the first innermost
	// (see [WithMiddleware]).
	wraps []func(http.Handler, Surround) http.Handler
}

// Option configures a [Server].
type Option func(*config)

// WithKeys replaces the accepted API keys and their scopes; [DefaultKey]
// is no longer accepted unless keys holds it. An empty set refuses every
// request with 401. A key mapped to no scope is authenticated but gets 403
// everywhere.
func WithKeys(keys map[string][]Scope) Option {
	return func(c *config) {
		c.keys = make(keySet, len(keys))
		for k, scopes := range keys {
			c.keys[k] = slices.Clone(scopes)
		}
	}
}

// WithDataset sets the records the server starts with (default: none).
// The server copies d; later changes to d do not reach it. People are not
// served. Records sharing an ID collapse into the last one.
func WithDataset(d Dataset) Option {
	return func(c *config) { c.dataset = d }
}

// WithPageSize sets how many meetings and how many actions make a page
// (defaults 5 and 100). n < 1 keeps the defaults.
func WithPageSize(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.meetingsPageSize, c.actionsPageSize = n, n
		}
	}
}

// WithClock sets the clock that stamps records stored without a time
// (Action.CreatedAt, Minutes.UpdatedAt). The default, and what a nil now
// gives, is time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithPathPrefix serves the API under prefix, such as "/records", so that
// the base URL is http://127.0.0.1:PORT/records/api/v1. It lets a client's
// tests check that the client keeps the base path instead of resolving
// endpoints against the host. The default is no prefix.
func WithPathPrefix(prefix string) Option {
	return func(c *config) {
		c.pathPrefix = strings.TrimSuffix("/"+strings.TrimPrefix(prefix, "/"), "/")
	}
}

// Server is an in-memory Records API v1 server, in the manner of
// httptest.Server. All its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL of the API, ending in /api/v1, such as
	// http://127.0.0.1:PORT/api/v1. It is empty for a server made by
	// [NewHandler].
	URL string

	handler http.Handler
	store   *store
	base    string
	ts      *httptest.Server // nil for NewHandler

	done      chan struct{}
	closeOnce sync.Once
}

// NewServer starts and returns a server listening on a loopback port. The
// caller must call Close when finished, typically with t.Cleanup.
func NewServer(opts ...Option) *Server {
	s := NewHandler(opts...)
	s.ts = httptest.NewServer(s.handler)
	s.URL = s.ts.URL + s.base
	return s
}

// NewHandler returns a server that does not listen: serve [Server.Handler]
// yourself, as `recordsbot sandbox` does. URL is empty.
func NewHandler(opts ...Option) *Server {
	cfg := config{
		keys:             keySet{DefaultKey: AllScopes()},
		meetingsPageSize: defaultMeetingsPageSize,
		actionsPageSize:  defaultActionsPageSize,
		now:              time.Now,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	base := (&url.URL{Path: cfg.pathPrefix + "/api/v1"}).EscapedPath()
	s := &Server{
		store: newStore(cfg.dataset, cfg.now),
		base:  base,
		done:  make(chan struct{}),
	}
	sizes := PageSizes{Meetings: cfg.meetingsPageSize, Actions: cfg.actionsPageSize}
	rts := plainRoutes(s.store, sizes)
	if cfg.routes != nil {
		rts = cfg.routes(Records{st: s.store}, sizes)
	}
	s.handler = newAPI(base, cfg.keys, rts)
	around := Surround{Base: base, Authorized: cfg.keys.authorized, Done: s.done}
	for _, wrap := range cfg.wraps {
		s.handler = wrap(s.handler, around)
	}
	return s
}

// Handler returns the handler serving the API under /api/v1 (after any
// [WithPathPrefix]); other paths get 404.
func (s *Server) Handler() http.Handler { return s.handler }

// Close ends what waits on [Surround.Done] (a test's injected latency)
// and, for a server made by [NewServer], shuts it down, waiting for
// requests in flight. It may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		if s.ts != nil {
			s.ts.Close()
		}
	})
}

// Actions returns every action in listing order.
func (s *Server) Actions() []Action { return s.store.allActions() }

// Action returns the action with that ID; ok is false when there is none.
func (s *Server) Action(id string) (a Action, ok bool) { return s.store.action(id) }

// SetActions replaces every action.
func (s *Server) SetActions(actions []Action) { s.store.setActions(actions) }

// AddAction adds a at the end of the listing or, when an action has its ID,
// replaces that one in place.
func (s *Server) AddAction(a Action) { s.store.addAction(a) }

// Meetings returns every meeting, newest first.
func (s *Server) Meetings() []Meeting { return s.store.allMeetings() }

// AddMeeting adds m or replaces the meeting with its ID.
func (s *Server) AddMeeting(m Meeting) { s.store.addMeeting(m) }

// Minutes returns every minutes record, whatever its status, ordered by
// meeting ID.
func (s *Server) Minutes() []Minutes { return s.store.allMinutes() }

// SetMinutes adds m or replaces the minutes of meeting m.MeetingID. The
// meeting need not exist; GET /meetings/{m.MeetingID}/minutes serves them
// all the same.
func (s *Server) SetMinutes(m Minutes) { s.store.setMinutes(m) }
