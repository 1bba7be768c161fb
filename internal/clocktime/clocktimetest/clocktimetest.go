// Package clocktimetest reads the weekly slots tests write as text
// ("mon 09:00", "off"). Tests only: nothing in the binary imports it.
package clocktimetest

import (
	"testing"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

// Weekly is clocktime.ParseWeekly(s), failing t when s does not parse; a
// pointer, as the store and the follow rules take a chosen slot.
func Weekly(t testing.TB, s string) *clocktime.Weekly {
	t.Helper()
	w, err := clocktime.ParseWeekly(s)
	if err != nil {
		t.Fatalf("weekly slot %q: %v", s, err)
	}
	return &w
}
