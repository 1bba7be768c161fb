package watch_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// TestPollKeepsToTheChannelRate: a poll that owes one channel the digests
// and the briefs of eight committees posts them one a second, as Slack
// allows a channel ("1 per second", rate-limits page), through the pacer
// the reminders use; the fake Slack, which answers a channel's burst with
// 429, never has to. With the same eight committees followed in three
// channels, each channel keeps to its own second and the workspace-wide
// ceiling holds. Slack's time runs 20 times faster than the test's.
//
//	go test ./watch -run TestPollKeepsToTheChannelRate -v
func TestPollKeepsToTheChannelRate(t *testing.T) {
	t.Parallel()
	const committees = 8
	for _, tc := range []struct {
		name     string
		channels []string
	}{
		{"one channel", []string{"C0BOARD"}},
		{"three channels", []string{"C0BOARD", "C0STAFF", "C0TRUSTEES"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			slackClock := slacktest.NewScaledClock(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), 20)
			env := newCommitteesEnv(t, engines[0], committees, slacktest.WithTiers(), slacktest.WithClock(slackClock.Now))
			w := env.watcher("w1", mondayDigests)
			w.deps.Pacer = slackapi.NewPacer(slackapi.PacerOptions{Clock: slackClock})
			env.followCommittees(w, committees, tc.channels...)

			env.clock.Set(committeesMonday.Add(time.Hour)) // 09:00: every digest and brief is due
			sum := env.mustPoll(w)
			assert.Equal(t, committees*len(tc.channels), sum.Digests, "%s", sum)
			assert.Equal(t, committees*len(tc.channels), sum.Briefs, "%s", sum)

			report := env.slack.TierReport()
			assert.Empty(t, report.Limited, "paced by design: Slack never had to answer 429")
			perChannel := map[string][]time.Time{}
			for _, c := range env.slack.Calls("chat.postMessage") {
				require.NotEqual(t, http.StatusTooManyRequests, c.Status, "a post to %s was refused", channelOf(c))
				perChannel[channelOf(c)] = append(perChannel[channelOf(c)], c.At)
			}
			require.Len(t, perChannel, len(tc.channels))
			for ch, at := range perChannel {
				require.Len(t, at, 2*committees, ch)
				// The pacer starts the posts a second apart
				// (TestPacerSpacing); each arrives after some of the
				// test's latency, 20 times longer in Slack's time (the
				// first, on a new connection, most), so the span is
				// checked, with two seconds for that, not each gap.
				span := at[len(at)-1].Sub(at[0])
				assert.GreaterOrEqual(t, span, time.Duration(len(at)-3)*time.Second,
					"%d posts to %s within %s: faster than one a second", len(at), ch, span)
				t.Logf("%s: %d posts over %s of Slack time", ch, len(at), span.Round(100*time.Millisecond))
			}
		})
	}
}
