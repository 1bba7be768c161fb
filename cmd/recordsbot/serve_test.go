package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

// serveEnv is `recordsbot serve` running in-process against the in-memory
// records service and the fake Slack, on a loopback listener.
type serveEnv struct {
	t       *testing.T
	records *recordstest.Server
	slack   *slacktest.Server
	cfg     Config
	base    string // http://127.0.0.1:PORT
	// metricsBase is http://127.0.0.1:METRICS_ADDR's port.
	metricsBase string
	// checkEvery is how often the dependencies are checked; 0: 50 ms.
	checkEvery time.Duration
	logs       *syncBuffer
	people     map[string]slacktest.User // by first name, lowercased
}

func newServeEnv(t *testing.T, edit func(*Config)) *serveEnv {
	t.Helper()
	data := testworld.Dataset(time.Now())
	e := &serveEnv{t: t, logs: &syncBuffer{}, people: map[string]slacktest.User{}}
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	e.records, e.slack = w.Records, w.Slack
	for _, u := range w.Users {
		e.people[u.Name] = u
	}
	e.cfg = Config{
		SlackSigningSecret: "test-signing-secret",
		SlackBotToken:      slacktest.DefaultToken,
		SlackAPIURL:        e.slack.APIURL(),
		RecordsAPIURL:      e.records.URL,
		RecordsAPIKey:      recordstest.DefaultKey,
		AuditKey:           testAuditKey,
		Port:               3000, // serveOn is given its listener
		PublicMinutes:      true,
		ActionsCacheTTL:    5 * time.Second,
		LogFormat:          "json",
		LogLevel:           "debug",
		ShutdownGrace:      10 * time.Second,
		DatabaseURL:        "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db"),
	}
	if edit != nil {
		edit(&e.cfg)
	}
	return e
}

// start runs serveOn on a loopback port. stop ends it, as SIGTERM would,
// and returns its result; ended is closed when it has returned, whatever
// ended it, after which stop returns at once.
func (e *serveEnv) start() (stop func() error, ended <-chan struct{}) {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(e.t, err)
	e.base = "http://" + ln.Addr().String()
	mln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(e.t, err)
	e.metricsBase = "http://" + mln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var result error
	a := testApp(e.t, e.cfg, "serve", e.logs)
	a.checkInterval = 50 * time.Millisecond
	if e.checkEvery > 0 {
		a.checkInterval = e.checkEvery
	}
	go func() {
		defer close(done)
		result = serveOn(ctx, a, ln, mln)
	}()
	stop = func() error {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			e.t.Fatal("serve did not return within 20s of its context ending")
		}
		return result
	}
	e.t.Cleanup(func() { _ = stop() })
	return stop, done
}

// testApp is what run builds for sub from cfg, which must be valid.
func testApp(t *testing.T, cfg Config, sub string, logOut io.Writer) *app {
	t.Helper()
	set, errs := parseSettings(cfg, sub)
	require.NoError(t, errs.err())
	a, err := newApp(set, sub, logOut)
	require.NoError(t, err)
	return a
}

// get is GET path on PORT.
func (e *serveEnv) get(path string) (int, string, error) { return e.getFrom(e.base, path) }

// scrape is GET /metrics on the metrics listener (METRICS_ADDR), as
// Prometheus reads it.
func (e *serveEnv) scrape() (int, string, error) { return e.getFrom(e.metricsBase, "/metrics") }

func (e *serveEnv) getFrom(base, path string) (int, string, error) {
	req, err := http.NewRequestWithContext(e.t.Context(), http.MethodGet, base+path, nil)
	require.NoError(e.t, err)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// waitReady waits until /readyz answers 200: the first readiness check has
// passed.
func (e *serveEnv) waitReady() {
	e.t.Helper()
	require.Eventually(e.t, func() bool {
		code, _, err := e.get("/readyz")
		return err == nil && code == http.StatusOK
	}, 10*time.Second, 10*time.Millisecond, "serve never became ready; logs:\n%s", e.logs)
	e.waitDependency("store", 1)
}

// waitDependency waits until /metrics says recordsbot_dependency_up for
// the dependency is want (the checker runs every 5 s while one is down, so
// this may take that long).
func (e *serveEnv) waitDependency(dependency string, want int) {
	e.t.Helper()
	line := fmt.Sprintf("recordsbot_dependency_up{dependency=%q} %d\n", dependency, want)
	require.Eventually(e.t, func() bool {
		_, body, err := e.scrape()
		return err == nil && strings.Contains(body, line)
	}, 15*time.Second, 20*time.Millisecond, "no %q in /metrics; logs:\n%s", strings.TrimSpace(line), e.logs)
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeMetricsOwnListener: PORT (published by `docker run -p
// 3000:3000`, routed by the Ingress) answers /metrics with 404; the
// metrics are on METRICS_ADDR's listener, which serves nothing else.
func TestServeMetricsOwnListener(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, nil)
	e.start()
	e.waitReady()

	code, body, err := e.get("/metrics")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, code, "/metrics on PORT")
	assert.NotContains(t, body, "recordsbot_")

	code, body, err = e.scrape()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code, "/metrics on METRICS_ADDR")
	assert.Contains(t, body, "recordsbot_build_info")
	assert.Contains(t, body, `recordsbot_dependency_up{dependency="store"} 1`)
	for _, other := range []string{"/healthz", "/readyz", "/minutes", "/slack/events"} {
		code, _, err := e.getFrom(e.metricsBase, other)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, code, "%s on METRICS_ADDR", other)
	}
	assert.Contains(t, e.logs.String(), `"metrics_addr":"`+strings.TrimPrefix(e.metricsBase, "http://")+`"`, "the start-up line says where")
}

