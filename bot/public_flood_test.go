package bot_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// withClientAddresses trusts loopback as a proxy, so that each test
// client is counted by the X-Forwarded-For it sends, with the default
// public limits otherwise.
func withClientAddresses() harnessOption {
	return withConfig(func(c *bot.Config) {
		c.Public = bot.PublicLimits{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	})
}

// fetchAs is fetchPage from client address addr.
func (h *harness) fetchAs(addr, path string, header http.Header) pageResponse {
	hd := http.Header{"X-Forwarded-For": {addr}}
	for k, v := range header {
		hd[k] = v
	}
	return h.fetchPage("", path, hd)
}

// realPages are n meetings with published minutes, dated in the past.
func (h *harness) realPages(n int) []string {
	var out []string
	for id := range pagetest.VisibleIDs(h.t, h.data, "") {
		if out = append(out, id); len(out) == n {
			break
		}
	}
	require.Len(h.t, out, n)
	return out
}

// While two clients flood the public pages with made-up meeting IDs
// (each within its own rate, together the whole shared records budget),
// a third reader's first requests for ten real pages all answer 200. The
// flood runs on the bot's clock, which the test moves: two seconds of it,
// 50 requests a second from each client, take no real time.
func TestPublicFloodReadersFirst(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Now()}
	h := newHarnessDeps(t, bot.Deps{Now: clock.Now}, withClientAddresses())
	pages := h.realPages(10)

	var flood, floodOK int
	// 50 a second: past the client's rate, so each client spends all it
	// may (its burst of 30, then 5 a second); refusals are cheap.
	const tick = 20 * time.Millisecond
	floodFor := func(d time.Duration) {
		for range d / tick {
			for c := range 2 {
				r := h.fetchAs(fmt.Sprintf("203.0.113.%d", c+1), fmt.Sprintf("/minutes/junk-%d-%d", c, flood), nil)
				flood++
				if r.status != http.StatusTooManyRequests {
					floodOK++
				}
			}
			clock.Add(tick)
		}
	}
	floodFor(500 * time.Millisecond) // the flood is under way
	var got []string
	for _, id := range pages {
		r := h.fetchAs("198.51.100.7", pagetest.MinutesPath(id), nil)
		got = append(got, fmt.Sprintf("%s %d", id, r.status))
		assert.Equal(t, http.StatusOK, r.status, "a real page during the flood: %s", id)
		floodFor(tick)
	}
	floodFor(1500 * time.Millisecond)
	t.Logf("flood: %d requests (%d within the client rate); reader: %s", flood, floodOK, strings.Join(got, ", "))
	assert.Greater(t, flood-floodOK, 0, "the flood went past the clients' rate")
	junkCalls := 0
	for _, r := range h.records.Requests() {
		if strings.Contains(r.Path, "/junk-") {
			junkCalls++
		}
	}
	t.Logf("records calls for made-up IDs: %d", junkCalls)
	assert.LessOrEqual(t, junkCalls, 10, "made-up IDs cost at most their own small budget")
}

// A page that exists: Last-Modified and ETag (304 on a repeat of either),
// no Accept-Ranges, and a kept copy while the records service is down.
func TestPublicPageRevalidatesAndOutlivesAnOutage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withMinutes(func(c *minutes.Config) { c.CacheTTL = time.Millisecond }))
	m, _ := h.demoMinutes(pagetest.PlainApproved) // a draft is never served from a copy
	id := m.ID
	first := h.fetchPage("", pagetest.MinutesPath(id), nil)
	require.Equal(t, http.StatusOK, first.status)
	assert.Empty(t, first.header.Get("Accept-Ranges"), "ranges are ignored, so not advertised")
	lm := first.header.Get("Last-Modified")
	require.NotEmpty(t, lm)
	tag := first.header.Get("ETag")
	require.NotEmpty(t, tag)

	assert.Equal(t, http.StatusNotModified, h.fetchPage("", pagetest.MinutesPath(id), http.Header{"If-None-Match": {tag}}).status)
	assert.Equal(t, http.StatusNotModified, h.fetchPage("", pagetest.MinutesPath(id), http.Header{"If-Modified-Since": {lm}}).status)
	again := h.fetchPage("", pagetest.MinutesPath(id), nil)
	assert.Equal(t, lm, again.header.Get("Last-Modified"), "the same page: the same Last-Modified")

	h.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	time.Sleep(5 * time.Millisecond) // past the cache
	down := h.fetchPage("", pagetest.MinutesPath(id), nil)
	assert.Equal(t, http.StatusOK, down.status, "the kept copy while the records are down")
	assert.Equal(t, first.body, down.body)
	assert.Equal(t, "no-cache", down.header.Get("Cache-Control"))

	for _, path := range []string{"/minutes", "/minutes/assets/style.css", "/minutes/feed.atom"} {
		assert.Empty(t, h.fetchPage("", path, nil).header.Get("Accept-Ranges"), path)
	}
}

