package loadtest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/wire"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestLoad load-tests a running bot: your deployment, or a local
// `recordsbot serve`. It runs only when RECORDSBOT_LOAD_URL is set:
//
//	RECORDSBOT_LOAD_URL=http://127.0.0.1:3000/slack/events \
//	RECORDSBOT_LOAD_SECRET=$SLACK_SIGNING_SECRET \
//	RECORDSBOT_LOAD_RATE=100 RECORDSBOT_LOAD_DURATION=30s \
//	RECORDSBOT_LOAD_USERS=U024BE7LH,U0G9QF9C6 \
//	RECORDSBOT_LOAD_COMMANDS='/actions,/actions overdue,/meetings' \
//	go test ./bot/loadtest -run TestLoad -v
//
// RECORDSBOT_LOAD_CONCURRENCY caps the requests in flight (default 64) and
// RECORDSBOT_LOAD_RESPONSE_URL sets the response_url sent (default: a local
// listener that counts follow-ups). It fails when any command went
// unanswered, was answered with an error status, or took longer than
// Slack's 3 s.
func TestLoad(t *testing.T) {
	target := os.Getenv("RECORDSBOT_LOAD_URL")
	if target == "" {
		t.Skip("set RECORDSBOT_LOAD_URL (and RECORDSBOT_LOAD_SECRET) to load-test a running bot")
	}
	opts := Options{
		URL:         target,
		Secret:      os.Getenv("RECORDSBOT_LOAD_SECRET"),
		ResponseURL: os.Getenv("RECORDSBOT_LOAD_RESPONSE_URL"),
		Users:       list(os.Getenv("RECORDSBOT_LOAD_USERS")),
		Commands:    list(os.Getenv("RECORDSBOT_LOAD_COMMANDS")),
	}
	var err error
	if v := os.Getenv("RECORDSBOT_LOAD_RATE"); v != "" {
		opts.Rate, err = strconv.ParseFloat(v, 64)
		require.NoError(t, err, "RECORDSBOT_LOAD_RATE")
	}
	if v := os.Getenv("RECORDSBOT_LOAD_DURATION"); v != "" {
		opts.Duration, err = time.ParseDuration(v)
		require.NoError(t, err, "RECORDSBOT_LOAD_DURATION")
	}
	if v := os.Getenv("RECORDSBOT_LOAD_CONCURRENCY"); v != "" {
		opts.Concurrency, err = strconv.Atoi(v)
		require.NoError(t, err, "RECORDSBOT_LOAD_CONCURRENCY")
	}
	r, err := Run(t.Context(), opts)
	require.NoError(t, err)
	t.Log(r)
	assert.Zero(t, r.Errors, "unanswered requests; last error: %v", r.Error)
	assert.Equal(t, r.Status[http.StatusOK], r.Answered(), "answers other than 200: %v", r.Status)
	assert.Zero(t, r.OverDeadline, "answers slower than Slack's %v", SlackDeadline)
	assert.Zero(t, r.Dropped, "ticks dropped with all %d requests in flight", opts.Concurrency)
}

// list splits a comma-separated setting, dropping blanks.
func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

const secret = "loadtest-signing-secret"

// startBot runs the real bot over loopback with the test world's records
// and a fake Slack, its action domain configured by acfg, and returns its
// request URL, the Slack IDs of the world's people and the records
// service.
func startBot(t *testing.T, cfg bot.Config, acfg actions.Config) (string, []string, *recordstest.Server) {
	t.Helper()
	data := testworld.Dataset(time.Now())
	var ids []string
	for _, p := range data.People {
		ids = append(ids, p.SlackID)
	}
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	cfg.SigningSecret = secret
	b := bottest.Start(t, w, bottest.Services(t, w, wire.Config{Actions: acfg}, nil), cfg, bot.Deps{})
	return b.HTTP.URL + "/slack/events", ids, w.Records
}

