package remind_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/store/storetest"
)

// The reminder job's exactly-once tests run on the real ledger of each
// store engine (storetest), as the watcher's do.
type engine = storetest.Engine

var (
	engines    = storetest.Engines
	eachEngine = storetest.EachEngine
)

// tierEnv is an organisation of people against the fake Slack with tiers
// on, on a clock running factor times faster than real time that the job
// and the fake share.
type tierEnv struct {
	t     testing.TB
	clock *slacktest.ScaledClock
	url   string // DATABASE_URL of the env's store
	st    *store.Store

	mu      sync.Mutex
	skew    time.Duration // added to the store's clock: see advance
	fake    *slacktest.Server
	records *recordstest.Server
	people  []slacktest.User
	// org is the action domain's configuration: the organisation's zone
	// and USER_MAP, which the job reads from the one actions.Service.
	org actions.Config
}

// person makes the i-th member: an ID, an email and a zone.
func person(i int, tz string) slacktest.User {
	return slacktest.User{ID: fmt.Sprintf("U%07d", i), Name: fmt.Sprintf("member%d", i),
		RealName: fmt.Sprintf("Member %d", i), Email: fmt.Sprintf("member%d@example.org", i), TZ: tz}
}

// newTierEnv starts the records with one date-only action per person due
// on deadline, and the tiered fake Slack holding them. Ghosts have actions
// but are not in Slack.
func newTierEnv(t testing.TB, people, ghosts []slacktest.User, deadline time.Time, factor float64, opts ...slacktest.Option) *tierEnv {
	t.Helper()
	return newTierEnvOn(t, engines[0], people, ghosts, deadline, factor, opts...)
}

// newTierEnvOn is newTierEnv with its store on engine eng.
func newTierEnvOn(t testing.TB, eng engine, people, ghosts []slacktest.User, deadline time.Time, factor float64, opts ...slacktest.Option) *tierEnv {
	t.Helper()
	var data recordstest.Dataset
	for _, u := range append(slices.Clone(people), ghosts...) {
		data.Actions = append(data.Actions, recordstest.Action{
			ID: "T-" + u.ID, Title: "Follow up for " + u.RealName, Status: "open",
			AssigneeName: u.RealName, AssigneeEmail: u.Email, Deadline: deadline, DateOnly: true,
		})
	}
	e := &tierEnv{t: t, people: people, clock: slacktest.NewScaledClock(time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC), factor)}
	e.records = recordstest.NewServer(recordstest.WithDataset(data), recordstest.WithPageSize(1000))
	t.Cleanup(e.records.Close)
	e.fake = slacktest.NewServer(append([]slacktest.Option{slacktest.WithUsers(people...), slacktest.WithTiers(),
		slacktest.WithClock(e.clock.Now)}, opts...)...)
	t.Cleanup(e.fake.Close)
	e.url = eng.NewURL(t)
	e.st = e.store()
	return e
}

// store opens another Store on the env's database, as another run or
// replica would, on the env's clock.
func (e *tierEnv) store() *store.Store {
	e.t.Helper()
	st, err := store.Open(context.Background(), e.url, store.WithClock(func() time.Time {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.clock.Now().Add(e.skew)
	}))
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = st.Close() })
	return st
}

// advance moves the store's clock on by d, as the time between two
// hourly runs passes, so that the leases of a killed run lapse.
func (e *tierEnv) advance(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.skew += d
}

// deps are the job's collaborators against the env, with its store.
func (e *tierEnv) deps(settings remind.Settings) remind.Deps {
	rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey)
	require.NoError(e.t, err)
	log := slog.New(slog.DiscardHandler)
	if t, ok := e.t.(*testing.T); ok && len(e.people) <= 50 {
		log = testlog.New(t)
	}
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(e.fake.APIURL()))
	return remind.Deps{
		Actions:  actions.New(rc, slackusers.Directory(api), e.org),
		Slack:    api,
		Store:    e.st,
		Settings: settings,
		Clock:    e.clock,
		Logger:   log,
	}
}

// dms counts the reminders each member has in their DM.
func (e *tierEnv) dms() map[string]int {
	out := map[string]int{}
	for _, m := range e.fake.Messages("") {
		out[m.Channel]++
	}
	return out
}

// limited counts the calls Slack answered 429.
func (e *tierEnv) limited() int {
	n := 0
	for _, c := range e.fake.Calls("") {
		if c.Status == http.StatusTooManyRequests {
			n++
		}
	}
	return n
}

// settingsFunc is a remind.Settings from a function.
type settingsFunc func(userID string) remind.Preferences

func (f settingsFunc) ReminderPreferences(_ context.Context, userID string) (remind.Preferences, error) {
	return f(userID), nil
}
