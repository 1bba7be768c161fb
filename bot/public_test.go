package bot_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/pagetest"
)

// fetchFrom requests path as the client at addr, through a proxy on the
// loopback address that names it in X-Forwarded-For.
func (h *harness) fetchFrom(addr, path string, header http.Header) pageResponse {
	h.t.Helper()
	hd := http.Header{"X-Forwarded-For": {addr}}
	for k, v := range header {
		hd[k] = v
	}
	return h.fetchPage("", path, hd)
}

func loopbackProxy(t *testing.T) []netip.Prefix {
	p, err := bot.ParseTrustedProxies("127.0.0.1, ::1")
	require.NoError(t, err)
	return p
}

// A burst of public page requests, for random and for repeated unknown
// meetings, from many addresses, costs the records service no more than
// the public routes' cap: what is over it is told to come back later, and
// a Slack user is still answered.
func TestPublicBurstStaysUnderTheRecordsCap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := metrics.New()
	const calls, burst = 10, 20
	h.rebuild(bot.Deps{Metrics: m}, withConfig(func(c *bot.Config) {
		c.Public = bot.PublicLimits{RecordsCalls: calls, RecordsBurst: burst, TrustedProxies: loopbackProxy(t)}
	}))
	real, _ := h.demoMinutes(pagetest.PlainApproved)
	require.Equal(t, http.StatusOK, h.fetchPage("", pagetest.MinutesPath(real.ID), nil).status, "a page read before the burst is cached")
	h.records.ResetRequests()

	const requests = 400
	start := time.Now()
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for i := range requests {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			id := fmt.Sprintf("mtg_random_%d", rand.Int64())
			switch i % 4 {
			case 0:
				id = "mtg_repeated"
			case 1:
				id = real.ID
			}
			client := fmt.Sprintf("198.51.100.%d", i%250)
			r := h.fetchFrom(client, pagetest.MinutesPath(id), nil)
			if r.status == http.StatusServiceUnavailable {
				assert.NotEmpty(t, r.header.Get("Retry-After"), "a 503 says when to come back")
				assert.Contains(t, r.body, "unavailable just now")
			}
			mu.Lock()
			statuses[r.status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	allowed := burst + int(calls*elapsed.Seconds()) + 1
	got := h.records.Count("", "")
	t.Logf("%d requests in %v: %d records calls (cap %d), answers %v", requests, elapsed.Round(time.Millisecond), got, allowed, statuses)
	assert.LessOrEqual(t, got, allowed, "records calls stay under the public cap")
	assert.Equal(t, requests/4, statuses[http.StatusOK], "the cached page is served to everyone who asked")
	// Made-up IDs are not in the meetings list the bot holds: 404 with no
	// records call at all, rather than spend the cap and be refused 503.
	assert.Equal(t, requests*3/4, statuses[http.StatusNotFound], "the made-up IDs: not found, at no cost")
	assert.Zero(t, statuses[http.StatusServiceUnavailable])
	assert.Zero(t, statuses[http.StatusTooManyRequests], "no one client was over its own rate")

	// Slack users draw on the records service as before.
	h.records.ResetRequests()
	reply, _ := h.slash(h.person("alice"), "/actions", "")
	assert.NotContains(t, reply.Text, "not answering")
	assert.Positive(t, h.records.Count(http.MethodGet, "/actions"))
}

// One client over its rate is answered 429 with Retry-After; others are
// not held up by it. Behind a trusted proxy the client is the address
// X-Forwarded-For names; without one, X-Forwarded-For is the client's own
// word and changes nothing.
func TestPublicPerClientLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		proxies []netip.Prefix
		// otherServed: a second address named in X-Forwarded-For is served
		// while the first is limited.
		otherServed bool
	}{
		{"behind a trusted proxy", loopbackProxy(t), true},
		{"no trusted proxy: X-Forwarded-For ignored", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			m := metrics.New()
			h.rebuild(bot.Deps{Metrics: m}, withConfig(func(c *bot.Config) {
				c.Public = bot.PublicLimits{PerClient: 1, PerClientBurst: 5, TrustedProxies: tt.proxies}
			}))
			for i := range 5 {
				r := h.fetchFrom("203.0.113.7", "/minutes/assets/style.css", nil)
				require.Equal(t, http.StatusOK, r.status, "request %d within the burst", i)
			}
			r := h.fetchFrom("203.0.113.7", "/minutes/assets/style.css", nil)
			assert.Equal(t, http.StatusTooManyRequests, r.status)
			after, err := strconv.Atoi(r.header.Get("Retry-After"))
			require.NoError(t, err, "Retry-After in seconds")
			assert.Equal(t, 1, after, "one request a second: back in a second")
			assert.Contains(t, r.body, "Too many requests")
			fr := h.fetchFrom("203.0.113.7", "/minutes/assets/style.css?lang=fr", nil)
			assert.Contains(t, fr.body, "Trop de requêtes depuis votre adresse", "in the reader's language")

			other := h.fetchFrom("203.0.113.8", "/minutes/assets/style.css", nil)
			if tt.otherServed {
				assert.Equal(t, http.StatusOK, other.status, "another client is served")
			} else {
				assert.Equal(t, http.StatusTooManyRequests, other.status, "a made-up X-Forwarded-For is the same client")
			}
			assert.GreaterOrEqual(t, counter(h.scrape(), "recordsbot_public_refused_total", map[string]string{"reason": "client_limit"}), 1.0)
		})
	}
}

