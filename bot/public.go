package bot

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
)

// The public routes (the minutes pages and their stylesheet) need no
// login, so anyone on the internet can call them as often as they like.
// Three things keep that from costing the people who use the bot in Slack:
//
//   - each client (by IPv4 address, or IPv6 /64) may make PublicLimits.PerClient requests
//     a second, with a burst; past it, 429 with Retry-After;
//   - all public requests together may cause at most
//     PublicLimits.RecordsCalls calls to the records service a second (a
//     token bucket they share, lent to the records client through the
//     request's context: apiclient.WithCallBudget); past it a page answers
//     503 with Retry-After and the records quota is left to /actions, the
//     Home tab and the watcher. A page served from the cache takes nothing
//     from the bucket, nor do Slack's unfurls of the same pages;
//   - a Range header is dropped, so a page is always whole (GO-2026-6609:
//     net/http answered a 1.9 kB page asked for 1,000 ranges with 144 kB).

// PublicLimits bounds what the public routes may cost. The zero value of a
// field means its default.
type PublicLimits struct {
	// PerClient is the sustained rate of requests one client address may
	// make, per second. Default 5.
	PerClient rate.Limit
	// PerClientBurst is how many requests a client may make at once.
	// Default 30 (a page, its stylesheet and a reader's quick clicks).
	PerClientBurst int
	// RecordsCalls is the sustained rate of records calls all public
	// requests together may cause, per second. Default 10 (a page not in
	// the cache is two calls: the meeting and its minutes).
	RecordsCalls rate.Limit
	// RecordsBurst is how many such calls may be made at once. Default 40.
	RecordsBurst int
	// UnheldCalls is the sustained rate, per second, of the records
	// calls of lookups of names the bot does not hold (a page whose ID is
	// not among the meetings it holds), which may well fail: a budget of
	// their own,
	// apart from RecordsCalls, so someone asking for made-up IDs cannot
	// spend what readers of real minutes need. Default 1.
	UnheldCalls rate.Limit
	// UnheldBurst is how many such calls may be made at once. Default 5.
	UnheldBurst int
	// MaxInFlight bounds the public requests being worked on at once;
	// past it a request is answered 503 at once, holding nothing.
	// Default 64.
	MaxInFlight int
	// TrustedProxies are the addresses (CIDR prefixes) of the reverse
	// proxies in front of the bot, such as the Ingress controller's pod
	// network (TRUSTED_PROXIES). A request from one of them is counted
	// against the client X-Forwarded-For names: the address nearest the
	// bot that is not itself a trusted proxy. Empty: X-Forwarded-For is
	// ignored and each connection's own address is the client, as anyone
	// can write any X-Forwarded-For.
	TrustedProxies []netip.Prefix
}

func (l *PublicLimits) setDefaults() {
	if l.PerClient <= 0 {
		l.PerClient = 5
	}
	if l.PerClientBurst <= 0 {
		l.PerClientBurst = 30
	}
	if l.RecordsCalls <= 0 {
		l.RecordsCalls = 10
	}
	if l.RecordsBurst <= 0 {
		l.RecordsBurst = 40
	}
	if l.UnheldCalls <= 0 {
		l.UnheldCalls = 1
	}
	if l.UnheldBurst <= 0 {
		l.UnheldBurst = 5
	}
	if l.MaxInFlight <= 0 {
		l.MaxInFlight = 64
	}
}

// maxClients bounds the per-client limiters kept: past it, idle ones are
// dropped, and if none is idle all are (a flood from that many addresses
// is the global bucket's to stop).
const maxClients = 10_000

// clientIdle is how long a client's limiter is kept after its last
// request: long enough for its bucket to refill.
const clientIdle = time.Minute

// publicGuard is the middleware of the public routes; see PublicLimits.
type publicGuard struct {
	limits  PublicLimits
	records *rate.Limiter // the shared bucket of records calls
	// unheld is the smaller bucket of lookups of names the bot does not
	// hold.
	unheld *rate.Limiter
	// slots bounds the public requests in flight.
	slots   *workSlots
	now     func() time.Time
	metrics *metrics.Set
	log     *slog.Logger
	// org is ORG_LANGUAGE, for a refusal's text when the reader asks for
	// no shipped language.
	org lang.Lang

	mu      sync.Mutex
	clients map[netip.Addr]*client
}

type client struct {
	lim  *rate.Limiter
	seen time.Time
}

func newPublicGuard(l PublicLimits, org lang.Lang, now func() time.Time, m *metrics.Set, log *slog.Logger) *publicGuard {
	l.setDefaults()
	return &publicGuard{
		limits: l, records: rate.NewLimiter(l.RecordsCalls, l.RecordsBurst),
		unheld: rate.NewLimiter(l.UnheldCalls, l.UnheldBurst),
		slots:  newWorkSlots(l.MaxInFlight),
		now:    now, metrics: m, log: log, org: org, clients: map[netip.Addr]*client{},
	}
}

