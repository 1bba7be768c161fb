package bot_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when any goroutine outlives the tests: every
// follow-up the bot promised must have finished, every fake server closed,
// and no keep-alive connection left reading. It covers the internal tests
// of package bot as well, which share this test binary.
//
// No goroutine is ignored. Idle keep-alive connections need no exception:
// closing an httptest server closes its side of them, which ends the
// client's read loop too, and goleak retries for long enough to see that.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
