package watch_test

import (
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
	deps := watch.Deps{Store: st, Records: rc, Actions: actions.New(rc, api, actions.Config{CacheTTL: -1}),
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