// wrap applies the per-client limit, lends the request the shared records
// bucket and drops Range.
func (g *publicGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientKey(g.clientAddr(r))
		if wait := g.admit(addr); wait > 0 {
			g.metrics.PublicRefused("client_limit")
			g.log.DebugContext(r.Context(), "public page: client over its rate", "client", addr.String())
			w.Header().Set("Retry-After", retryAfterSeconds(wait))
			publicweb.SetVary(w.Header())
			http.Error(w, g.language(r).T("page.busy_client"), http.StatusTooManyRequests)
			return
		}
		// Inside a bound of their own: 4,000 concurrent requests for one
		// ID held 4,019 goroutines and 27 MB for 10 s. A
		// bound apart from the Slack requests' (Server.admit), so a flood
		// of readers cannot refuse a colleague's /actions.
		release, ok := g.slots.acquire()
		if !ok {
			g.metrics.PublicRefused("in_flight")
			w.Header().Set("Retry-After", "5")
			publicweb.SetVary(w.Header())
			http.Error(w, g.language(r).T("page.busy_server"), http.StatusServiceUnavailable)
			return
		}
		defer release()
		r.Header.Del("Range")
		r.Header.Del("If-Range")
		next.ServeHTTP(w, r.WithContext(apiclient.WithCallBudget(r.Context(), budget{g, g.records})))
	})
}

// language is the language of a refusal, chosen as every public route
// chooses its language (publicweb.Language): the refusal is read by the
// same person.
func (g *publicGuard) language(r *http.Request) lang.Lang {
	l, _ := publicweb.Language(r, g.org)
	return l
}

// admit takes one request from addr's bucket; it returns zero when the
// request may go ahead, else how long until it could.
func (g *publicGuard) admit(addr netip.Addr) time.Duration {
	now := g.now()
	g.mu.Lock()
	c, ok := g.clients[addr]
	if !ok {
		if len(g.clients) >= maxClients {
			g.sweep(now)
		}
		c = &client{lim: rate.NewLimiter(g.limits.PerClient, g.limits.PerClientBurst)}
		g.clients[addr] = c
	}
	c.seen = now
	g.mu.Unlock()
	res := c.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now) // a refused request does not use up the next one
		return d
	}
	return 0
}

// sweep drops the limiters idle for clientIdle, or all of them when none
// is; g.mu is held.
func (g *publicGuard) sweep(now time.Time) {
	for a, c := range g.clients {
		if now.Sub(c.seen) > clientIdle {
			delete(g.clients, a)
		}
	}
	if len(g.clients) >= maxClients {
		clear(g.clients)
	}
}

// clientAddr is the address r is counted against; see
// PublicLimits.TrustedProxies.
func (g *publicGuard) clientAddr(r *http.Request) netip.Addr {
	addr := remoteAddr(r.RemoteAddr)
	if !g.trusted(addr) {
		return addr
	}
	// Each proxy appends the address it got the request from, so the list
	// is read from the right; the first address no trusted proxy owns is
	// the client. Anything left of it was written by the client itself.
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr // a malformed entry: trust nothing beyond it
		}
		hop = hop.Unmap()
		if !g.trusted(hop) {
			return hop
		}
		addr = hop
	}
	return addr
}

// clientKey is the client a request's address is counted as: an IPv4
// address itself, an IPv6 address its /64. An IPv6 host is handed a whole
// /64 (RFC 6177, and SLAAC needs one), so it can send each request from
// an address of its own; counted per address, one client had 2^64 limits.
func clientKey(a netip.Addr) netip.Addr {
	if !a.Is6() || a.Is4In6() {
		return a
	}
	p, err := a.Prefix(64)
	if err != nil {
		return a
	}
	return p.Addr()
}

func (g *publicGuard) trusted(a netip.Addr) bool {
	for _, p := range g.limits.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// remoteAddr parses http.Request.RemoteAddr ("ip:port").
func remoteAddr(s string) netip.Addr {
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// retryAfterSeconds is d as a Retry-After value, whole seconds rounded up.
func retryAfterSeconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// ParseTrustedProxies reads TRUSTED_PROXIES: comma-separated addresses or
// CIDR prefixes ("10.0.0.0/8, 192.168.1.7"). It returns an error naming
// the first entry that is neither.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, errors.New("not an address or CIDR prefix: " + strconv.Quote(f))
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// budget is one bucket of records calls, as apiclient.CallBudget.
type budget struct {
	g   *publicGuard
	lim *rate.Limiter
}

// Allow implements apiclient.CallBudget, counting each refusal.
func (b budget) Allow() bool {
	if b.lim.AllowN(b.g.now(), 1) {
		return true
	}
	if b.lim == b.g.unheld {
		b.g.metrics.PublicRefused("unheld_cap")
	} else {
		b.g.metrics.PublicRefused("records_cap")
	}
	return false
}

// unheldContext is publicgate.Config.Unheld: ctx with the smaller budget
// in place of the shared one.
func (g *publicGuard) unheldContext(ctx context.Context) context.Context {
	return apiclient.WithCallBudget(ctx, budget{g, g.unheld})
}
