package slackapi

// IsUserID reports whether s has the form of a Slack member ID: U… or W…
// (Enterprise Grid) followed by capitals and digits. It checks the form
// only: whether the member exists is Slack's to say.
func IsUserID(s string) bool { return idOf(s, 'U', 'W') }

// IsChannelID reports whether s has the form of a public (C…) or private
// (G…) channel's ID.
func IsChannelID(s string) bool { return idOf(s, 'C', 'G') }

// idOf reports whether s is one of the prefixes followed by one or more
// capitals and digits.
func idOf(s string, prefixes ...byte) bool {
	if len(s) < 2 {
		return false
	}
	known := false
	for _, p := range prefixes {
		known = known || s[0] == p
	}
	if !known {
		return false
	}
	for _, r := range s[1:] {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