// An IPv6 client is counted per /64, the block one host is handed: it
// cannot escape its limit by sending each request from another address
// of its own block, and a client in another block is not held up.
func TestPublicPerClientLimitCountsIPv6Per64(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, withConfig(func(c *bot.Config) {
		c.Public = bot.PublicLimits{PerClient: 1, PerClientBurst: 5, TrustedProxies: loopbackProxy(t)}
	}))
	for i := range 5 {
		r := h.fetchFrom(fmt.Sprintf("2001:db8:1:2::%x", i+1), "/minutes/assets/style.css", nil)
		require.Equal(t, http.StatusOK, r.status, "request %d within the burst", i)
	}
	r := h.fetchFrom("2001:db8:1:2:ffff:ffff:ffff:ffff", "/minutes/assets/style.css", nil)
	assert.Equal(t, http.StatusTooManyRequests, r.status, "another address of the same /64 is the same client")
	other := h.fetchFrom("2001:db8:1:3::1", "/minutes/assets/style.css", nil)
	assert.Equal(t, http.StatusOK, other.status, "another /64 is another client")
}

// The public pages ignore Range: a page is sent whole, once, whatever
// ranges are asked for (GO-2026-6609).
func TestPublicPagesIgnoreRange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	whole := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	require.Equal(t, http.StatusOK, whole.status)

	many := "bytes=0-0"
	for i := 1; i < 1000; i++ {
		many += fmt.Sprintf(",%d-%d", i, i)
	}
	for name, path := range map[string]string{"page": pagetest.MinutesPath(m.ID), "stylesheet": "/minutes/assets/style.css"} {
		for _, rng := range []string{"bytes=0-10", "bytes=0-10,20-30", many} {
			r := h.fetchPage("", path, http.Header{"Range": {rng}})
			assert.Equal(t, http.StatusOK, r.status, "%s: not 206", name)
			assert.Empty(t, r.header.Get("Content-Range"), name)
			assert.NotContains(t, r.header.Get("Content-Type"), "multipart", name)
			if name == "page" {
				assert.Equal(t, whole.body, r.body, "the whole page, once")
			}
		}
	}
}

// The first visit to the archive, with nothing cached, is answered with
// the default public limits: the list of minutes has the records budget
// before the committee selector, which is left out if nothing is left.
func TestPublicArchiveColdWithDefaultLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.rebuild(bot.Deps{}, withConfig(func(c *bot.Config) { c.Public = bot.PublicLimits{} }))
	r := h.fetchPage("", "/minutes", nil)
	assert.Equal(t, http.StatusOK, r.status, "a cold /minutes is answered, not 503\n%s", r.body)
	t.Logf("records calls for a cold /minutes: %d", h.records.Count("", ""))
}
