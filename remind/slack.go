package remind

import (
	"log/slog"

	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// Clock is the reminder job's time: what it reads and how it waits. The
// job paces its Slack calls by it (slackapi.Pacer), so a test can compress
// Slack's minutes (slacktest.ScaledClock implements it).
type Clock = slackapi.Clock

// newPacer is the job's Slack pacer: every method to its tier and posts to
// one channel a second (slackapi.Pacer, the pacing the watcher's posts go
// through too), with remindRetries tries after a 429. The job counts no
// metrics: it is a one-shot process nobody scrapes, and what it did is its
// summary line (Summary.String) and its logs.
func newPacer(clock Clock, log *slog.Logger) *slackapi.Pacer {
	return slackapi.NewPacer(slackapi.PacerOptions{Clock: clock, Log: log, Retries: remindRetries})
}
