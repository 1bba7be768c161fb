package watch_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/demo"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// TestPollCostOnTheDemo measures what one poll costs against the demo
// organisation (every committee followed, the records' default page
// sizes): the baseline poll, then a poll with no news, which must read no
// more than the meetings down to the horizon, the minutes still pending,
// and the active actions once, and call Slack not at all.
//
//	go test ./watch -run TestPollCostOnTheDemo -v
func TestPollCostOnTheDemo(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	data := demo.Dataset(now)
	rs := recordstest.NewServer(recordstest.WithDataset(data))
	t.Cleanup(rs.Close)
	var users []slacktest.User
	for _, p := range data.People {
		users = append(users, slacktest.User{ID: p.SlackID, Name: strings.ToLower(strings.Fields(p.Name)[0]), Email: p.Email})
	}
	ss := slacktest.NewServer(slacktest.WithUsers(users...))
	t.Cleanup(ss.Close)
	st, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	rc, err := apiclient.NewClient(rs.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(ss.APIURL()))
	committees := map[string]bool{}
	for _, m := range data.Meetings {
		committees[m.Committee] = true
	}
	for c := range committees {
		_, err := st.Follow(t.Context(), store.Follow{ChannelID: "C" + strings.ToUpper(strings.ReplaceAll(c, " ", "")), Committee: c, CommitteeKey: strings.ToLower(c)})
		require.NoError(t, err)
	}
	deps := watch.Deps{Store: st, Actions: actions.New(rc, slackusers.Directory(api), actions.Config{CacheTTL: -1}),
		Minutes: minutes.New(rc, minutes.Config{}), Slack: api}

	measure := func(name string) watch.Summary {
		rs.ResetRequests()
		calls := len(ss.Calls(""))
		sum, err := watch.Poll(t.Context(), watch.Config{Owner: "cost"}, deps)
		require.NoError(t, err)
		slackCalls := len(ss.Calls("")) - calls
		t.Logf("%s: %d meetings in the demo, %d committees followed; read %d meetings (%d pages), %d visible minutes (%d minutes requests, 404s included), %d actions (%d requests); %d Slack calls; horizon %s",
			name, len(data.Meetings), len(committees), sum.Meetings, sum.MeetingPages,
			sum.Minutes, countSuffix(rs, "/minutes"), sum.Actions, rs.Count("GET", "/actions"), slackCalls, sum.Horizon.Format(time.DateOnly))
		if name == "steady" {
			assert.Zero(t, slackCalls, "a poll with no news calls Slack not at all")
		}
		return sum
	}
	base := measure("baseline")
	steady := measure("steady")
	assert.Less(t, steady.Meetings, base.Meetings, "after the baseline a poll reads only down to the horizon")
	assert.LessOrEqual(t, steady.Minutes, base.Minutes)
}

