package bot_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/wire"
)

// benchDataset is shaped like the peer benchmark's stub: n actions over
// n/10 people, six of each person's ten open.
func benchDataset(n int) recordstest.Dataset {
	users := max(1, n/10)
	cycle := []string{"open", "in_progress", "open", "complete", "open", "deferred", "open", "cancelled", "open", "open"}
	base := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	d := recordstest.Dataset{}
	for i := 1; i <= n; i++ {
		u := (i-1)%users + 1
		d.Actions = append(d.Actions, recordstest.Action{
			ID:            fmt.Sprintf("act-%06d", i),
			Title:         fmt.Sprintf("Review the budget spreadsheet (#%d)", i),
			Status:        cycle[((i-1)/users)%len(cycle)],
			AssigneeEmail: fmt.Sprintf("user%d@example.org", u),
			AssigneeName:  fmt.Sprintf("User %d", u),
			MeetingID:     fmt.Sprintf("mtg-%04d", (i-1)/25+1),
			Deadline:      base.AddDate(0, 0, 14+(i*7)%45),
			DateOnly:      true,
		})
	}
	return d
}

// BenchmarkActionsCommand measures the whole /actions path: a signed slash
// command in, the ephemeral Block Kit reply out, through the real handler,
// with the records list from recordstest over loopback. "cached" is the
// default configuration (the action list shared for a few seconds);
// "uncached" reads and decodes the list on every command.
func BenchmarkActionsCommand(b *testing.B) {
	for _, n := range []int{200, 2000, 20000} {
		for _, cached := range []bool{true, false} {
			name := fmt.Sprintf("n=%d/cached", n)
			if !cached {
				name = fmt.Sprintf("n=%d/uncached", n)
			}
			b.Run(name, func(b *testing.B) { benchActions(b, n, cached) })
		}
	}
}

// BenchmarkBoundAtNormalLoad compares /actions (200 actions, cached) from
// parallel senders with the bound on work in flight at its default and
// with no practical bound: at normal load the bound costs nothing.
func BenchmarkBoundAtNormalLoad(b *testing.B) {
	for _, bound := range []struct {
		name string
		max  int
	}{{"default", 0}, {"unbounded", 1 << 30}} {
		b.Run("bound="+bound.name, func(b *testing.B) {
			do, _ := actionsRequester(b, 200, bot.Config{SigningSecret: testSecret, MaxInFlight: bound.max})
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if w := do(); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "act-000001") {
						b.Errorf("bad reply %d: %.100s", w.Code, w.Body.String())
					}
				}
			})
		})
	}
}

// actionsRequester starts the bot over n actions and returns a function
// that sends one signed /actions open and records its answer.
func actionsRequester(b *testing.B, n int, cfg bot.Config) (func() *httptest.ResponseRecorder, *recordstest.Server) {
	w := testworld.Start(b, benchDataset(n), []slacktest.User{{ID: "U0001", Name: "user1", Email: "user1@example.org"}},
		recordstest.WithPageSize(100000))
	srv := bottest.Start(b, w, nil, cfg, bot.Deps{}).Server
	return presignedActions(srv), w.Records
}

func benchActions(b *testing.B, n int, cached bool) {
	w := testworld.Start(b, benchDataset(n), []slacktest.User{{ID: "U0001", Name: "user1", Email: "user1@example.org"}},
		recordstest.WithPageSize(100000))
	records := w.Records
	var acfg actions.Config
	if !cached {
		acfg.CacheTTL = -1
	}
	srv := bottest.Start(b, w, bottest.Services(b, w, wire.Config{Actions: acfg}, nil), bot.Config{SigningSecret: testSecret}, bot.Deps{}).Server
	do := presignedActions(srv)
	if w := do(); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `act-000001`) {
		b.Fatalf("bad reply %d: %.300s", w.Code, w.Body.String())
	}
	records.ResetRequests()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		do()
	}
	b.StopTimer()
	b.ReportMetric(float64(records.Count(http.MethodGet, "/actions"))/float64(b.N), "records-calls/op")
}

// presignedActions returns a function that sends user1's "/actions open"
// to srv, signed once as Slack signs it, so a benchmark or an allocation
// count measures the handler and not the test's own signing.
func presignedActions(srv http.Handler) func() *httptest.ResponseRecorder {
	body := (&slacktest.Sender{Secret: testSecret}).CommandForm(slacktest.Command{User: slacktest.User{ID: "U0001", Name: "user1"}, Command: "/actions", Text: "open"}, "http://127.0.0.1:1/hook").Encode()
	ts := time.Now().Unix()
	sig := slacktest.Sign(testSecret, ts, []byte(body))
	return func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/slack/events", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Slack-Request-Timestamp", fmt.Sprint(ts))
		req.Header.Set("X-Slack-Signature", sig)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
}
