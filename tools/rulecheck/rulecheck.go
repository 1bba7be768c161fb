// Package rulecheck keeps each of recordsbot's rules written once, in its
// domain: its test reads the module's non-test Go and fails where a rule
// is restated outside the one place that decides it (who may see, change
// or snooze an action, who is an admin, which actions are still to do,
// their order, which arose at a meeting, what an action's row shows,
// Block Kit's limits, how much an input takes, what kind of conversation
// a request came from, what a Slack ID looks like), and where a comment or a doc tells history (an
// issue number: a comment gives the reason, a doc what is, git the
// history).
// It is run by `go test ./tools/rulecheck` (and so by `go test ./...`).
package rulecheck