// countSuffix counts the GET requests whose path ends in suffix.
func countSuffix(rs *recordstest.Server, suffix string) int {
	n := 0
	for _, r := range rs.Requests() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// recordsCost is one poll's records requests by kind.
type recordsCost struct {
	pages    int // GET /meetings: listing pages
	meetings int // GET /meetings/{id}: a meeting's own record
	minutes  int // GET /meetings/{id}/minutes, 404s included
	actions  int // GET /actions pages of the actions still to do
	complete int // GET /actions pages of the complete actions
}

func (c recordsCost) total() int { return c.pages + c.meetings + c.minutes + c.actions + c.complete }

func (c recordsCost) String() string {
	return fmt.Sprintf("%d calls: %d meetings pages, %d meeting records, %d minutes, %d actions pages, %d complete-actions pages",
		c.total(), c.pages, c.meetings, c.minutes, c.actions, c.complete)
}

// costOf sorts the requests rs received by kind.
func costOf(t *testing.T, rs *recordstest.Server) recordsCost {
	t.Helper()
	var c recordsCost
	for _, r := range rs.Requests() {
		_, rel, ok := strings.Cut(r.Path, "/api/v1")
		require.True(t, ok, r.Path)
		switch {
		case r.Method != "GET":
			t.Fatalf("the watcher wrote to the records: %s %s", r.Method, r.Path)
		case rel == "/meetings":
			c.pages++
		case strings.HasPrefix(rel, "/meetings/") && strings.HasSuffix(rel, "/minutes"):
			c.minutes++
		case strings.HasPrefix(rel, "/meetings/"):
			c.meetings++
		case rel == "/actions" && strings.Contains(r.Query, "complete"):
			c.complete++
		case rel == "/actions":
			c.actions++
		default:
			t.Fatalf("unexpected records request %s %s", r.Method, r.Path)
		}
	}
	return c
}

// TestDigestAndBriefCost measures what digests and briefs add to a poll's
// records traffic with N committees followed, each in two channels, in
// an organisation of 20 committees: a quiet poll, the poll at which every
// followed committee's brief falls due, the poll of the first digests,
// and a week later the digests with changes. Digests read nothing beyond
// the poll's shared list of actions but, when some action left the list,
// one read of the complete actions for the whole poll; briefs read each
// meeting briefed once a poll (its agenda) until it starts, whatever the
// channels, and nothing else: the meetings pages and the list are the
// poll's own.
//
//	go test ./watch -run TestDigestAndBriefCost -v
func TestDigestAndBriefCost(t *testing.T) {
	t.Parallel()
	const committees = 20
	for _, n := range []int{1, 5, 20} {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			t.Parallel()
			env := newCommitteesEnv(t, engines[0], committees)
			w := env.watcher("cost", mondayDigests)
			env.followCommittees(w, n, "C0BOARD", "C0STAFF")

			poll := func(name string, at time.Time) (watch.Summary, recordsCost) {
				env.clock.Set(at)
				env.records.ResetRequests()
				sum := env.mustPoll(w)
				c := costOf(t, env.records)
				t.Logf("N=%d %-24s %s (%d digests, %d briefs)", n, name+":", c, sum.Digests, sum.Briefs)
				return sum, c
			}
			quiet, qc := poll("quiet", committeesMonday.Add(10*time.Minute))
			require.Zero(t, quiet.Digests+quiet.Briefs)
			assert.Zero(t, qc.minutes, "no minutes read of meetings still to come")

			briefs, bc := poll("briefs due", committeesMonday.Add(31*time.Minute))
			assert.Equal(t, 2*n, briefs.Briefs)
			assert.Zero(t, briefs.Digests)
			assert.Equal(t, n, bc.meetings, "one read of each meeting briefed, not one per channel")
			bc.meetings = 0
			assert.Equal(t, qc, bc, "briefs read nothing else")

			// Until its meeting starts, a brief that is out is drawn again
			// each poll (kept up to date in place): one read of each
			// meeting briefed, and nothing else.
			digests, dc := poll("digests due", committeesMonday.Add(time.Hour))
			assert.Equal(t, 2*n, digests.Digests)
			assert.Zero(t, digests.Briefs+digests.BriefsUpdated, "briefed already, and up to date")
			assert.Equal(t, n, dc.meetings, "each brief's meeting read once, to keep it up to date")
			dc.meetings = 0
			assert.Equal(t, qc, dc, "the first digests read nothing beyond the poll's list")

			_, qc2 := poll("quiet after", committeesMonday.Add(65*time.Minute))
			assert.Equal(t, n, qc2.meetings)
			qc2.meetings = 0
			assert.Equal(t, qc, qc2)

			// A week on, every followed committee's first action is done:
			// the digests list it as completed, from one read for the poll.
			all := env.records.Actions()
			for i := range all {
				if strings.HasSuffix(all[i].ID, "-1") {
					all[i].Status = "complete"
				}
			}
			env.records.SetActions(all)
			nextWeek := committeesMonday.AddDate(0, 0, 7)
			_, wqc := poll("quiet, a week on", nextWeek.Add(-time.Hour))
			changed, cc := poll("digests with changes", nextWeek.Add(time.Hour))
			assert.Equal(t, 2*n, changed.Digests)
			assert.Equal(t, 1, cc.complete, "the complete actions read once for the poll")
			cc.complete = 0
			assert.Equal(t, wqc, cc, "nothing else")
			assert.Contains(t, env.posts("C0BOARD")[len(env.posts("C0BOARD"))-1].text, "Circulate the papers")
		})
	}
}
