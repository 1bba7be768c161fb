// Package testworld is the world recordsbot's tests run in: the sample
// organisation (Dataset, from internal/sampleorg), the in-memory records
// service serving it and the fake Slack whose members are its people. Every end-to-end rig (bot's
// harness, fuzz and soak rigs, the load test, cmd's serve and remind tests)
// starts from here rather than copying the set-up; package bot/bottest adds the
// real bot over httptest and a signed sender.
//
// The package imports neither package testing nor package bot, so bot's
// internal tests can use it without an import cycle. Only tests import it:
// the demo builds on sampleorg.
package testworld

import (
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/orgsim"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// TB is the part of testing.TB that Start uses.
type TB interface {
	Helper()
	Cleanup(func())
}

// World is a running records service and Slack stand-in.
type World struct {
	// Data is what Records serves; Users are Slack's members.
	Data    recordstest.Dataset
	Users   []slacktest.User
	Records *recordstest.Server
	Slack   *slacktest.Server
}

// Start serves data from a new records fake, configured further by opts,
// and starts a fake Slack whose members are users (often
// sampleorg.SlackUsers(data.People), with extras). Both are closed when the test
// ends. Like httptest, it panics if it cannot listen on loopback.
func Start(t TB, data recordstest.Dataset, users []slacktest.User, opts ...recordstest.Option) *World {
	t.Helper()
	w := &World{Data: data, Users: users}
	w.Records = recordstest.NewServer(append([]recordstest.Option{recordstest.WithDataset(data)}, opts...)...)
	t.Cleanup(w.Records.Close)
	w.Slack = slacktest.NewServer(slacktest.WithUsers(users...))
	t.Cleanup(w.Slack.Close)
	return w
}

// Dataset returns the tests' organisation, sampleorg.Org, as records at
// now. It is a pure function of now: the same now always gives the same
// records, IDs included. Times are in UTC; date-only deadlines are
// midnight UTC of their day.
func Dataset(now time.Time) recordstest.Dataset {
	return orgsim.Build(sampleorg.Org(), now)
}

// GuestID is the Slack ID of the test world's guest: Erin Evans, who
// volunteers from a partner charity, has actions in the records like
// anyone and is a multi-channel guest in the organisation's Slack.
// sampleorg.SlackUsers leaves everyone a full member (the demo's people share these
// IDs); WithGuest makes her the guest.
const GuestID = "U0ERIN"

// WithGuest returns users with GuestID a multi-channel guest (users.info's
// is_restricted). users is changed in place and returned.
func WithGuest(users []slacktest.User) []slacktest.User {
	for i := range users {
		if users[i].ID == GuestID {
			users[i].Guest = slacktest.MultiChannelGuest
		}
	}
	return users
}
