package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/tools/loadtest"
	"github.com/recordsbot/recordsbot/wire"
)

// TestSoak runs the bot, wired as `recordsbot serve` wires it, under the
// load generator at a fixed rate for a long while, with records faults
// injected and cleared on a schedule, and checks that it ends as it
// started: goroutines and live heap flat, every command answered 200 within
// Slack's 3 s. It runs only when RECORDSBOT_SOAK is set to a duration:
//
//	RECORDSBOT_SOAK=60s go test ./bot -run '^TestSoak$' -v -timeout 10m
//
// RECORDSBOT_SOAK_RATE sets the commands per second (default 200). Run it
// alone (-run '^TestSoak$'): other tests' goroutines would blur the count.
func TestSoak(t *testing.T) {
	setting := os.Getenv("RECORDSBOT_SOAK")
	if setting == "" {
		t.Skip("set RECORDSBOT_SOAK=60s to soak the bot")
	}
	duration, err := time.ParseDuration(setting)
	require.NoError(t, err, "RECORDSBOT_SOAK")
	rate := 200.0
	if v := os.Getenv("RECORDSBOT_SOAK_RATE"); v != "" {
		rate, err = strconv.ParseFloat(v, 64)
		require.NoError(t, err, "RECORDSBOT_SOAK_RATE")
	}

	s := startSoakBot(t)
	opts := loadtest.Options{
		URL: s.url, Secret: testSecret, Rate: rate, Users: s.users,
		// Enough for every command of Slack's 3 s window at once: while
		// the records are slow each waits out the 2 s ack budget.
		Concurrency: int(rate*loadtest.SlackDeadline.Seconds()) + 1,
		Commands:    []string{"/actions", "/actions overdue", "/actions all", "/meetings", "/minutes"},
	}

	// Warm up through one whole fault cycle, so that every path has
	// allocated what it keeps (pools, caches, metric series) before the
	// baseline is taken.
	opts.Duration = s.faultCycle()
	warm := s.load(t, opts)
	t.Logf("warm-up %v: %v", opts.Duration, warm)
	before := s.quiesce(t)

	opts.Duration = duration
	r := s.load(t, opts)
	after := s.quiesce(t)

	t.Logf("soak %v at %.0f/s: %v", duration, rate, r)
	t.Logf("goroutines: %d at start, %d at the end (peak %d under load)", before.goroutines, after.goroutines, s.peak())
	t.Logf("live heap: %.1f MiB at start, %.1f MiB at the end (%+.1f%%); heap in use %.1f → %.1f MiB",
		mib(before.heapAlloc), mib(after.heapAlloc), 100*(float64(after.heapAlloc)/float64(before.heapAlloc)-1),
		mib(before.heapInuse), mib(after.heapInuse))
	t.Logf("faults injected: %s", s.injected())
	t.Logf("bot log: %s", s.logs)

	assert.Zero(t, r.Errors, "unanswered commands; last error: %v", r.Error)
	assert.Equal(t, r.Sent, r.Status[http.StatusOK], "every command answered 200: %v", r.Status)
	assert.Zero(t, r.OverDeadline, "answers slower than Slack's 3 s")
	assert.Zero(t, r.Dropped, "the load generator could not keep the rate")
	assert.InDelta(t, rate*duration.Seconds(), float64(r.Sent), rate*duration.Seconds()*0.05, "the rate held")
	assert.LessOrEqual(t, after.goroutines, before.goroutines+5, "goroutines are flat")
	assert.LessOrEqual(t, float64(after.heapAlloc), 1.2*float64(before.heapAlloc), "the live heap is flat (+20%% at most)")
}

// soakBot is the bot under soak with its fakes and its clients'
// transports, which quiesce closes to compare like with like.
type soakBot struct {
	url        string
	users      []string
	records    *recordstest.Server
	bot        *bot.Server
	transports []*http.Transport
	logs       *levelCounter

	mu        sync.Mutex
	maxG      int
	injectedN map[string]int
}

// soakFaults are what the records service does wrong during the soak, in
// turn, each for faultPeriod, with a healthy faultPeriod between.
var soakFaults = []struct {
	name  string
	fault recordstest.Fault
}{
	{"slower than the ack budget", recordstest.Fault{Method: http.MethodGet, Latency: 2500 * time.Millisecond}},
	{"500", recordstest.Fault{Method: http.MethodGet, Status: http.StatusInternalServerError}},
	{"429 Retry-After 1", recordstest.Fault{Method: http.MethodGet, Status: http.StatusTooManyRequests, RetryAfter: "1"}},
	{"malformed JSON", recordstest.Fault{Method: http.MethodGet, Malformed: true}},
	{"reset mid-body", recordstest.Fault{Method: http.MethodGet, ResetMidBody: true}},
	{"slow but in budget", recordstest.Fault{Method: http.MethodGet, Latency: 300 * time.Millisecond}},
}

const faultPeriod = 2 * time.Second

func (s *soakBot) faultCycle() time.Duration { return 2 * faultPeriod * time.Duration(len(soakFaults)) }

