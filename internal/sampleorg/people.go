// Package sampleorg is the sample organisation recordsbot's tests, demo
// and sandbox run against (see [Org]), and its people as Slack members.
// It is data only: package orgsim turns it into records, the fakes
// (recordsfake, slackfake) serve them, and internal/testworld starts the
// tests' world from it.
package sampleorg

import (
	"strings"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// SlackUsers returns the Slack members who are people: the same Slack ID,
// real name and email, and their Handle as the user name. The time zone is
// left empty (the fake's default); set it on the result where it matters.
func SlackUsers(people []recordsfake.Person) []slackfake.User {
	users := make([]slackfake.User, 0, len(people))
	for _, p := range people {
		users = append(users, slackfake.User{ID: p.SlackID, Name: Handle(p), RealName: p.Name, Email: p.Email})
	}
	return users
}

// Handle is a person's Slack handle: their first name in lower case.
func Handle(p recordsfake.Person) string {
	first, _, _ := strings.Cut(strings.TrimSpace(p.Name), " ")
	return strings.ToLower(first)
}
