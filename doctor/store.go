package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

	"golang.org/x/sys/unix"

	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// storeDeadline bounds opening the store: store.Open waits as long as its
// context allows for a PostgreSQL host that drops packets.
const storeDeadline = 5 * time.Second

// publicDeadline bounds the request to PUBLIC_URL/healthz.
const publicDeadline = 5 * time.Second

// checkStore opens the store as serve does, which applies any pending
// migrations (as serve's start would), then pings it and compares its
// schema version with the binary's. A SQLite file that does not exist yet
// is not created (doctor leaves nothing behind): doctor checks that serve
// could create it.
func checkStore(ctx context.Context, set Settings, rep *Report) {
	url := set.DatabaseURL
	if err := store.CheckURL(url); err != nil {
		rep.add(secStore, failed(err.Error(), "set DATABASE_URL to sqlite:///abs/path.db, sqlite://relative.db or postgres://…"))
		return
	}
	if file := store.SQLiteFile(url); file != "" {
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			rep.add(secStore, newSQLiteFileCheck(file))
			return
		}
	}
	octx, cancel := context.WithTimeout(ctx, storeDeadline)
	defer cancel()
	var applied atomic.Int64
	log := slog.New(migrationCounter{&applied})
	st, err := store.Open(octx, url, store.WithLogger(log))
	switch {
	case errors.Is(err, store.ErrSchemaTooNew):
		rep.add(secStore, failed(err.Error(), "run the recordsbot release that migrated this database, or a newer one"))
		return
	case err != nil:
		rep.add(secStore, failed("cannot open "+store.Redact(url)+": "+err.Error(),
			"check DATABASE_URL, that the database is up and reachable, and (SQLite) that the directory exists and is writable"))
		return
	}
	defer st.Close()
	if err := st.Ping(octx); err != nil {
		rep.add(secStore, failed("store does not answer: "+err.Error(), "check the database server and DATABASE_URL"))
		return
	}
	rep.add(secStore, ok("reachable: "+st.Engine()+" at "+st.String()))
	have, know, err := st.SchemaVersion(octx)
	switch {
	case err != nil:
		rep.add(secStore, failed("cannot read the schema version: "+err.Error(), "check the database server and DATABASE_URL"))
	case have != know:
		rep.add(secStore, failed(fmt.Sprintf("schema version %d, this recordsbot knows %d", have, know), "run recordsbot serve once to migrate, or check the database's permissions"))
	case applied.Load() > 0:
		rep.add(secStore, ok(fmt.Sprintf("migrations current (schema version %d): doctor applied %s, as serve would have", have, words.Count(int(applied.Load()), "pending migration", "pending migrations"))))
	default:
		rep.add(secStore, ok(fmt.Sprintf("migrations current (schema version %d)", have)))
	}
	if have == know {
		rep.add(secStore, searchIndexCheck(octx, st))
	}
}

// searchIndexCheck is one line on the minutes search index: how many
// minutes it holds and where the backfill stands.
func searchIndexCheck(ctx context.Context, st *store.Store) check {
	stats, err := st.MinutesIndexStats(ctx)
	if err != nil {
		return failed("cannot read the search index: "+err.Error(), "check the database server and DATABASE_URL")
	}
	cur, err := minutes.ReadBackfillCursor(ctx, st)
	if errors.Is(err, minutes.ErrBackfillCursor) {
		return advisory(fmt.Sprintf("search index: %s; %v", words.Count(stats.Docs, "minutes document", "minutes documents"), err),
			"nothing to do: the next backfill pass starts over and writes a new one")
	}
	if err != nil {
		return failed("cannot read the search backfill's cursor: "+err.Error(), "check the database server and DATABASE_URL")
	}
	line := fmt.Sprintf("search index: %s", words.Count(stats.Docs, "minutes document", "minutes documents"))
	switch {
	case cur.Pages > 0 || cur.Read > 0:
		line += fmt.Sprintf("; backfill under way (%s, %s read this pass)", words.Count(cur.Pages, "meetings page", "meetings pages"), words.Count(cur.Read, "minutes document", "minutes documents"))
	case !cur.DoneAt.IsZero():
		line += "; backfill last finished " + cur.DoneAt.UTC().Format("2006-01-02 15:04 UTC")
	default:
		line += "; backfill not run yet (serve runs it at SEARCH_BACKFILL_RATE)"
	}
	return ok(line)
}

// newSQLiteFileCheck is the finding for a SQLite file not created yet:
// fine when serve can create it, that is when its directory exists and
// this user may write there.
func newSQLiteFileCheck(file string) check {
	dir := filepath.Dir(file)
	fi, err := os.Stat(dir)
	switch {
	case err != nil || !fi.IsDir():
		return failed(file+" cannot be created: the directory "+dir+" does not exist",
			"create "+dir+" (writable by the user recordsbot runs as), or point DATABASE_URL elsewhere")
	case unix.Access(dir, unix.W_OK) != nil:
		return failed(fmt.Sprintf("%s cannot be created: the directory %s is not writable by uid %d", file, dir, os.Getuid()),
			"make "+dir+" writable by the user recordsbot runs as, or point DATABASE_URL elsewhere")
	}
	return ok(file + " not created yet: serve creates it on first start (" + dir + " is writable)")
}

// migrationCounter is a slog handler counting the migrations store.Open
// reports applying ("store migrated"), so doctor can say it applied them.
type migrationCounter struct{ n *atomic.Int64 }

func (m migrationCounter) Enabled(context.Context, slog.Level) bool { return true }

func (m migrationCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "store migrated" {
		m.n.Add(1)
	}
	return nil
}

func (m migrationCounter) WithAttrs([]slog.Attr) slog.Handler { return m }
func (m migrationCounter) WithGroup(string) slog.Handler      { return m }

// checkPublicURL asks PUBLIC_URL/healthz, as Slack and browsers would reach
// the bot, for the liveness answer "ok". In HTTP mode Slack's requests go
// there too, so a failure blocks normal use; in Socket Mode only minutes
// links and unfurls suffer.
func checkPublicURL(ctx context.Context, set Settings, rep *Report) {
	if set.PublicURL == "" {
		rep.add(secPublic, skipped("PUBLIC_URL not set: nothing to ask from outside, and no links to the bot's own minutes pages or to each action's own page"))
		return
	}
	target := strings.TrimRight(set.PublicURL, "/") + "/healthz"
	fail := func(text string) {
		fix := "start recordsbot serve and check that " + target + " answers ok from outside (DNS, TLS, ingress, firewall)"
		if set.AppToken != "" {
			rep.add(secPublic, advisory(text+"; in Socket Mode only minutes links and unfurls need it", fix))
			return
		}
		rep.add(secPublic, failed(text+"; Slack could not reach the bot either", fix))
	}
	hctx, cancel := context.WithTimeout(ctx, publicDeadline)
	defer cancel()
	req, err := http.NewRequestWithContext(hctx, http.MethodGet, target, nil)
	if err != nil {
		fail("PUBLIC_URL is not a URL: " + err.Error())
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(target + " did not answer: " + err.Error())
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 512))
	if err != nil {
		fail(fmt.Sprintf("%s answered %d but its body could not be read: %v", target, resp.StatusCode, err))
		return
	}
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "ok" {
		fail(fmt.Sprintf("%s answered %d %q, not 200 ok", target, resp.StatusCode, strings.TrimSpace(string(body))))
		return
	}
	rep.add(secPublic, ok(target+" answers 200 ok"))
}
