// Package rulecheck keeps each of recordsbot's rules written once, in its
// domain: its test reads the module's non-test Go and fails where a rule
// is restated outside the one place that decides it (who may see, change
// or snooze an action, who is an admin, which actions are still to do,
// their order, what an action's row shows, Block Kit's limits, how much
// an input takes), and where a comment tells history (an issue number:
// the reason belongs in the comment, the history in git).
// It is run by `go test ./tools/rulecheck` (and so by `go test ./...`).
package rulecheck
