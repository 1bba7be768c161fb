// Package testbot starts the real bot, as package bot exports it, over
// httptest against a testworld.World, with a sender that signs requests as
// Slack does. It is apart from package testworld because it imports bot,
// which bot's own internal tests cannot do.
package testbot

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/testworld"
)

// Bot is the real bot serving over httptest.
type Bot struct {
	Server *bot.Server
	HTTP   *httptest.Server
	// Send speaks for Slack to the bot, signing with cfg.SigningSecret.
	Send *slacktest.Sender
}

// Wire fills in deps as cmd/recordsbot's run does: one records client of
// w's records service (with recordstest.DefaultKey), one Slack client of
// w's Slack, and one action domain over both with acfg (its Now defaults
// to deps.Now), the one serve shares with the jobs. Fields deps already
// has are kept.
func Wire(t testing.TB, w *testworld.World, acfg actions.Config, deps bot.Deps) bot.Deps {
	t.Helper()
	if deps.Records == nil {
		rc, err := apiclient.NewClient(w.Records.URL, recordstest.DefaultKey)
		if err != nil {
			t.Fatalf("records client: %v", err)
		}
		deps.Records = rc
	}
	if deps.Slack == nil {
		deps.Slack = slack.New(slacktest.DefaultToken, slack.OptionAPIURL(w.Slack.APIURL()))
	}
	if deps.Actions == nil {
		if acfg.Now == nil {
			acfg.Now = deps.Now
		}
		deps.Actions = actions.New(deps.Records, deps.Slack, acfg)
	}
	return deps
}

// Start runs bot.NewServer(cfg, deps) over httptest, with deps filled in
// by Wire with actions.Config's defaults (pass Wire's result to choose
// admins, USER_MAP, visibility or the cache). When the test ends the
// server is closed and the bot's follow-ups are waited for (an error there
// fails the test).
func Start(t testing.TB, w *testworld.World, cfg bot.Config, deps bot.Deps) *Bot {
	t.Helper()
	deps = Wire(t, w, actions.Config{}, deps)
	b := &Bot{Server: bot.NewServer(cfg, deps)}
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
