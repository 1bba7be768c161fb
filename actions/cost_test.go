package actions_test

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/clocktest"
)

// The organisation of the cost test: years of history and a steady
// number of actions still to do, interleaved in the log as they are in a
// real one.
const (
	costHistory = 100_000
	costActive  = 500
	costRate    = 10               // /actions per second
	costMinute  = 60 * time.Second // simulated
)

func costDataset() recordstest.Dataset {
	past := []string{"complete", "cancelled", "deferred"}
	now := []string{"open", "open", "in_progress"}
	base := time.Date(2020, time.January, 6, 0, 0, 0, 0, time.UTC)
	total := costHistory + costActive
	every := total / costActive
	ds := recordstest.Dataset{Actions: make([]recordstest.Action, 0, total)}
	for i := range total {
		a := recordstest.Action{
			ID:            fmt.Sprintf("act-%06d", i+1),
			Title:         fmt.Sprintf("Follow up item %d from the committee", i+1),
			AssigneeEmail: fmt.Sprintf("user%d@example.org", i%50+1),
			AssigneeName:  fmt.Sprintf("User %d", i%50+1),
			Deadline:      base.AddDate(0, 0, i/50),
			DateOnly:      true,
			CreatedAt:     base.Add(time.Duration(i) * time.Hour),
		}
		if i%every == every-1 && i/every < costActive {
			a.Status = now[(i/every)%len(now)]
		} else {
			a.Status = past[i%len(past)]
		}
		ds.Actions = append(ds.Actions, a)
	}
	return ds
}

// wire counts what a server sends on the wire, headers included, and the
// requests it answers.
type wire struct {
	net.Listener
	bytes atomic.Int64
}

func (w *wire) Accept() (net.Conn, error) {
	c, err := w.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &w.bytes}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// costServer serves the records over a loopback listener that counts the
// bytes sent.
func costServer(t *testing.T, ds recordstest.Dataset, opts ...recordstest.Option) (*recordstest.Server, *wire, string) {
	t.Helper()
	srv := recordstest.NewHandler(append([]recordstest.Option{recordstest.WithDataset(ds)}, opts...)...)
	ts := httptest.NewUnstartedServer(srv.Handler())
	w := &wire{Listener: ts.Listener}
	ts.Listener = w
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	return srv, w, ts.URL + "/api/v1"
}

// noProfiles is a Slack that is never asked: listing needs no profile.
type noProfiles struct{}

func (noProfiles) Profile(context.Context, string) (actions.Profile, error) {
	return actions.Profile{}, fmt.Errorf("not asked in this test")
}

// costFigures is what a simulated minute cost.
type costFigures struct {
	calls, notModified int
	bytes              int64
	// refreshes are the commands that found the shared list stale and
	// started its refresh.
	refreshes int
	// first is the latency of each command that started a refresh (it is
	// answered from the stale list, without waiting); cached of the
	// others.
	first, cached []time.Duration
	shown         int // rows the caller saw on the last command
}

// simulateMinute runs costRate /actions a second for a simulated minute
// against srv, each command reading the shared list of actions still to
// do through actions.Service (default TTL) and keeping the caller's rows,
// as the /actions handler does.
func simulateMinute(t *testing.T, srv *recordstest.Server, url string, w *wire) costFigures {
	t.Helper()
	client, err := apiclient.NewClient(url, recordstest.DefaultKey)
	require.NoError(t, err)
	clock := clocktest.New(time.Date(2026, time.November, 24, 9, 0, 0, 0, time.UTC)) // the simulated time
	svc := actions.New(client, noProfiles{}, actions.Config{Now: clock.Now})
	command := func() (time.Duration, int) {
		start := time.Now()
		list, err := svc.List(t.Context(), "")
		require.NoError(t, err)
		mine := 0
		for _, a := range list.Actions {
			if a.Assignee.Email == "user1@example.org" {
				mine++
			}
		}
		return time.Since(start), mine
	}
	// The bot has been running: the list is in the cache when the minute
	// starts.
	command()
	srv.ResetRequests()
	bytes0 := w.bytes.Load()
	var f costFigures
	for range int(costMinute.Seconds()) * costRate {
		clock.Advance(time.Second / costRate)
		before := len(srv.Requests())
		d, mine := command()
		// A stale list is served at once while one refresh runs in the
		// background; let it finish, so its requests count against the
		// command that started it (and not its latency: the command did
		// not wait for it).
		svc.Wait()
		f.shown = mine
		if len(srv.Requests()) > before {
			f.refreshes++
			f.first = append(f.first, d)
		} else {
			f.cached = append(f.cached, d)
		}
	}
	for _, r := range srv.Requests() {
		f.calls++
		if r.Status == 304 {
			f.notModified++
		}
	}
	f.bytes = w.bytes.Load() - bytes0
	return f
}

