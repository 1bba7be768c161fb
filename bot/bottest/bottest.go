// Package bottest starts the real bot, as package bot exports it, over
// httptest against a testworld.World, with a sender that signs requests as
// Slack does. It sits beside bot as net/http/httptest sits beside
// net/http: a rig above the package it starts, so nothing under internal/
// imports bot. It is apart from package testworld (the fakes and the
// dataset) because it imports bot, which bot's own internal tests cannot
// do.
package bottest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/wire"
)

// Bot is the real bot serving over httptest.
type Bot struct {
	Server *bot.Server
	HTTP   *httptest.Server
	// Send speaks for Slack to the bot, signing with cfg.SigningSecret.
	Send *slacktest.Sender
}

// Services builds the clients and domains through wire.New, as serve
// builds them from its settings, over w: where cfg leaves them empty, the
// records URL and key are w's records service's (recordstest.DefaultKey)
// and the Slack API URL and token w's Slack's; each domain's clock is now
// unless cfg sets one (nil: time.Now).
func Services(t testing.TB, w *testworld.World, cfg wire.Config, now func() time.Time) *wire.Services {
	t.Helper()
	if cfg.Records.URL == "" {
		cfg.Records.URL = w.Records.URL
	}
	if cfg.Records.Key == "" {
		cfg.Records.Key = recordstest.DefaultKey
	}
	if cfg.Slack.APIURL == "" {
		cfg.Slack.APIURL = w.Slack.APIURL()
	}
	if cfg.Slack.Token == "" {
		cfg.Slack.Token = slacktest.DefaultToken
	}
	if cfg.Actions.Now == nil {
		cfg.Actions.Now = now
	}
	if cfg.Minutes.Now == nil {
		cfg.Minutes.Now = now
	}
	if cfg.Calendar.Now == nil {
		cfg.Calendar.Now = now
	}
	svc, err := wire.New(cfg)
	if err != nil {
		t.Fatalf("wire the services: %v", err)
	}
	return svc
}

// Start runs svc.Bot(cfg, deps) over httptest; svc nil is Services with
// wire.Config's defaults (no admins, own actions only, UTC, no public
// pages) on deps.Now. When the test ends the server is closed and the
// bot's follow-ups are waited for (an error there fails the test).
func Start(t testing.TB, w *testworld.World, svc *wire.Services, cfg bot.Config, deps bot.Deps) *Bot {
	t.Helper()
	if svc == nil {
		svc = Services(t, w, wire.Config{}, deps.Now)
	}
	b := &Bot{Server: svc.Bot(cfg, deps)}
	b.HTTP = httptest.NewServer(b.Server)
	t.Cleanup(func() {
		b.HTTP.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := b.Server.Wait(ctx); err != nil {
			t.Errorf("wait for the bot's follow-ups: %v", err)
		}
	})
	b.Send = &slacktest.Sender{URL: b.HTTP.URL + "/slack/events", Secret: cfg.SigningSecret, Slack: w.Slack}
	return b
}

// Offline returns the real bot over services wired to a records service
// and a Slack that are never reached: for tests of routes that call
// neither (the manifest's commands, /healthz, /readyz, /metrics' absence).
func Offline(t testing.TB, cfg bot.Config, deps bot.Deps) *bot.Server {
	t.Helper()
	svc, err := wire.New(wire.Config{
		Records: wire.Records{URL: "http://records.invalid/api/v1", Key: "unused"},
		Slack:   wire.Slack{APIURL: "http://slack.invalid/api/"},
	})
	if err != nil {
		t.Fatalf("wire the services: %v", err)
	}
	return svc.Bot(cfg, deps)
}
