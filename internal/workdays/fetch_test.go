package workdays_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/workdays"
)

// memCache is a workdays.Cache in memory, as the store keeps it.
type memCache struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memCache) HolidayFile(_ context.Context, url string) ([]byte, time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[url]
	return b, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), ok, nil
}

func (m *memCache) PutHolidayFile(_ context.Context, url string, body []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string][]byte{}
	}
	m.files[url] = body
	return nil
}

// warning is one Warn call.
type warning struct {
	url  string
	err  string
	from time.Time
}

func loader(cache workdays.Cache, warned *[]warning) workdays.Loader {
	return workdays.Loader{Cache: cache, Timeout: 300 * time.Millisecond,
		Warn: func(url string, err error, from time.Time) {
			*warned = append(*warned, warning{url, err.Error(), from})
		}}
}

func closures(t *testing.T) []byte {
	t.Helper()
	body, err := os.ReadFile("testdata/closures.ics")
	require.NoError(t, err)
	return body
}

// A calendar host that is down, slow or answers an error leaves the last
// good copy in use, with a warning; never an error that stops start-up.
func TestAHostThatFailsLeavesTheLastGoodCopy(t *testing.T) {
	t.Parallel()
	body := closures(t)
	var mode atomic.Value // what the host does now; a slow answer may outlive its test step
	mode.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch mode.Load() {
		case "slow":
			<-r.Context().Done()
		case "error":
			http.Error(w, "oops", http.StatusBadGateway)
		case "not ics":
			w.Write([]byte("<html>maintenance</html>"))
		default:
			w.Write(body)
		}
	}))
	t.Cleanup(srv.Close)
	cache := &memCache{}
	var warned []warning
	c, err := loader(cache, &warned).Load(t.Context(), srv.URL+"/closures.ics")
	require.NoError(t, err)
	assert.True(t, c.Holiday(day("2026-12-28")))
	assert.Empty(t, warned)
	assert.Equal(t, body, cache.files[srv.URL+"/closures.ics"], "the copy kept")

	for _, m := range []string{"slow", "error", "not ics"} {
		mode.Store(m)
		warned = nil
		start := time.Now()
		c, err := loader(cache, &warned).Load(t.Context(), srv.URL+"/closures.ics")
		require.NoError(t, err, m)
		assert.Less(t, time.Since(start), 5*time.Second, m)
		assert.True(t, c.Holiday(day("2026-12-28")), "%s: the last good copy", m)
		require.Len(t, warned, 1, m)
		assert.False(t, warned[0].from.IsZero(), "%s: says the copy was used", m)
		assert.Equal(t, body, cache.files[srv.URL+"/closures.ics"], "%s: the good copy is not replaced", m)
	}

	// No copy yet: no holidays from it, a warning, and still no error.
	mode.Store("error")
	warned = nil
	c, err = loader(&memCache{}, &warned).Load(t.Context(), "2026-12-24,"+srv.URL+"/closures.ics")
	require.NoError(t, err)
	assert.Equal(t, 1, c.Len(), "the date alone")
	require.Len(t, warned, 1)
	assert.True(t, warned[0].from.IsZero())
	assert.Contains(t, warned[0].err, "the server answered 502")
}

