package minutespage_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
)

// harness is the public pages served as bot serves them (Site.Mount on a
// chi router), over the minutes domain and the in-memory records service
// holding the test world's dataset; without the bot's public guard, whose
// own tests are bot's.
type harness struct {
	t       *testing.T
	now     time.Time
	data    recordstest.Dataset
	records *recordstest.Server
	http    *httptest.Server
	setup   setup
}

// setup is what a harness option may change.
type setup struct {
	data    *recordstest.Dataset
	minutes minutes.Config
	site    minutespage.Options
}

type harnessOption func(*setup)

func withDataset(f func(*recordstest.Dataset)) harnessOption {
	return func(s *setup) { f(s.data) }
}

// withMinutes edits the minutes domain's configuration (PUBLIC_URL,
// PUBLIC_MINUTES).
func withMinutes(f func(*minutes.Config)) harnessOption {
	return func(s *setup) { f(&s.minutes) }
}

// withSite edits the pages' options (ORG_NAME, the clock, search).
func withSite(f func(*minutespage.Options)) harnessOption {
	return func(s *setup) { f(&s.site) }
}

// withOrgName sets ORG_NAME.
func withOrgName(name string) harnessOption {
	return withSite(func(o *minutespage.Options) { o.OrgName = name })
}

// newHarness serves the pages over the test world's dataset, at the
// address Slack's links use, public pages on.
func newHarness(t *testing.T, opts ...harnessOption) *harness {
	t.Helper()
	now := time.Now()
	data := testworld.Dataset(now)
	h := &harness{t: t, now: now, setup: setup{data: &data, minutes: minutes.Config{PublicURL: "https://records-bot.example.org", Public: true}}}
	for _, o := range opts {
		o(&h.setup)
	}
	h.data = data
	h.records = recordstest.NewServer(recordstest.WithDataset(data))
	t.Cleanup(h.records.Close)
	h.start()
	return h
}

// rebuild serves the pages again over the same records service, with
// opts applied on top of the harness's own.
func (h *harness) rebuild(opts ...harnessOption) {
	h.t.Helper()
	for _, o := range opts {
		o(&h.setup)
	}
	h.start()
}

func (h *harness) start() {
	h.t.Helper()
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(h.t, err)
	mcfg, opts := h.setup.minutes, h.setup.site
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if mcfg.Now == nil {
		mcfg.Now = opts.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	r := chi.NewRouter()
	minutespage.New(minutes.New(rc, mcfg), opts).Mount(r)
	srv := httptest.NewServer(r)
	h.t.Cleanup(srv.Close)
	h.http = srv
}

// pageResponse is the answer to one request for a public page.
type pageResponse struct {
	status int
	header http.Header
	body   string
}

// fetchPage requests path with method (GET when empty) and the given
// headers.
func (h *harness) fetchPage(method, path string, header http.Header) pageResponse {
	h.t.Helper()
	status, hd, body := pagetest.Fetch(h.t, h.http, method, path, header)
	return pageResponse{status: status, header: hd, body: body}
}
