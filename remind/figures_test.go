package remind_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/store"
)

// TestRemindFigures runs the reminder plan against the tiered fake Slack
// for an organisation of n people, each with a due action, and prints the
// calls per method and the projected real-Slack minutes against the floor
// (what the chat.postMessage calls alone cost at the workspace ceiling).
// It checks the targets: projected within 1.25× the floor, no 429 in a run
// paced against the tiers, no duplicate after a rerun or after a restart
// in the middle of a run. By default it runs 200 people; the README's
// figures come from
//
//	RECORDSBOT_REMIND_FIGURES=1000,10000 RECORDSBOT_REMIND_SPEED=30 go test ./remind -run TestRemindFigures -v -count=1 -timeout 20m
//
// Slack time runs 100 times faster than real time (a minute in 600 ms);
// RECORDSBOT_REMIND_SPEED changes that. With RECORDSBOT_REMIND_FIGURES the
// run's own length in Slack time is checked too, which needs a speed the
// machine can keep up with: 30 for 10,000 people on two cores.
func TestRemindFigures(t *testing.T) {
	sizes := []int{200}
	if s := os.Getenv("RECORDSBOT_REMIND_FIGURES"); s != "" {
		sizes = nil
		for f := range strings.SplitSeq(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			require.NoError(t, err, "RECORDSBOT_REMIND_FIGURES")
			sizes = append(sizes, n)
		}
	}
	speed := 100.0
	if s := os.Getenv("RECORDSBOT_REMIND_SPEED"); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, "RECORDSBOT_REMIND_SPEED")
		speed = f
	}
	for _, n := range sizes {
		t.Run(fmt.Sprintf("people=%d", n), func(t *testing.T) { remindFigures(t, n, speed, os.Getenv("RECORDSBOT_REMIND_FIGURES") != "") })
	}
}

func remindFigures(t *testing.T, n int, speed float64, strict bool) {
	var people []slacktest.User
	for i := range n {
		people = append(people, person(i, "Europe/London"))
	}
	now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
	deadline := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)

	// A clean run, then a rerun the same day. The run reads everyone's
	// choices from the store: one in ten snoozed their action
	// until Friday, one in twenty is away until Thursday; they get no
	// reminder today, everyone else one.
	e := newTierEnv(t, people, nil, deadline, speed)
	steered := 0
	for i, p := range people {
		switch {
		case i%10 == 1:
			require.NoError(t, e.st.Snooze(t.Context(), p.ID, "T-"+p.ID, "2026-11-20"))
		case i%20 == 2:
			require.NoError(t, e.st.SetAway(t.Context(), p.ID, "2026-11-19"))
		default:
			continue
		}
		steered++
	}
	start := e.clock.Now()
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now}, e.deps(remind.StoreSettings(e.st, store.Defaults{})))
	slackTime := e.clock.Now().Sub(start)
	require.NoError(t, err)
	require.Equal(t, n-steered, sum.Reminded, "the snoozed and the away are not reminded")
	t.Logf("%d people: %d snoozed their action or are away, read from the store by the same run", n, steered)
	r := e.fake.TierReport()
	ratio := float64(r.Projected) / float64(r.PostFloor)
	t.Logf("%d people: calls %s; 429s %d; projected %.1f min (bottleneck %s), floor %.1f min, %.2f× the floor; "+
		"the run took %.1f min of Slack time; per-channel spacing %s",
		n, calls(r.Calls), sum429(r.Limited), r.Projected.Minutes(), r.Bottleneck, r.PostFloor.Minutes(), ratio,
		slackTime.Minutes(), r.ChannelSpacing)
	assert.LessOrEqual(t, ratio, 1.25, "projected within 1.25× the floor")
	assert.Zero(t, sum429(r.Limited), "no 429 in a paced run")
	if strict {
		// How long the run took depends on the machine keeping up with
		// the compressed clock, so it is checked only when asked for.
		assert.LessOrEqual(t, slackTime.Minutes(), 1.25*r.PostFloor.Minutes()+1, "the run itself keeps to the plan")
	}

	again, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Hour)}, e.deps(remind.StoreSettings(e.st, store.Defaults{})))
	require.NoError(t, err)
	assert.Equal(t, n-steered, again.Skipped)
	dupRerun := duplicates(e)
	t.Logf("rerun the same day: %d skipped, %d duplicates", again.Skipped, dupRerun)
	assert.Zero(t, dupRerun)

	// A run killed half-way, restarted at once and again an hour later.
	e = newTierEnv(t, people, nil, deadline, speed)
	ctx, kill := context.WithCancel(t.Context())
	go func() {
		_ = e.fake.Wait(ctx, func() bool { return len(e.fake.Calls("chat.postMessage")) >= n/2 })
		kill()
	}()
	_, _ = remind.Run(ctx, remind.Config{Days: 3, Now: now, Owner: "killed"}, e.deps(nil))
	killedAt := len(e.fake.Messages(""))
	_, err = remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Minute), Owner: "restart"}, e.deps(nil))
	require.NoError(t, err)
	e.advance(time.Hour)
	_, err = remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Hour), Owner: "next hour"}, e.deps(nil))
	require.NoError(t, err)
	dupRestart := duplicates(e)
	t.Logf("killed after %d posts, restarted: %d people reminded, %d duplicates", killedAt, len(e.dms()), dupRestart)
	assert.Len(t, e.dms(), n)
	assert.Zero(t, dupRestart)
}

// duplicates counts reminders beyond the first in any DM.
func duplicates(e *tierEnv) int {
	d := 0
	for _, k := range e.dms() {
		d += k - 1
	}
	return d
}

func calls(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func sum429(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
