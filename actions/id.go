package actions

import "unicode"

// maxIDLen is the longest action ID IsID accepts, in bytes.
const maxIDLen = 100

// IsID reports whether s can be an action's ID, as /actions history asks
// for one: 1 to 100 bytes of letters, digits and - _ . / : (the records
// service's meeting and row identifiers: "42", "act_7", "FIN-2026-10/1"),
// starting with a letter or a digit. A mention, a channel, a formula or a
// sentence is not one, and is refused before anything is looked up.
func IsID(s string) bool {
	if s == "" || len(s) > maxIDLen {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case i > 0 && (r == '-' || r == '_' || r == '.' || r == '/' || r == ':'):
		default:
			return false
		}
	}
	return true
}
