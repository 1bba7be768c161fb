package actions_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
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

type env struct {
	w   *testworld.World
	svc *actions.Service
	rc  *apiclient.Client
	api *slack.Client
}

func newEnv(t *testing.T, cfg actions.Config) env {
	t.Helper()
	data := testworld.Dataset(time.Now())
	w := testworld.Start(t, data, sampleorg.SlackUsers(data.People))
	rc, err := apiclient.NewClient(w.Records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))
	return env{w: w, svc: actions.New(rc, slackusers.Directory(api), cfg), rc: rc, api: api}
}

func (e env) person(first string) recordstest.Person {
	for _, p := range e.w.Data.People {
		if strings.HasPrefix(strings.ToLower(p.Name), first) {
			return p
		}
	}
	panic("no " + first)
}

func (e env) openOf(p recordstest.Person) recordstest.Action {
	for _, a := range e.w.Records.Actions() {
		if strings.EqualFold(a.AssigneeEmail, p.Email) && a.Status == "open" {
			return a
		}
	}
	panic("no open action")
}

// The one rule: the assignee or an admin, nobody else, and nothing is
// sent for a refused change.
func TestSetStatusRule(t *testing.T) {
	t.Parallel()
	e := newEnv(t, actions.Config{Admins: []string{"U0ADMIN"}})
	alice, bob := e.person("alice"), e.person("bob")
	a := e.openOf(alice)

	_, oc, err := e.svc.SetStatus(t.Context(), bob.SlackID, a.ID, apiclient.StatusComplete)
	require.NoError(t, err)
	assert.Equal(t, actions.Forbidden, oc)
	assert.Zero(t, e.w.Records.Count(http.MethodPut, "/"))

	got, oc, err := e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusInProgress)
	require.NoError(t, err)
	assert.Equal(t, actions.Changed, oc)
	assert.Equal(t, a.Title, got.Title)

	// An admin Slack does not know (user_not_found) holds no powers.
	_, oc, err = e.svc.SetStatus(t.Context(), "U0ADMIN", a.ID, apiclient.StatusComplete)
	require.ErrorIs(t, err, actions.ErrProfileLookup)
	assert.Equal(t, actions.Gone, oc)
	assert.Equal(t, 1, e.w.Records.Count(http.MethodPut, "/"), "only Alice's change was sent")
	e.w.Slack.AddUser(slacktest.User{ID: "U0ADMIN", Name: "admin", Email: "admin@example.org"})
	_, oc, err = e.svc.SetStatus(t.Context(), "U0ADMIN", a.ID, apiclient.StatusComplete)
	require.NoError(t, err)
	assert.Equal(t, actions.Changed, oc, "an admin may change anyone's")
	_, oc, _ = e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusComplete)
	assert.Equal(t, actions.Unchanged, oc)
	_, oc, _ = e.svc.SetStatus(t.Context(), alice.SlackID, "no-such-action", apiclient.StatusComplete)
	assert.Equal(t, actions.Gone, oc)
}

// A double click sends one PUT.
func TestSetStatusCollapsesIdenticalChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t, actions.Config{})
	alice := e.person("alice")
	a := e.openOf(alice)
	e.w.Records.InjectFault(recordstest.Fault{Method: http.MethodPut, Latency: 200 * time.Millisecond, Times: 1})
	var wg sync.WaitGroup
	outcomes := make(chan actions.Outcome, 3)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, oc, err := e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusComplete)
			assert.NoError(t, err)
			outcomes <- oc
		}()
	}
	wg.Wait()
	close(outcomes)
	changed := 0
	for oc := range outcomes {
		if oc == actions.Changed {
			changed++
		}
	}
	assert.Equal(t, 1, changed)
	assert.Equal(t, 1, e.w.Records.Count(http.MethodPut, "/"))
}

// The shared list holds the actions still to do, fetched by status; the
// other statuses come on demand; a change moves the action between them
// without another fetch.
func TestSharedListIsTheActiveSet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, actions.Config{CacheTTL: time.Hour})
	alice := e.person("alice")
	a := e.openOf(alice)

	l, err := e.svc.List(t.Context(), "")
	require.NoError(t, err)
	for _, x := range l.Actions {
		assert.True(t, actions.StillToDo(x.Status), "%s is %s", x.ID, x.Status)
	}
	var statuses []string
	for _, r := range e.w.Records.Requests() {
		q, _ := url.ParseQuery(r.Query)
		statuses = append(statuses, q.Get("status"))
	}
	assert.ElementsMatch(t, []string{"open", "in_progress"}, statuses, "fetched by status, nothing else")

	done, err := e.svc.List(t.Context(), apiclient.StatusComplete)
	require.NoError(t, err)
	before := e.w.Records.Count(http.MethodGet, "/actions")
	_, oc, err := e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusComplete)
	require.NoError(t, err)
	require.Equal(t, actions.Changed, oc)
	l, _ = e.svc.List(t.Context(), "")
	done2, _ := e.svc.List(t.Context(), apiclient.StatusComplete)
	assert.NotContains(t, ids(l), a.ID, "left the active list")
	assert.Contains(t, ids(done2), a.ID, "joined the complete list")
	assert.Len(t, done2.Actions, len(done.Actions)+1)
	assert.Equal(t, before, e.w.Records.Count(http.MethodGet, "/actions"), "no fetch for that")
}

