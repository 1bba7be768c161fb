package bot_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/clocktest"
	"github.com/recordsbot/recordsbot/internal/pagetest"
)

// newStepClock is a clock that moves only when told: the public limits'
// buckets and the domains' caches then refill and expire by the test's
// steps, never by how fast the machine runs it.
func newStepClock() *clocktest.Clock { return clocktest.New(time.Now()) }

// madeUp is the i-th made-up public lookup of client c, cycling through
// every kind a public route takes: a meeting ID (a page, a one-meeting
// calendar), a committee (the archive, its feed, a search within it, a
// committee's calendar), an archive cursor, a private calendar token.
// Each value is new, so no cache of answers can help.
func madeUp(c, i int) string {
	v := fmt.Sprintf("nope-%d-%d", c, i)
	forged := base64.RawURLEncoding.EncodeToString([]byte(`{"n":"/api/v1/meetings?page=` + v + `"}`))
	kinds := []string{
		"/minutes/" + v,
		"/minutes?committee=" + v,
		"/minutes/feed.atom?committee=" + v,
		"/minutes?committee=" + v + "&q=budget",
		"/minutes?after=" + forged,
		"/minutes?committee=" + v + "&after=" + forged,
		"/calendar/" + v + ".ics",
		"/calendar/meeting/" + v + ".ics",
		"/calendar/u/" + strings.Repeat(v[len(v)-1:], calendar.TokenLen) + ".ics",
	}
	return kinds[i%len(kinds)]
}

// The load test of the public gate: while one or two clients flood every
// public route with made-up lookups, each as fast as its own rate lets
// it, a reader's 38 first requests for real minutes pages all answer 200.
// Time is the test's (newStepClock): 50 ms steps, the flood spending all its
// per-client rate each step, the reader asking every 250 ms (within its
// own rate) for pages no one has read yet.
func TestPublicGateFloodOfMadeUpLookups(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		clients int
		// older adds meetings far back, so the bot holds only the newest
		// part of a long history: a made-up name may then be an old one,
		// and is looked up on the unheld budget.
		older int
	}{
		{name: "one client", clients: 1},
		{name: "two clients", clients: 2},
		{name: "two clients, a history longer than the bot holds", clients: 2, older: 40},
	} {
		clients := tt.clients
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := newStepClock()
			h := newHarnessDeps(t, bot.Deps{Now: clock.Now}, withClientAddresses(), withCalendar(nil, nil), withDataset(func(d *recordstest.Dataset) {
				for i := range tt.older {
					d.Meetings = append(d.Meetings, recordstest.Meeting{ID: fmt.Sprintf("OLD-%d", i), Title: "Finance Committee",
						Committee: "Finance", Date: time.Now().AddDate(-3, 0, -i)})
				}
			}))
			ids := slices.Sorted(func(yield func(string) bool) {
				for id := range pagetest.VisibleIDs(h.t, h.data, "") {
					if !yield(id) {
						return
					}
				}
			})
			const readerRequests = 38
			require.NotEmpty(t, ids)

			floodStatus := map[int]int{}
			sent := 0
			flood := func(steps int) {
				for range steps {
					for c := range clients {
						// 3 a step is 60 a second: past the client's rate,
						// so each spends its burst and then all it may.
						for range 3 {
							r := h.fetchAs(fmt.Sprintf("203.0.113.%d", c+1), madeUp(c, sent), nil)
							floodStatus[r.status]++
							sent++
						}
					}
					clock.Advance(50 * time.Millisecond)
				}
			}
			flood(40) // 2 s of flood before the reader comes
			var got []string
			ok := 0
			for i := range readerRequests {
				id := ids[i%len(ids)]
				r := h.fetchAs("198.51.100.7", pagetest.MinutesPath(id), nil)
				got = append(got, fmt.Sprint(r.status))
				if r.status == http.StatusOK {
					ok++
				}
				flood(5)
			}
			t.Logf("flood: %d made-up lookups from %d client(s), answers %v; reader: %d of %d real pages 200 (%d distinct pages): %s",
				sent, clients, floodStatus, ok, readerRequests, min(readerRequests, len(ids)), strings.Join(got, " "))
			assert.Equal(t, readerRequests, ok, "every real page answers 200 during the flood")
			madeUpCalls := 0
			for _, r := range h.records.Requests() {
				if strings.Contains(r.Path, "nope-") {
					madeUpCalls++
				}
			}
			elapsed := time.Duration(40+readerRequests*5) * 50 * time.Millisecond
			t.Logf("records calls naming a made-up ID: %d in %s", madeUpCalls, elapsed)
			assert.LessOrEqual(t, madeUpCalls, 5+int(elapsed.Seconds()+1), "made-up IDs cost at most the unheld budget (a burst of 5, 1 a second)")
			if tt.older == 0 {
				assert.Zero(t, madeUpCalls, "the bot holds the whole list: a made-up ID costs no records call")
			}
			assert.Zero(t, floodStatus[http.StatusInternalServerError], "no made-up lookup is a 500")
		})
	}
}
