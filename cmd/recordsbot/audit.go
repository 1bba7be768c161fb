package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/store"
)

const auditUsage = `Usage: recordsbot audit verify
       recordsbot audit export [--since TIME] [--format jsonl|csv]

verify walks the audit trail of changes made through Slack and exits 1
naming the first entry altered, removed or reordered (docs/audit.md).
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

	octx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
	defer cancel()
	st, err := store.Open(octx, set.databaseURL)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	defer st.Close()
	if verb == "verify" {
		head, err := st.VerifyAudit(ctx)
		if err != nil {
			return fmt.Errorf("audit trail does not verify: %w", err)
		}
		fmt.Fprintf(stdout, "audit trail intact: %s\n", head)
		return nil
	}
	return exportAudit(ctx, st, from, *format, stdout)
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
		write = func(e *audit.Entry) error { return cw.Write(exportRow(e)) }
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