// Caches says whether the list is cached: by default and with a TTL yes,
// with the cache off (a negative TTL, ACTIONS_CACHE_TTL=0) no, and
// ListCached never has a list then.
func TestCaches(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		ttl  time.Duration
		want bool
	}{
		{"default", 0, true},
		{"an hour", time.Hour, true},
		{"off", -1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, actions.Config{CacheTTL: tt.ttl})
			assert.Equal(t, tt.want, e.svc.Caches())
			_, err := e.svc.List(t.Context(), "")
			require.NoError(t, err)
			_, listed := e.svc.ListCached("")
			assert.Equal(t, tt.want, listed, "a list just read is cached only when the cache is on")
		})
	}
}

func ids(l *apiclient.ActionList) []string {
	var out []string
	for _, a := range l.Actions {
		out = append(out, a.ID)
	}
	return out
}

// The index (and, with the cache off, the walk) finds exactly the actions
// the one rule (Member.Owns) gives, for every person, by email, Slack ID
// or USER_MAP alias.
func TestAssignedMatchesOwns(t *testing.T) {
	t.Parallel()
	for name, ttl := range map[string]time.Duration{"index": 0, "walk without the cache": -1} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testAssignedMatchesOwns(t, ttl)
		})
	}
}

func testAssignedMatchesOwns(t *testing.T, ttl time.Duration) {
	e := newEnv(t, actions.Config{UserMap: actions.NewUserMap(map[string]string{"Bob Brown": "U0ALIAS"}), CacheTTL: ttl})
	list, err := e.svc.List(t.Context(), "")
	require.NoError(t, err)
	ids := []string{"U0ALIAS", "U0NOBODY"}
	for _, p := range e.w.Data.People {
		ids = append(ids, p.SlackID)
	}
	for _, id := range ids {
		m, _ := e.svc.Who(t.Context(), id)
		var want []string
		for i := range list.Actions {
			if m.Owns(list.Actions[i].Assignee) {
				want = append(want, list.Actions[i].ID)
			}
		}
		var got []string
		for _, a := range e.svc.Assigned(list, m) {
			got = append(got, a.ID)
		}
		assert.Equal(t, want, got, "%s", id)
	}
}

// A Reopen (or Undo) soon after the bot finished an action finds it among
// the actions the bot finished, without reading that status's history; an
// action finished elsewhere is still found, in the finished list.
func TestReopenSoonAfterReadsNoHistory(t *testing.T) {
	t.Parallel()
	e := newEnv(t, actions.Config{})
	alice, bob := e.person("alice"), e.person("bob")
	historyReads := func() int {
		n := 0
		for _, r := range e.w.Records.Requests() {
			q, _ := url.ParseQuery(r.Query)
			if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/actions") && !actions.StillToDo(apiclient.Status(q.Get("status"))) {
				n++
			}
		}
		return n
	}

	// Finished in the records service's own UI: found in the list of its
	// status.
	b := e.openOf(bob)
	all := e.w.Records.Actions()
	for i := range all {
		if all[i].ID == b.ID {
			all[i].Status = "cancelled"
		}
	}
	e.w.Records.SetActions(all)
	_, oc, err := e.svc.SetStatus(t.Context(), bob.SlackID, b.ID, apiclient.StatusOpen)
	require.NoError(t, err)
	assert.Equal(t, actions.Changed, oc)
	before := historyReads()
	assert.Positive(t, before, "an action finished elsewhere is looked for among the finished")

	// Finished through the bot, then reopened, with no finished list
	// cached (a fresh service): no history is read.
	e.svc = actions.New(e.rc, slackusers.Directory(e.api), actions.Config{})
	a := e.openOf(alice)
	_, oc, err = e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusComplete)
	require.NoError(t, err)
	require.Equal(t, actions.Changed, oc)
	got, oc, err := e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusOpen)
	require.NoError(t, err)
	assert.Equal(t, actions.Changed, oc)
	assert.Equal(t, a.Title, got.Title)
	assert.Equal(t, before, historyReads(), "the reopen read no finished list")
	st, _ := e.w.Records.Action(a.ID)
	assert.Equal(t, "open", st.Status)

	// The rule still holds for an action found this way.
	_, _, err = e.svc.SetStatus(t.Context(), alice.SlackID, a.ID, apiclient.StatusDeferred)
	require.NoError(t, err)
	_, oc, err = e.svc.SetStatus(t.Context(), bob.SlackID, a.ID, apiclient.StatusOpen)
	require.NoError(t, err)
	assert.Equal(t, actions.Forbidden, oc)
	assert.Equal(t, before, historyReads())
}

// barrierRecords lets no list read through until want reads are under
// way at once (or a few seconds passed, when it fails them).
type barrierRecords struct {
	actions.Records
	want    int32
	arrived atomic.Int32
	all     chan struct{}
}

func (b *barrierRecords) ListActions(ctx context.Context, opts *apiclient.ListActionsOptions) (*apiclient.ActionList, error) {
	if b.arrived.Add(1) == b.want {
		close(b.all)
	}
	select {
	case <-b.all:
		return b.Records.ListActions(ctx, opts)
	case <-time.After(5 * time.Second):
		return nil, errors.New("the statuses were read one after the other")
	}
}

// A command that reads the actions still to do (the cache off, or cold)
// waits for one records call, not one per status: they are read at once.
func TestListReadsTheStatusesAtOnce(t *testing.T) {
	t.Parallel()
	for _, ttl := range []time.Duration{-1, time.Hour} {
		e := newEnv(t, actions.Config{})
		b := &barrierRecords{Records: e.rc, want: 2, all: make(chan struct{})}
		svc := actions.New(b, slackusers.Directory(e.api), actions.Config{CacheTTL: ttl})
		l, err := svc.List(t.Context(), "")
		require.NoError(t, err)
		assert.NotEmpty(t, l.Actions)
	}
}
