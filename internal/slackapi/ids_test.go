package slackapi

import "testing"

func TestIDShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s             string
		user, channel bool
	}{
		{"U012ABCDEF", true, false},
		{"W0ENTERPRISE1", true, false},
		{"C0REPORT", false, true},
		{"G0PRIVATE", false, true},
		{"U", false, false},
		{"alice@example.org", false, false},
		{"#reports", false, false},
		{"U0lower", false, false},
		{"", false, false},
	} {
		if got := IsUserID(tc.s); got != tc.user {
			t.Errorf("IsUserID(%q) = %v, want %v", tc.s, got, tc.user)
		}
		if got := IsChannelID(tc.s); got != tc.channel {
			t.Errorf("IsChannelID(%q) = %v, want %v", tc.s, got, tc.channel)
		}
	}
}