// Bidi controls and zero-width characters are dropped from search results
// and from the query echoed on the public search page.
func TestPublicSearchDropsInvisibleCharacters(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarnessWith(t, st, func(d *recordstest.Dataset) {
			d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "BIDI-1", Title: "Finance \u202eevil\u202c ti\u200btle", Committee: "Finance", Date: time.Now().AddDate(0, 0, -20)})
			d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "BIDI-1", Status: "approved", Body: "The wombat grant was agreed \u2066here\u2069."})
		})
		r := h.fetchPage("", "/minutes?q=wombat%E2%80%AE", nil)
		require.Equal(t, http.StatusOK, r.status)
		assert.Contains(t, r.body, "BIDI-1", "found")
		for _, c := range []string{"\u202e", "\u202c", "\u200b", "\u2066", "\u2069"} {
			assert.NotContains(t, r.body, c, "%U on the page", []rune(c)[0])
		}
	})
}

// The public routes are inside a bound on requests in flight: past it a
// request is answered 503 at once, holding nothing while the records
// service is slow. The records service holds the first request until the
// test lets it go, not for a time.
func TestPublicRequestsInFlightAreBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *bot.Config) { c.Public.MaxInFlight = 1 }))
	ids := h.realPages(2)
	hung := make(chan struct{})
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Hold: hung})
	before := h.records.Count(http.MethodGet, "/meetings/")
	done := make(chan int)
	go func() { done <- h.fetchPage("", pagetest.MinutesPath(ids[0]), nil).status }()
	require.Eventually(t, func() bool { return h.records.Count(http.MethodGet, "/meetings/") > before },
		5*time.Second, time.Millisecond, "the first request reaches the records, holding the one slot")
	start := time.Now()
	r := h.fetchPage("", pagetest.MinutesPath(ids[1]), nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.status)
	assert.Equal(t, "5", r.header.Get("Retry-After"))
	assert.Less(t, time.Since(start), 300*time.Millisecond, "answered at once")
	h.records.ClearFaults()
	close(hung)
	assert.Equal(t, http.StatusOK, <-done)
}

// A minutes body's images load only from the bot, inline data, and the
// hosts the organisation names (PUBLIC_IMAGE_HOSTS): no tracking pixel
// from anywhere else reaches a public reader.
func TestPublicPagesLoadNoThirdPartyImage(t *testing.T) {
	t.Parallel()
	const id = "mtg_images"
	body := "Agreed.\n\n![pixel](https://tracker.example/p.gif) ![logo](https://images.example.org/logo.png) ![old](//tracker.example/x.png)\n\n<img src=\"http://tracker.example/h.gif\" alt=\"h\">"
	data := withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: id, Title: "Images", Committee: "Finance", Date: time.Now().AddDate(0, 0, -2)})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: body})
	})
	for _, tt := range []struct {
		name  string
		hosts []string
		shown []string
	}{
		{name: "by default", shown: nil},
		{name: "with the organisation's host", hosts: []string{"https://images.example.org"}, shown: []string{"https://images.example.org/logo.png"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, data, withConfig(func(c *bot.Config) { c.PublicImageHosts = tt.hosts }))
			r := h.fetchPage("", pagetest.MinutesPath(id), nil)
			require.Equal(t, http.StatusOK, r.status)
			csp := r.header.Get("Content-Security-Policy")
			assert.NotContains(t, csp, "https:;", "no image from anywhere over https")
			assert.NotContains(t, r.body, "tracker.example")
			for _, src := range tt.shown {
				assert.Contains(t, r.body, `src="`+src+`"`)
				assert.Contains(t, csp, "img-src 'self' data: https://images.example.org;")
			}
			if tt.shown == nil {
				assert.NotContains(t, r.body, "images.example.org")
				assert.Contains(t, csp, "img-src 'self' data:;")
			}
			assert.Contains(t, r.body, `alt="pixel"`, "the alt text stays")
		})
	}
}