// fetchOnce is the yardstick: what one fetch of the lists opts names
// costs, from a client that remembers nothing.
func fetchOnce(t *testing.T, srv *recordstest.Server, url string, w *wire, statuses ...apiclient.Status) (calls int, bytes int64, rows int) {
	t.Helper()
	client, err := apiclient.NewClient(url, recordstest.DefaultKey, apiclient.WithListLimits(10_000, 1_000_000))
	require.NoError(t, err)
	srv.ResetRequests()
	before := w.bytes.Load()
	for _, st := range statuses {
		list, err := client.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: st})
		require.NoError(t, err)
		require.False(t, list.Truncated)
		rows += len(list.Actions)
	}
	return len(srv.Requests()), w.bytes.Load() - before, rows
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// ackBudget is how long the bot waits for a command's answer before it
// acks and answers later (bot's 2 s, within Slack's 3 s).
const ackBudget = 2 * time.Second

// TestCostWithLongHistory is the cost benchmark of a long history: 100,000
// finished actions and 500 still to do, /actions ten times a second for a
// simulated minute, with the records service sending ETags and without.
// Run with -v for the figures (the README's "Cost with a long history").
func TestCostWithLongHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100,500 actions")
	}
	t.Parallel()
	ds := costDataset()
	for _, etags := range []bool{false, true} {
		t.Run(fmt.Sprintf("etags=%v", etags), func(t *testing.T) {
			var opts []recordstest.Option
			if etags {
				opts = append(opts, recordstest.WithETags())
			}
			srv, w, url := costServer(t, ds, opts...)
			activeCalls, activeBytes, activeRows := fetchOnce(t, srv, url, w, actions.Active()...)
			require.Equal(t, costActive, activeRows)

			f := simulateMinute(t, srv, url, w)
			ttls := int(costMinute / (5 * time.Second))
			yardstick := int64(ttls) * activeBytes
			t.Logf("records service per simulated minute at %d /actions a second: %d calls (%d answered 304), %d bytes on the wire, %d refreshes", costRate, f.calls, f.notModified, f.bytes, f.refreshes)
			t.Logf("the active set fetched once: %d calls, %d bytes; once per TTL for a minute: %d calls, %d bytes; measured/that = %.2f", activeCalls, activeBytes, ttls*activeCalls, yardstick, float64(f.bytes)/float64(yardstick))
			t.Logf("latency: first command after a refresh median %v, max %v; cached commands median %v", median(f.first), slices.Max(f.first), median(f.cached))

			assert.Equal(t, ttls, f.refreshes, "one refresh per TTL")
			assert.LessOrEqual(t, f.bytes, 2*yardstick, "traffic within 2x of fetching the active set once per TTL")
			assert.LessOrEqual(t, f.calls, 2*ttls*activeCalls)
			assert.Less(t, slices.Max(f.first), ackBudget, "answered inline even on a refresh")
			assert.Positive(t, f.shown, "the caller sees their actions")
			if etags {
				assert.Equal(t, f.calls, f.notModified, "an unchanged list is revalidated, never sent again")
				assert.Less(t, f.bytes, yardstick/10)
			}
		})
	}
	t.Run("history fetched once, for comparison", func(t *testing.T) {
		srv, w, url := costServer(t, ds)
		calls, bytes, rows := fetchOnce(t, srv, url, w, apiclient.StatusComplete, apiclient.StatusCancelled, apiclient.StatusDeferred)
		require.Equal(t, costHistory, rows)
		t.Logf("every finished action fetched once (what each refresh cost when the shared list held every status): %d calls, %d bytes", calls, bytes)
	})
}
