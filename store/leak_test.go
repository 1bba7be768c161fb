package store

import (
	"testing"

	"go.uber.org/goleak"
)

// Close must release every connection and goroutine of both engines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