// startSoakBot starts the bot over loopback as serveOn does (same server
// timeouts, metrics on every client) against the test world (records and a fake
// Slack).
func startSoakBot(t *testing.T) *soakBot {
	t.Helper()
	data := testworld.Dataset(time.Now())
	s := &soakBot{logs: &levelCounter{msgs: map[string]int{}}, injectedN: map[string]int{}}
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	s.records = w.Records
	fake := w.Slack
	for _, p := range data.People {
		s.users = append(s.users, p.SlackID)
	}

	ms := metrics.New()
	recordsTr := apiclient.DefaultTransport()
	slackTr := http.DefaultTransport.(*http.Transport).Clone()
	responseTr := http.DefaultTransport.(*http.Transport).Clone()
	s.transports = []*http.Transport{recordsTr, slackTr, responseTr}
	svc, err := wire.New(wire.Config{
		Records: wire.Records{URL: s.records.URL, Key: recordstest.DefaultKey,
			Options: []apiclient.Option{apiclient.WithTransport(ms.RecordsTransport(recordsTr))}},
		Slack: wire.Slack{Token: slacktest.DefaultToken, APIURL: fake.APIURL(),
			HTTPClient: &http.Client{Timeout: 15 * time.Second, Transport: ms.SlackTransport(slackTr)}},
		// A short TTL, so that the faults reach /actions often rather than
		// hiding behind the cache.
		Actions: actions.Config{CacheTTL: time.Second},
		Minutes: minutes.Config{PublicURL: "https://records-bot.example.org", Public: true},
	})
	require.NoError(t, err)
	s.bot = svc.Bot(bot.Config{SigningSecret: testSecret}, bot.Deps{
		Logger: slog.New(s.logs), Metrics: ms,
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: ms.SlackTransport(responseTr)},
	})
	hs := &http.Server{
		Handler:           s.bot,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		assert.NoError(t, hs.Shutdown(ctx))
		assert.ErrorIs(t, <-served, http.ErrServerClosed)
		assert.NoError(t, s.bot.Wait(ctx))
		for _, tr := range s.transports {
			tr.CloseIdleConnections()
		}
	})
	s.url = "http://" + ln.Addr().String() + "/slack/events"
	return s
}

// load runs the load generator while the fault schedule runs beside it.
func (s *soakBot) load(t *testing.T, opts loadtest.Options) loadtest.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.injectFaults(ctx)
	}()
	r, err := loadtest.Run(t.Context(), opts)
	cancel()
	<-done
	require.NoError(t, err)
	return r
}

// injectFaults cycles through soakFaults until ctx ends, and samples the
// goroutine count while it does.
func (s *soakBot) injectFaults(ctx context.Context) {
	defer s.records.ClearFaults()
	tick := time.NewTicker(faultPeriod)
	defer tick.Stop()
	for i := 0; ; i++ {
		s.records.ClearFaults()
		// Healthy and faulty periods alternate.
		if i%2 == 1 {
			f := soakFaults[(i/2)%len(soakFaults)]
			s.records.InjectFault(f.fault)
			s.mu.Lock()
			s.injectedN[f.name]++
			s.mu.Unlock()
		}
		// The fake records service journals every request; keep its
		// memory out of the heap figures.
		s.records.ResetRequests()
		s.mu.Lock()
		s.maxG = max(s.maxG, runtime.NumGoroutine())
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (s *soakBot) peak() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxG
}

func (s *soakBot) injected() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(s.injectedN)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", name, s.injectedN[name]))
	}
	return strings.Join(parts, ", ")
}

// soakSample is the process's state between runs.
type soakSample struct {
	goroutines           int
	heapAlloc, heapInuse uint64
}

// quiesce waits for the bot's follow-ups, closes the idle keep-alive
// connections of its clients (a pool, not a leak, and its size depends on
// the last second's traffic), lets the goroutine count settle and
// samples it with the live heap.
func (s *soakBot) quiesce(t *testing.T) soakSample {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.bot.Wait(ctx))
	for _, tr := range s.transports {
		tr.CloseIdleConnections()
	}
	s.records.ResetRequests()
	// Closed connections end their goroutines on both sides a moment
	// later; wait until the count holds still.
	last, still := runtime.NumGoroutine(), 0
	for still < 5 && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
		n := runtime.NumGoroutine()
		if n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
	// Twice: sync.Pool contents survive one collection in the victim cache.
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return soakSample{goroutines: runtime.NumGoroutine(), heapAlloc: ms.HeapAlloc, heapInuse: ms.HeapInuse}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// levelCounter is a slog.Handler that counts the warnings and errors the
// bot logs, by message, and drops them: at soak rates the lines are too
// many to read, but which ones occur, and how often, is a figure.
type levelCounter struct {
	mu   sync.Mutex
	msgs map[string]int
}

func (c *levelCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (c *levelCounter) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs[r.Level.String()+" "+r.Message]++
	return nil
}

func (c *levelCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *levelCounter) WithGroup(string) slog.Handler      { return c }

// String lists the messages counted, most frequent first.
func (c *levelCounter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := slices.Collect(maps.Keys(c.msgs))
	slices.SortFunc(keys, func(a, b string) int {
		if n := c.msgs[b] - c.msgs[a]; n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q ×%d", k, c.msgs[k]))
	}
	if len(parts) == 0 {
		return "no warnings or errors"
	}
	return strings.Join(parts, ", ")
}
