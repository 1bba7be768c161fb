package recordstest

import (
	"net/http"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// The records service's model is package recordsfake's; these are its
// names here, so a test needs one import.
type (
	Person     = recordsfake.Person
	Action     = recordsfake.Action
	AgendaItem = recordsfake.AgendaItem
	Meeting    = recordsfake.Meeting
	Minutes    = recordsfake.Minutes
	Dataset    = recordsfake.Dataset
	Scope      = recordsfake.Scope
)

// The keys and scopes of recordsfake.
const (
	DefaultKey         = recordsfake.DefaultKey
	DefaultSandboxKeys = recordsfake.DefaultSandboxKeys
	ScopeActionsRead   = recordsfake.ScopeActionsRead
	ScopeActionsWrite  = recordsfake.ScopeActionsWrite
	ScopeMeetingsRead  = recordsfake.ScopeMeetingsRead
)

// AllScopes returns every scope of Records API v1, in a stable order.
func AllScopes() []Scope { return recordsfake.AllScopes() }

// ParseKeys parses a key set as recordsfake.ParseKeys does.
func ParseKeys(s string) (map[string][]Scope, error) { return recordsfake.ParseKeys(s) }

type config struct {
	fake      []recordsfake.Option
	dialect   Dialect
	casing    Casing
	putAnswer PutAnswer
	etags     bool
}

// Option configures a [Server].
type Option func(*config)

// fakeOption is an option of the records service itself.
func fakeOption(o recordsfake.Option) Option {
	return func(c *config) { c.fake = append(c.fake, o) }
}

// WithKeys replaces the accepted API keys and their scopes; [DefaultKey]
// is no longer accepted unless keys holds it. An empty set refuses every
// request with 401. A key mapped to no scope is authenticated but gets 403
// everywhere.
func WithKeys(keys map[string][]Scope) Option { return fakeOption(recordsfake.WithKeys(keys)) }

// WithDataset sets the records the server starts with (default: none).
// The server copies d; later changes to d do not reach it. People are not
// served. Records sharing an ID collapse into the last one.
func WithDataset(d Dataset) Option { return fakeOption(recordsfake.WithDataset(d)) }

// WithPageSize sets how many meetings and how many actions make a page
// (defaults 5 and 100). n < 1 keeps the defaults.
func WithPageSize(n int) Option { return fakeOption(recordsfake.WithPageSize(n)) }

// WithClock sets the clock that stamps records stored without a time
// (Action.CreatedAt, Minutes.UpdatedAt). The default, and what a nil now
// gives, is time.Now.
func WithClock(now func() time.Time) Option { return fakeOption(recordsfake.WithClock(now)) }

// WithPathPrefix serves the API under prefix, such as "/records", so that
// the base URL is http://127.0.0.1:PORT/records/api/v1. It lets a client's
// tests check that the client keeps the base path instead of resolving
// endpoints against the host. The default is no prefix.
func WithPathPrefix(prefix string) Option { return fakeOption(recordsfake.WithPathPrefix(prefix)) }

// Server is the records service of package recordsfake with what tests
// add: the journal of requests and injected faults. All its methods are
// safe for concurrent use.
type Server struct {
	*recordsfake.Server

	journal Journal
	faults  faultSet
}

// NewServer starts and returns a server listening on a loopback port. The
// caller must call Close when finished, typically with t.Cleanup.
func NewServer(opts ...Option) *Server { return build(recordsfake.NewServer, opts) }

// NewHandler returns a server that does not listen: serve [Server.Handler]
// yourself. URL is empty.
func NewHandler(opts ...Option) *Server { return build(recordsfake.NewHandler, opts) }

// build makes the server with the records service's options and around
// its API, innermost first: the dialect's recasing, ETags, faults (which
// act before authentication, as a gateway in front of the service would)
// and the journal, which records every request as it arrives.
func build(newFake func(...recordsfake.Option) *recordsfake.Server, opts []Option) *Server {
	var cfg config
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{}
	fake := cfg.fake
	if cfg.dialect != Plain || cfg.putAnswer != DialectDefault {
		fake = append(fake, recordsfake.WithRoutes(func(rec recordsfake.Records, sizes recordsfake.PageSizes) []recordsfake.Route {
			return dialectRoutes(rec, sizes, &cfg)
		}))
	}
	if cfg.dialect == Plain && cfg.casing != Snake {
		// The plain form has no envelope members a convention fixes, so
		// the whole body is recased; other dialects recase their records
		// only (see casedRecord).
		fake = append(fake, recordsfake.WithMiddleware(func(api http.Handler, _ recordsfake.Surround) http.Handler {
			return recase(cfg.casing, api)
		}))
	}
	if cfg.etags {
		fake = append(fake, recordsfake.WithMiddleware(func(api http.Handler, _ recordsfake.Surround) http.Handler {
			return etags(api)
		}))
	}
	fake = append(fake, recordsfake.WithMiddleware(s.faults.middleware), recordsfake.WithMiddleware(s.journal.Middleware))
	s.Server = newFake(fake...)
	return s
}

// Requests returns every request received since the server started or
// [Server.ResetRequests] was last called, in arrival order.
func (s *Server) Requests() []Request { return s.journal.Requests() }

// Count returns how many received requests have that method (empty: any)
// and an escaped path that, after /api/v1, starts with pathPrefix (empty:
// any), such as Count("PUT", "/actions/").
func (s *Server) Count(method, pathPrefix string) int {
	return s.journal.Count(method, pathPrefix)
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() { s.journal.Reset() }

// InjectFault adds f after the faults already injected. Each request gets
// the first fault it matches, if any.
func (s *Server) InjectFault(f Fault) { s.faults.inject(f) }

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() { s.faults.clear() }
