package doctor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"time"

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
func checkDependencies(ctx context.Context, set Settings, opts Options, rep *Report) {
	probes := map[string]health.Probe{}
	if set.RecordsURL != "" && set.RecordsKey != "" {
		if rc, err := apiclient.NewClient(set.RecordsURL, set.RecordsKey, apiclient.WithRetry(0, 0, 0),
			apiclient.WithUserAgent(userAgent(opts))); err == nil {
			probes["records"] = health.Records(rc)
		}
	}
	if set.BotToken != "" {
		probes["slack"] = health.Slack(slackClient(set))
	}
	url := set.DatabaseURL
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
