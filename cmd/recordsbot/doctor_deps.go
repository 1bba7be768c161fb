package main

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/health"
	"github.com/recordsbot/recordsbot/store"
)

// secDeps is the section that shows the dependencies as a running serve
// watches them.
const secDeps = "Dependencies"

// checkDependencies runs serve's own dependency probes (internal/health)
// once and shows what serve would report as
// recordsbot_dependency_up{dependency=…}. A dependency down is advisory
// here: the section above it says why, and whether it blocks.
func checkDependencies(ctx context.Context, cfg Config, rep *doctorReport) {
	probes := map[string]health.Probe{}
	if strings.TrimSpace(cfg.RecordsAPIURL) != "" && strings.TrimSpace(cfg.RecordsAPIKey) != "" {
		if rc, err := apiclient.NewClient(cfg.RecordsAPIURL, cfg.RecordsAPIKey, apiclient.WithRetry(0, 0, 0),
			apiclient.WithUserAgent("recordsbot/"+version+" (doctor)")); err == nil {
			probes["records"] = health.Records(rc)
		}
	}
	if token := strings.TrimSpace(cfg.SlackBotToken); token != "" {
		apiURL := cfg.SlackAPIURL
		if apiURL == "" {
			apiURL = defaultSlackAPIURL
		}
		probes["slack"] = health.Slack(slack.New(token, slack.OptionAPIURL(apiURL), slack.OptionHTTPClient(&http.Client{Timeout: slackDeadline})))
	}
	url := cfg.databaseURL()
	file := store.SQLiteFile(url)
	_, statErr := os.Stat(file)
	switch {
	case store.CheckURL(url) != nil:
	case file != "" && errors.Is(statErr, fs.ErrNotExist):
		rep.add(secDeps, skipped("store: not created yet, so nothing to watch (serve creates it)"))
	default:
		probes["store"] = func(ctx context.Context) error {
			st, err := store.Open(ctx, url)
			if err != nil {
				return err
			}
			defer st.Close()
			return st.Ping(ctx)
		}
	}
	c := health.NewChecker(nil, nil, 0, probes)
	c.Timeout = 10 * time.Second
	c.Check(ctx)
	state := c.State()
	names := make([]string, 0, len(state))
	for name := range state {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		gauge := `recordsbot_dependency_up{dependency="` + name + `"}`
		if err := state[name]; err != nil {
			rep.add(secDeps, advisory(name+": down ("+gauge+" 0): "+err.Error(), "see the "+name+" checks above"))
			continue
		}
		rep.add(secDeps, ok(name+": up ("+gauge+" 1)"))
	}
}
