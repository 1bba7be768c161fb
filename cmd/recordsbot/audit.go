package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/csvcell"
	"github.com/recordsbot/recordsbot/store"
)

const auditUsage = `Usage: recordsbot audit verify [--anchor TEXT|@FILE]
       recordsbot audit export [--since TIME] [--format jsonl|csv]

verify walks the audit trail of changes made through Slack and exits 1
naming the first entry altered, removed or reordered (docs/audit.md). It
needs AUDIT_KEY. --anchor is a head the daily verify published (the
"recordsbot-audit-head … sig=…" line of its log or of AUDIT_CHANNEL, or
a file holding it after @; default: AUDIT_ANCHOR_FILE's latest, when
set): the trail must still hold it, so entries cut off the end, or all of
them, are named.
export writes the trail from TIME (RFC 3339, or a date: 2026-01-31; default
everything) to stdout, oldest first: JSON Lines (one object a line) or CSV
with a header row.
`

// exportColumns are the fields of an exported entry, in CSV's order.
var exportColumns = []string{"seq", "time", "actor", "actor_records", "surface", "kind", "target", "from", "to", "outcome", "request_id", "prev", "hash"}

// runAudit is `recordsbot audit verify|export`: it needs DATABASE_URL
// only (and AUDIT_RETENTION_DAYS to be valid), neither Slack nor the
// records service.
func runAudit(ctx context.Context, set *settings, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, auditUsage)
		return fmt.Errorf("audit: verify or export?: %w", errUsage)
	}
	verb, args := args[0], args[1:]
	fs := flag.NewFlagSet("audit "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, auditUsage) }
	since := fs.String("since", "", "export entries from this time (RFC 3339 or YYYY-MM-DD)")
	format := fs.String("format", "jsonl", "jsonl or csv")
	anchorText := fs.String("anchor", "", "verify: a published head (recordsbot-audit-head … sig=…), or @FILE holding one (its last)")
	switch verb {
	case "verify", "export":
	case "help", "-h", "--help":
		fmt.Fprint(stdout, auditUsage)
		return nil
	default:
		fs.Usage()
		return fmt.Errorf("audit: unknown %q, want verify or export: %w", verb, errUsage)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("audit %s: %w", verb, errUsage)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("audit %s: unexpected argument %q: %w", verb, fs.Arg(0), errUsage)
	}
	from, err := parseSince(*since)
	if err != nil {
		return fmt.Errorf("audit export: --since %q: %w: %w", *since, err, errUsage)
	}
	if *format != "jsonl" && *format != "csv" {
		return fmt.Errorf("audit export: --format %q is not jsonl or csv: %w", *format, errUsage)
	}

	var anchor *audit.Anchor
	if verb == "verify" {
		if set.auditKey.IsZero() {
			return &configError{name: "AUDIT_KEY", msg: "AUDIT_KEY is required to verify the audit trail: the key serve, remind and watch seal it with"}
		}
		text := *anchorText
		if _, serr := os.Stat(set.auditAnchorFile); text == "" && set.auditAnchorFile != "" && serr == nil {
			text = "@" + set.auditAnchorFile // the heads this install published
		}
		if anchor, err = readAnchor(set.auditKey, text); err != nil {
			return fmt.Errorf("audit verify: --anchor: %w", err)
		}
	}

	st, err := openAuditStore(ctx, set, verb)
	if err != nil {
		return err
	}
	defer st.Close()
	if verb == "verify" {
		return verifyAudit(ctx, st, anchor, stdout)
	}
	return exportAudit(ctx, st, from, *format, stdout)
}

// openAuditStore opens the store at DATABASE_URL, sealed with AUDIT_KEY,
// for the audit subcommand verb. Errors: a *configError for a SQLite file
// that is not there; the store's, wrapped.
func openAuditStore(ctx context.Context, set *settings, verb string) (*store.Store, error) {
	// Opening a SQLite file that is not there creates an empty store, whose
	// trail is "intact: empty": a mistyped DATABASE_URL would pass for a
	// verified trail, and export would print nothing. Say it instead.
	if f := store.SQLiteFile(set.databaseURL); f != "" {
		if _, serr := os.Stat(f); errors.Is(serr, os.ErrNotExist) {
			return nil, &configError{name: "DATABASE_URL", msg: fmt.Sprintf("DATABASE_URL: %s is not there: nothing to %s (is it the path serve uses?)", f, verb)}
		}
	}
	octx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
	defer cancel()
	st, err := store.Open(octx, set.databaseURL, store.WithAuditKey(set.auditKey))
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return st, nil
}

