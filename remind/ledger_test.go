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

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
)

// memLedger is an in-memory remind.Ledger with the semantics the store
// implements: a claim is the owner's until its lease runs out on the
// ledger's clock, Done is for ever, Release forgets. Like a real store it
// refuses work on a cancelled context, so a killed run leaves its claims
// behind.
type memLedger struct {
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*ledgerEntry
	claims  int
	skew    time.Duration // added to now: see advance
}

// advance moves the ledger's clock on by d, as the time between two
// hourly runs passes.
func (l *memLedger) advance(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.skew += d
}

type ledgerEntry struct {
	owner  string
	until  time.Time
	done   bool
	result string
}

func newMemLedger(now func() time.Time) *memLedger {
	return &memLedger{now: now, entries: map[string]*ledgerEntry{}}
}

func (l *memLedger) Claim(ctx context.Context, key, owner string, lease time.Duration) (remind.ClaimResult, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.claims++
	e := l.entries[key]
	now := l.now().Add(l.skew)
	switch {
	case e == nil:
		l.entries[key] = &ledgerEntry{owner: owner, until: now.Add(lease)}
		return remind.ClaimNew, nil
	case e.done:
		return remind.ClaimDone, nil
	case e.owner != owner && now.Before(e.until):
		return remind.ClaimBusy, nil
	default:
		e.owner, e.until = owner, now.Add(lease)
		return remind.ClaimExpired, nil
	}
}

func (l *memLedger) Done(ctx context.Context, key, owner, result string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[key]
	if e == nil || e.owner != owner {
		return fmt.Errorf("done %s: not held by %s", key, owner)
	}
	e.done, e.result = true, result
	return nil
}

func (l *memLedger) Release(ctx context.Context, key, owner string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.entries[key]; e != nil && e.owner == owner && !e.done {
		delete(l.entries, key)
	}
	return nil
}

// tierEnv is an organisation of people against the fake Slack with tiers
// on, on a clock running factor times faster than real time that the job
// and the fake share.
type tierEnv struct {
	t       testing.TB
	clock   *slacktest.ScaledClock
	fake    *slacktest.Server
	records *recordstest.Server
	people  []slacktest.User
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
	return e
}

// deps are the job's collaborators against the env, with ledger (nil for
// none).
func (e *tierEnv) deps(ledger remind.Ledger, settings remind.Settings) remind.Deps {
	rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey)
	require.NoError(e.t, err)
	log := slog.New(slog.DiscardHandler)
	if t, ok := e.t.(*testing.T); ok && len(e.people) <= 50 {
		log = testLogger(t)
	}
	return remind.Deps{
		Records:  rc,
		Slack:    slack.New(slacktest.DefaultToken, slack.OptionAPIURL(e.fake.APIURL())),
		Ledger:   ledger,
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
