package actions_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

// A JSON:API service names an action's meeting only as a relationship.
// The shared list fills in each meeting's title from the meeting itself,
// reading each meeting once an hour however often the list is refreshed; a
// meeting that is gone leaves its actions' rows showing its ID, and is not
// asked for again within the hour either.
func TestMeetingTitlesFilledInWhenTheServiceLeavesThemOut(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Now())
	gone := data.Actions[0]
	gone.ID, gone.MeetingID, gone.Status = "GONE-1", "mtg_deleted", "open"
	data.Actions = append(data.Actions, gone)
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People), recordstest.WithDialect(recordstest.JSONAPI))
	rc, err := apiclient.NewClient(w.Records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	svc := actions.New(rc, slackusers.Directory(slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))),
		actions.Config{CacheTTL: time.Second, Now: clock})

	titles := map[string]string{}
	for _, m := range data.Meetings {
		titles[m.ID] = m.Title
	}
	distinct := map[string]bool{}
	check := func() {
		t.Helper()
		list, err := svc.List(t.Context(), "")
		require.NoError(t, err)
		require.NotEmpty(t, list.Actions)
		for _, a := range list.Actions {
			if a.MeetingID == "mtg_deleted" || a.MeetingID == "" {
				assert.Empty(t, a.MeetingTitle, "a meeting that is gone, or none, has no title")
				continue
			}
			distinct[a.MeetingID] = true
			assert.Equal(t, titles[a.MeetingID], a.MeetingTitle, "action %s", a.ID)
		}
	}
	meetingReads := func() int { return w.Records.Count(http.MethodGet, "/meetings/") }

	check()
	reads := meetingReads()
	assert.Equal(t, len(distinct)+1, reads, "one read per distinct meeting, the gone one included")

	// The list is refreshed (its TTL is a second); the titles are not.
	advance(3 * time.Second)
	check()
	svc.Wait()
	check()
	assert.Equal(t, reads, meetingReads(), "no meeting is read again within the hour")

	advance(time.Hour + time.Second)
	check()
	svc.Wait()
	check()
	assert.Equal(t, 2*reads, meetingReads(), "after an hour each meeting is read once more")
}

// A meetings endpoint that hangs does not hold up the list: after the
// title budget the list comes without those titles (rows show the IDs),
// and a later refresh fills them in once the endpoint answers.
func TestSlowMeetingsDoNotHoldUpTheList(t *testing.T) {
	t.Parallel()
	data := testworld.Dataset(time.Now())
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People), recordstest.WithDialect(recordstest.JSONAPI))
	w.Records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/meetings/", Latency: time.Minute})
	rc, err := apiclient.NewClient(w.Records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	svc := actions.New(rc, slackusers.Directory(slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))), actions.Config{CacheTTL: -1})

	start := time.Now()
	list, err := svc.List(t.Context(), "")
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 5*time.Second, "the list is not held up by the meetings")
	require.NotEmpty(t, list.Actions)
	for _, a := range list.Actions {
		assert.Empty(t, a.MeetingTitle, "no title yet for %s", a.ID)
	}

	w.Records.ClearFaults()
	list, err = svc.List(t.Context(), "")
	require.NoError(t, err)
	for _, a := range list.Actions {
		if a.MeetingID != "" {
			assert.NotEmpty(t, a.MeetingTitle, "%s's title, once the meetings answer", a.ID)
		}
	}
}
