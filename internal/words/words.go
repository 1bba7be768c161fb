// Package words holds the little rules of English that the bot's messages,
// logs and reports share, so that "1 actions" is fixed in one place.
package words

import "strconv"

// Count says n of something: "1 action", "3 actions". many is spelt out
// because English plurals are not one rule ("1 entry", "2 entries").
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