// verifyAudit walks st's trail, against anchor when there is one, and
// says on stdout that it is intact. Errors: the first entry altered,
// removed or reordered, wrapped.
func verifyAudit(ctx context.Context, st *store.Store, anchor *audit.Anchor, stdout io.Writer) error {
	head, err := st.VerifyAudit(ctx, anchor)
	if err != nil {
		return fmt.Errorf("audit trail does not verify: %w", err)
	}
	fmt.Fprintf(stdout, "audit trail intact: %s\n", head)
	if anchor == nil {
		fmt.Fprintln(stdout, "not checked against a published head: pass --anchor with the latest one to catch entries cut off the end")
	} else {
		fmt.Fprintf(stdout, "it holds the head published for %s\n", anchor)
	}
	return nil
}

// parseSince reads --since: RFC 3339, or a date (midnight UTC); "" is
// the zero time, everything.
func parseSince(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, errors.New("not RFC 3339 (2026-01-31T09:00:00Z) or a date (2026-01-31)")
	}
	return t, nil
}

// exportAudit writes the entries from since in format, one at a time, so a
// long trail is never held whole.
func exportAudit(ctx context.Context, st *store.Store, since time.Time, format string, w io.Writer) error {
	var write func(e *audit.Entry) error
	var flush func() error
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		// A spreadsheet opens the CSV: cells it would run are text.
		write = func(e *audit.Entry) error { return cw.Write(csvcell.Row(exportRow(e))) }
		flush = func() error { cw.Flush(); return cw.Error() }
		if err := cw.Write(exportColumns); err != nil {
			return err
		}
	default:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		write = func(e *audit.Entry) error {
			row := exportRow(e)
			obj := make(map[string]any, len(row))
			for i, c := range exportColumns {
				obj[c] = row[i]
			}
			obj["seq"] = e.Seq // a number in JSON
			return enc.Encode(obj)
		}
		flush = func() error { return nil }
	}
	if err := st.AuditSince(ctx, since, write); err != nil {
		return fmt.Errorf("audit export: %w", err)
	}
	return flush()
}

// exportRow is e's fields in exportColumns' order.
func exportRow(e *audit.Entry) []string {
	return []string{strconv.FormatInt(e.Seq, 10), e.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00"), e.Actor, e.ActorRecords,
		string(e.Surface), string(e.Kind), e.Target, e.From, e.To, string(e.Outcome), e.RequestID, e.Prev, e.Hash}
}

// readAnchor reads --anchor: "" is none; "@path" the last anchor line of a
// file (AUDIT_ANCHOR_FILE keeps one a day); anything else the anchor's
// text. Errors: an unreadable file, no anchor in it, or an anchor that is
// not signed with k.
func readAnchor(k audit.Key, text string) (*audit.Anchor, error) {
	if text == "" {
		return nil, nil
	}
	if path, ok := strings.CutPrefix(text, "@"); ok {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		text = ""
		for line := range strings.Lines(string(b)) {
			if strings.HasPrefix(strings.TrimSpace(line), "recordsbot-audit-head ") {
				text = line
			}
		}
		if text == "" {
			return nil, fmt.Errorf("%s holds no recordsbot-audit-head line", path)
		}
	}
	a, err := k.ParseAnchor(text)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// auditVerified hears each daily verify of the trail (store.
// WithAuditVerified): the metrics, and for an intact trail its head
// signed with AUDIT_KEY, published where the database cannot rewrite it:
// the log, AUDIT_ANCHOR_FILE when set (a line appended) and AUDIT_CHANNEL
// when set (a message). `audit verify --anchor` checks the trail still
// holds it.
func auditVerified(a *app) func(audit.Head, error) {
	return func(head audit.Head, err error) {
		a.metrics.AuditVerified(head, err)
		if err != nil || a.set.auditKey.IsZero() {
			return
		}
		anchor := a.set.auditKey.Sign(audit.Anchor{Seq: head.Seq, Hash: head.Hash, At: time.Now()})
		a.log.Info("audit: head anchored", "anchor", anchor)
		if a.set.auditAnchorFile != "" {
			if err := appendLine(a.set.auditAnchorFile, anchor); err != nil {
				a.log.Error("audit: head not written to AUDIT_ANCHOR_FILE", "error", err)
			}
		}
		if a.set.auditChannel != "" && a.Services != nil {
			// Once a day: chat.postMessage's special tier allows about a
			// message a second per channel
			// (https://docs.slack.dev/apis/web-api/rate-limits); the bot
			// must have been invited, or Slack answers not_in_channel
			// (https://docs.slack.dev/reference/methods/chat.postMessage).
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, _, err := a.Slack.PostMessageContext(ctx, a.set.auditChannel, slack.MsgOptionText("`"+anchor+"`", false)); err != nil {
				a.log.Error("audit: head not posted to AUDIT_CHANNEL", "channel", a.set.auditChannel, "error", err)
			}
		}
	}
}

// appendLine appends line to the file at path, creating it.
func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	return errors.Join(err, f.Close())
}