func TestServeShutdownLetsAnInFlightRequestFinish(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, nil)
	// Slower than the 2 s ack budget: Slack gets "Looking that up…" and
	// the list follows through response_url.
	e.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 2300 * time.Millisecond, Times: 1})
	stop, _ := e.start()
	e.waitReady()
	send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack}
	type answer struct {
		r   *slacktest.Response
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		r, err := send.SlashCommand(context.Background(), slacktest.Command{User: e.people["alice"], Command: "/actions"})
		answered <- answer{r, err}
	}()
	require.Eventually(t, func() bool { return e.records.Count(http.MethodGet, "/actions") > 0 }, 5*time.Second, time.Millisecond,
		"the command is in flight")

	// SIGTERM, while the request is in flight.
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()

	require.Eventually(t, func() bool { _, _, err := e.get("/healthz"); return err != nil }, 5*time.Second, 5*time.Millisecond,
		"a stopping server takes no new connections")
	a := <-answered
	require.NoError(t, a.err, "the request in flight is answered")
	assert.Equal(t, http.StatusOK, a.r.Status)
	assert.Empty(t, a.r.Body, "acked empty: the answer follows")
	require.NoError(t, <-stopped)
	posts := e.slack.ResponsePosts(a.r.ResponseURLID)
	require.Len(t, posts, 1, "the follow-up was sent before serve returned")
	assert.Contains(t, string(posts[0].Body), `Your open actions`)
	logs := e.logs.String()
	assert.Contains(t, logs, `"msg":"shutting down"`)
	assert.Contains(t, logs, `"msg":"stopped"`)
	assert.NotContains(t, logs, "follow-ups not sent")
}

func TestServeSocketMode(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, func(c *Config) {
		c.SlackSigningSecret = "" // Socket Mode needs none
		c.SlackAppToken = slacktest.DefaultAppToken
	})
	stop, _ := e.start()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := e.slack.WaitSocket(ctx, 1)
	require.NoError(t, err)
	send := &slacktest.Sender{Slack: e.slack}
	_, rurl := e.slack.ResponseURLFor()

	id, err := conn.Send(ctx, slacktest.Envelope{
		Type:    slacktest.EnvelopeSlashCommand,
		Payload: slacktest.CommandPayload(send, slacktest.Command{User: e.people["alice"], Command: "/actions"}, rurl),
	})
	require.NoError(t, err)
	ack, err := conn.WaitAck(ctx, id)

	require.NoError(t, err)
	var reply struct {
		ResponseType string            `json:"response_type"`
		Blocks       []json.RawMessage `json:"blocks"`
	}
	require.NoError(t, json.Unmarshal(ack.Payload, &reply))
	assert.Equal(t, "ephemeral", reply.ResponseType)
	assert.NotEmpty(t, reply.Blocks, "the ack carries alice's list")

	// The HTTP server keeps serving everything but Slack's traffic.
	e.waitReady()
	code, _, err := e.get("/healthz")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	code, metrics, err := e.scrape()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, metrics, "recordsbot_socket_connected 1")
	assert.Contains(t, metrics, `recordsbot_requests_total{command="/actions",kind="command",outcome="inline"} 1`)
	assert.Contains(t, metrics, `recordsbot_socket_envelopes_total{outcome="acked",type="slash_commands"} 1`)
	assert.Contains(t, metrics, `recordsbot_slack_api_calls_total{method="apps.connections.open",status="200"} 1`)
	forged := &slacktest.Sender{URL: e.base + "/slack/events", Secret: ""}
	r, err := forged.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/actions"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, r.Status, "with no signing secret, nothing over HTTP passes as Slack")

	require.NoError(t, stop())
	select {
	case <-conn.Done():
	case <-ctx.Done():
		t.Fatal("the socket stayed open after serve returned")
	}
}

// RECORDS_TIMEZONE is read once, into the one action domain run builds;
// the public pages take their times from it too (bot.Config has no zone
// of its own to leave unset).
func TestServePublicPagesShowTimesInRecordsTimezone(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, func(c *Config) { c.RecordsTimezone = "Asia/Tokyo" })
	e.start()
	e.waitReady()

	code, body, err := e.get("/minutes")

	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code, body)
	assert.Regexp(t, `<span class="clock">\d\d:\d\d JST</span>`, body, "meeting times in Tokyo's time")
	assert.NotContains(t, body, " UTC</span>")
}

func TestServeEndsWhenSlackRefusesTheAppToken(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, func(c *Config) { c.SlackAppToken = "xapp-1-revoked" })
	stop, ended := e.start()

	select {
	case <-ended:
		err := stop()
		require.ErrorIs(t, err, bot.ErrSocketAuth)
		assert.ErrorContains(t, err, "SLACK_APP_TOKEN")
		assert.ErrorContains(t, err, "invalid_auth")
	case <-time.After(10 * time.Second):
		t.Fatal("serve kept running with a refused app token")
	}
	_, _, err := e.get("/healthz")
	assert.Error(t, err, "the HTTP server is down too")
	assert.NotContains(t, e.logs.String(), "xapp-1-revoked", "the token is never logged")
}

// A REMIND_HOLIDAYS file that cannot be read stops serve at start, naming
// the variable, and gives both ports back rather than leaving them bound
// to a process that serves nothing.
func TestServeStopsOnUnreadableHolidaysAndFreesItsPorts(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, func(c *Config) { c.RemindHolidays = filepath.Join(t.TempDir(), "missing.ics") })
	stop, ended := e.start()
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on an unreadable REMIND_HOLIDAYS")
	}
	err := stop()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "REMIND_HOLIDAYS")
	for _, base := range []string{e.base, e.metricsBase} {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second)
		if err == nil {
			c.Close()
		}
		assert.Error(t, err, "%s is closed", base)
	}
}