func TestRunAgainstTheBot(t *testing.T) {
	t.Parallel()
	url, users, records := startBot(t, bot.Config{}, actions.Config{})

	r, err := Run(t.Context(), Options{
		URL: url, Secret: secret, Rate: 100, Duration: 400 * time.Millisecond, FollowUpGrace: -1,
		Users: users, Commands: []string{"/actions", "/actions overdue", "/meetings", "/minutes"},
	})
	require.NoError(t, err)
	t.Log(r)
	// The schedule is Rate × Duration = 40 ticks; a busy machine loses
	// ticks (time.Ticker drops what its reader is too late for), so only
	// the upper bound is the generator's own promise.
	assert.Positive(t, r.Sent)
	assert.LessOrEqual(t, r.Sent+r.Dropped, 41, "never more than Rate × Duration requests")
	assert.Equal(t, r.Sent, r.Status[http.StatusOK], "every signed command is answered 200: %v", r.Status)
	assert.Zero(t, r.Errors)
	assert.Zero(t, r.Dropped)
	assert.Positive(t, r.P50)
	assert.LessOrEqual(t, r.P50, r.P90)
	assert.LessOrEqual(t, r.P90, r.P99)
	assert.LessOrEqual(t, r.P99, r.Max)
	assert.Zero(t, r.FollowUps, "fast records: every answer inline")

	// The commands came from the demo people, in turn.
	var lists int
	for _, req := range records.Requests() {
		if strings.HasPrefix(req.Path, "/api/v1/actions") || strings.HasPrefix(req.Path, "/api/v1/meetings") {
			lists++
		}
	}
	assert.Positive(t, lists, "the bot read the records")
}

func TestRunCountsFollowUpsAndWrongSecrets(t *testing.T) {
	t.Parallel()
	url, users, records := startBot(t, bot.Config{AckBudget: 20 * time.Millisecond}, actions.Config{CacheTTL: -1})
	records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 100 * time.Millisecond})

	r, err := Run(t.Context(), Options{URL: url, Secret: secret, Rate: 50, Duration: 100 * time.Millisecond, Users: users, FollowUpGrace: 500 * time.Millisecond})
	require.NoError(t, err)
	t.Log(r)
	require.Positive(t, r.Sent)
	assert.Equal(t, r.Sent, r.Status[http.StatusOK])
	assert.Equal(t, r.Sent, r.FollowUps, "each slow answer follows through the response_url")

	r, err = Run(t.Context(), Options{URL: url, Secret: "wrong", Rate: 50, Duration: 100 * time.Millisecond, FollowUpGrace: -1})
	require.NoError(t, err)
	assert.Equal(t, r.Sent, r.Status[http.StatusUnauthorized], "a wrong secret shows as 401s: %v", r.Status)
}

func TestRunRefusesUnusableOptions(t *testing.T) {
	t.Parallel()
	for name, o := range map[string]Options{
		"no URL":              {Secret: "s"},
		"no secret":           {URL: "http://127.0.0.1:1/slack/events"},
		"command without a /": {URL: "http://127.0.0.1:1/slack/events", Secret: "s", Commands: []string{"actions"}},
	} {
		_, err := Run(t.Context(), o)
		assert.Error(t, err, name)
	}
}

func TestRunCountsUnansweredRequests(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	r, err := Run(t.Context(), Options{URL: url, Secret: "s", Rate: 50, Duration: 60 * time.Millisecond, FollowUpGrace: -1})
	require.NoError(t, err)
	assert.Equal(t, r.Sent, r.Errors)
	assert.Error(t, r.Error)
	assert.Zero(t, r.Answered())
}

func TestRunStopsWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices the client hanging up only once the body
		// has been read.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(slow.Close)
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := Run(ctx, Options{URL: slow.URL, Secret: "s", Rate: 100, Duration: time.Minute})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second, "Run returns soon after ctx ends")
	assert.Positive(t, r.Sent)
	assert.Equal(t, r.Sent, r.Errors, "the requests in flight were cancelled")
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	tests := map[string]struct {
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		"none":              {nil, 50, 0},
		"one":               {ms(7), 99, 7 * time.Millisecond},
		"median of four":    {ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		"p99 of 100":        {ms(hundred...), 99, 99 * time.Millisecond},
		"p90 of 100":        {ms(hundred...), 90, 90 * time.Millisecond},
		"p100 is the max":   {ms(1, 5, 9), 100, 9 * time.Millisecond},
		"p0 is the minimum": {ms(1, 5, 9), 0, 1 * time.Millisecond},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, percentile(tt.sorted, tt.p))
		})
	}
}

func TestCommandsTakeTurns(t *testing.T) {
	t.Parallel()
	o := Options{URL: "u", Secret: "s", Users: []string{"U1", "U2"}, Commands: []string{"/actions overdue", "/meetings"}}
	require.NoError(t, o.setDefaults())
	seen := map[string]bool{}
	for i := range 8 {
		c := o.command(i)
		seen[c.User.ID+" "+c.Command+" "+c.Text] = true
	}
	assert.Equal(t, map[string]bool{
		"U1 /actions overdue": true, "U1 /meetings ": true,
		"U2 /actions overdue": true, "U2 /meetings ": true,
	}, seen, "every user sends every command")
}
