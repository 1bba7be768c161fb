package apiclient

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a goroutine outlives the tests: a retry timer
// or a connection left reading after its test server closed would be a
// client that leaks under failures.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