// A file over 1 MB is refused, not cut: its later days would be lost.
func TestAFileOverOneMBIsRefused(t *testing.T) {
	t.Parallel()
	big := []byte("BEGIN:VCALENDAR\n" + strings.Repeat("X-PAD:"+strings.Repeat("x", 1000)+"\n", 1100) +
		"BEGIN:VEVENT\nDTSTART;VALUE=DATE:20261231\nEND:VEVENT\nEND:VCALENDAR\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(big) }))
	t.Cleanup(srv.Close)
	var warned []warning
	c, err := loader(nil, &warned).Load(t.Context(), srv.URL+"/big.ics")
	require.NoError(t, err)
	assert.Zero(t, c.Len(), "nothing read from a file cut short")
	require.Len(t, warned, 1)
	assert.Contains(t, warned[0].err, "the file is over 1 MB")

	path := filepath.Join(t.TempDir(), "big.ics")
	require.NoError(t, os.WriteFile(path, big, 0o600))
	_, err = workdays.Load(t.Context(), path, nil)
	assert.ErrorContains(t, err, "the file is over 1 MB")
}

// A redirect is followed only to a public address: never to loopback,
// link-local (a cloud's metadata service) or private ones.
func TestARedirectToANonPublicAddressIsNotFollowed(t *testing.T) {
	t.Parallel()
	body := closures(t)
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	t.Cleanup(inside.Close)
	for name, target := range map[string]string{
		"loopback":   inside.URL + "/closures.ics",
		"link-local": "http://169.254.169.254/latest/meta-data/",
		"private":    "http://10.0.0.1/closures.ics",
		"by name":    strings.Replace(inside.URL, "127.0.0.1", "localhost", 1) + "/closures.ics",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/same-host.ics" {
					http.Redirect(w, r, "/closures.ics", http.StatusFound)
					return
				}
				if r.URL.Path == "/closures.ics" {
					w.Write(body)
					return
				}
				http.Redirect(w, r, target, http.StatusFound)
			}))
			t.Cleanup(outside.Close)
			var warned []warning
			c, err := loader(nil, &warned).Load(t.Context(), outside.URL+"/holidays.ics")
			require.NoError(t, err)
			assert.Zero(t, c.Len())
			require.Len(t, warned, 1)
			assert.Contains(t, warned[0].err, "not a public address: not followed")

			warned = nil
			c, err = loader(nil, &warned).Load(t.Context(), outside.URL+"/same-host.ics")
			require.NoError(t, err)
			assert.Empty(t, warned, "a redirect on the configured host itself is followed")
			assert.True(t, c.Holiday(day("2026-12-28")))
		})
	}
}

// Credentials in a URL never reach a warning or an error.
func TestCredentialsInAURLAreNeverShown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(srv.Close)
	url := strings.Replace(srv.URL, "http://", "http://calendar:hunter2@", 1) + "/h.ics?token=s3cret"
	var warned []warning
	_, err := loader(nil, &warned).Load(t.Context(), url)
	require.NoError(t, err)
	require.Len(t, warned, 1)
	for _, s := range []string{warned[0].url, warned[0].err} {
		assert.NotContains(t, s, "hunter2")
		assert.NotContains(t, s, "s3cret")
	}
	assert.Contains(t, warned[0].url, "/h.ics?token=…")

	_, err = (workdays.Loader{Timeout: 300 * time.Millisecond}).Fetch(t.Context(), url)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2")
	assert.NotContains(t, err.Error(), "s3cret")
}

// In the background (serve), a slow host holds up nothing: the last good
// copy is there at once, and the host's days are added once read.
func TestInTheBackgroundASlowHostHoldsUpNothing(t *testing.T) {
	t.Parallel()
	body := closures(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			w.Write(body)
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	cache := &memCache{}
	require.NoError(t, cache.PutHolidayFile(t.Context(), srv.URL+"/old.ics",
		[]byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261124\nEND:VEVENT\nEND:VCALENDAR\n")))
	var mu sync.Mutex
	var warned []string
	l := workdays.Loader{Cache: cache, Background: true, Timeout: 2 * time.Second,
		Warn: func(url string, err error, _ time.Time) { mu.Lock(); warned = append(warned, err.Error()); mu.Unlock() }}

	start := time.Now()
	c, err := l.Load(t.Context(), srv.URL+"/old.ics,"+srv.URL+"/new.ics")
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 500*time.Millisecond, "nothing waited for")
	assert.True(t, c.Holiday(day("2026-11-24")), "the last good copy, at once")
	assert.False(t, c.Holiday(day("2026-12-28")))

	close(release)
	assert.Eventually(t, func() bool { return c.Holiday(day("2026-12-28")) }, 5*time.Second, 10*time.Millisecond,
		"the host's days added once read")
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, warned)
}
