package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/recordsbot/recordsbot/apiclient"
)

// doctor is the installer's self-check: it reads the same Config as serve,
// exercises each dependency the way serve would (read-only, unless
// --write-check), and prints one line per check, grouped by dependency,
// each failure followed by what to do. It never refuses to run for a
// missing setting: that is one of the things it reports.
//
// It returns errDoctorFailed (exit 1) when a failure blocks normal use,
// errUsage for bad flags, and nil otherwise, advisory failures included.
func doctor(ctx context.Context, cfg Config, problems configErrors, goVersion string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the checklist as JSON")
	writeCheck := fs.Bool("write-check", false, "also exercise actions:write by setting one action to the status it already has")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	rep := runDoctor(ctx, cfg, problems, doctorOptions{WriteCheck: *writeCheck, GoVersion: goVersion})
	if err := ctx.Err(); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.writeText(stdout)
	}
	if rep.Blocking > 0 {
		return errDoctorFailed
	}
	return nil
}

// errDoctorFailed is doctor's result when something blocks normal use; the
// checklist has said what.
var errDoctorFailed = errors.New("doctor: something blocks normal use")

// doctorOptions are doctor's flags.
type doctorOptions struct {
	WriteCheck bool // --write-check: exercise actions:write
	// GoVersion is the Go release the binary was built with
	// (runtime.Version(), set by doctor); "" skips that check.
	GoVersion string
}

// Check results, as JSON spells them.
const (
	checkOK      = "ok"      // ✓
	checkFailed  = "failed"  // ✗
	checkSkipped = "skipped" // –
)

// check is one line of the checklist.
type check struct {
	Status string `json:"status"` // checkOK, checkFailed or checkSkipped
	// Blocking is true for a failure that stops normal use (a bot that
	// cannot start, answer, or show records); false for an advisory one.
	Blocking bool   `json:"blocking,omitempty"`
	Text     string `json:"text"`          // the finding, one line
	Fix      string `json:"fix,omitempty"` // what to do about a failure
	// Details are lines shown indented under the check, such as the
	// fields an endpoint was found to carry.
	Details []string `json:"details,omitempty"`
}

// section is one heading of the checklist.
type section struct {
	Title  string  `json:"title"`
	Checks []check `json:"checks"`
}

// doctorReport is the whole checklist, the form --json prints.
type doctorReport struct {
	Version  string    `json:"version"`
	Sections []section `json:"sections"`
	// Blocking and Advisory count the failures of each kind.
	Blocking int `json:"blocking"`
	Advisory int `json:"advisory"`
	// Records is the records service's inspection in full, for machines
	// that want more than the lines say; absent when it was not run.
	Records *apiclient.Inspection `json:"records,omitempty"`
}

// add appends c to the section titled title.
func (r *doctorReport) add(title string, c check) {
	if c.Status == checkFailed {
		if c.Blocking {
			r.Blocking++
		} else {
			r.Advisory++
		}
	}
	for i := range r.Sections {
		if r.Sections[i].Title == title {
			r.Sections[i].Checks = append(r.Sections[i].Checks, c)
			return
		}
	}
	r.Sections = append(r.Sections, section{Title: title, Checks: []check{c}})
}

// The headings, in the order printed.
const (
	secConfig  = "Configuration"
	secRecords = "Records API"
	secSlack   = "Slack"
	secStore   = "Store"
	secPublic  = "Public URL"
)

func ok(text string, details ...string) check {
	return check{Status: checkOK, Text: text, Details: details}
}

func skipped(text string) check { return check{Status: checkSkipped, Text: text} }

// failed is a failure that blocks normal use.
func failed(text, fix string) check {
	return check{Status: checkFailed, Blocking: true, Text: text, Fix: fix}
}

// advisory is a failure the bot works around or that only some features
// feel.
func advisory(text, fix string) check {
	return check{Status: checkFailed, Text: text, Fix: fix}
}

// runDoctor runs every check. The sections run one after the other: each
// has its own short deadline, and the whole takes seconds.
func runDoctor(ctx context.Context, cfg Config, problems configErrors, opts doctorOptions) *doctorReport {
	rep := &doctorReport{Version: version}
	for _, t := range []string{secConfig, secRecords, secSlack, secStore, secPublic, secDeps} {
		rep.Sections = append(rep.Sections, section{Title: t, Checks: []check{}})
	}
	checkConfig(cfg, problems, rep)
	checkToolchain(opts.GoVersion, rep)
	checkHolidays(ctx, cfg, time.Now(), rep)
	checkRecords(ctx, cfg, opts, rep)
	checkSlack(ctx, cfg, rep)
	checkStore(ctx, cfg, rep)
	checkPublicURL(ctx, cfg, rep)
	checkDependencies(ctx, cfg, rep)
	return rep
}

// checkConfig lists every configuration problem, one line each (the
// variables envconfig could not read and the ones serve, remind or watch
// would refuse), then the shapes start-up accepts but that cannot work,
// then the optional settings left unset and what their absence means.
func checkConfig(cfg Config, problems configErrors, rep *doctorReport) {
	for _, p := range problems {
		rep.add(secConfig, failed(p.msg, "fix "+p.name+" (recordsbot help says what each variable takes); the sections below check what they can without it"))
	}
	if len(problems) == 0 {
		rep.add(secConfig, ok("every variable is valid and serve, remind and watch have what they need"))
	}
	for _, c := range shapeChecks(cfg) {
		rep.add(secConfig, c)
	}
	for _, o := range []struct {
		set  bool
		text string
	}{
		{len(cfg.AdminUserIDs) > 0, "ADMIN_USER_IDS not set: only each action's assignee may change it"},
		{cfg.UserMap != "", "USER_MAP not set: people are matched to assignees by their Slack email only"},
		{cfg.RecordsFieldMap != "", "RECORDS_FIELD_MAP not set: record fields are read under the built-in names only"},
	} {
		if !o.set {
			rep.add(secConfig, skipped(o.text))
		}
	}
}

// shapeChecks are the values start-up accepts (it only needs them set)
// that cannot work: a bot token of another kind, admins that are not Slack
// user IDs, a public URL Slack will not call, a report channel given by
// name.
func shapeChecks(cfg Config) []check {
	var out []check
	if t := strings.TrimSpace(cfg.SlackBotToken); t != "" && !strings.HasPrefix(t, "xoxb-") {
		out = append(out, failed("SLACK_BOT_TOKEN does not look like a bot token (xoxb-…)",
			"copy OAuth & Permissions → Bot User OAuth Token, not the user token (xoxp-) or an app-level token (xapp-)"))
	}
	var notIDs []string
	for _, a := range cfg.AdminUserIDs {
		if a = strings.TrimSpace(a); a != "" && !isSlackUserID(a) {
			notIDs = append(notIDs, strconv.Quote(a))
		}
	}
	if len(notIDs) > 0 {
		out = append(out, failed("ADMIN_USER_IDS: "+strings.Join(notIDs, ", ")+" not Slack user IDs (U… or W…): nobody would be an admin by them",
			"use member IDs (a profile's ⋮ → Copy member ID), not names or emails"))
	}
	// Slack calls request URLs over https only, checking the certificate
	// (https://api.slack.com/apis/http; the ssl_check of a command's URL,
	// bot/http.go). A loopback PUBLIC_URL is a try-out on this machine,
	// which Slack reaches through a tunnel's https URL if at all.
	if u, err := url.Parse(strings.TrimSpace(cfg.PublicURL)); err == nil && u.Scheme == "http" && u.Host != "" && !isLoopback(u.Hostname()) {
		text := "PUBLIC_URL is http, not https: Slack sends its requests only to https URLs"
		fix := "serve the bot behind TLS (an ingress or proxy) and set PUBLIC_URL to its https address"
		if strings.TrimSpace(cfg.SlackAppToken) != "" {
			out = append(out, advisory(text+"; in Socket Mode only minutes links use it", fix))
		} else {
			out = append(out, failed(text, fix))
		}
	}
	if ch := strings.TrimSpace(cfg.RemindReportChannel); ch != "" && !isChannelID(ch) {
		out = append(out, advisory("REMIND_REPORT_CHANNEL "+strconv.Quote(ch)+" is not a channel ID (C… or G…): remind's report of unmatched assignees would fail",
			"use the channel's ID, from the channel's details (at the bottom of About), not its name"))
	}
	return out
}

// isChannelID reports whether s has the form of a public (C…) or private
// (G…) channel's ID.
func isChannelID(s string) bool {
	if len(s) < 2 || (s[0] != 'C' && s[0] != 'G') {
		return false
	}
	for _, r := range s[1:] {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isLoopback reports whether host is this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// writeText prints the checklist for people.
func (r *doctorReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "recordsbot doctor (%s)\n", r.Version)
	for _, s := range r.Sections {
		fmt.Fprintf(w, "\n%s\n", s.Title)
		for _, c := range s.Checks {
			mark := map[string]string{checkOK: "✓", checkFailed: "✗", checkSkipped: "–"}[c.Status]
			text := c.Text
			if c.Status == checkFailed && !c.Blocking {
				// A cross reads as "this stops the bot"; an advisory does
				// not, so it gets a mark of its own as well as the word.
				mark = "!"
				text += " (advisory)"
			}
			fmt.Fprintf(w, "  %s %s\n", mark, text)
			for _, d := range c.Details {
				fmt.Fprintf(w, "      %s\n", d)
			}
			if c.Fix != "" {
				fmt.Fprintf(w, "      → %s\n", c.Fix)
			}
		}
	}
	fmt.Fprintln(w)
	switch {
	case r.Blocking == 1:
		fmt.Fprintf(w, "1 problem blocks normal use; %s.\n", words.Count(r.Advisory, "advisory", "advisories"))
	case r.Blocking > 1:
		fmt.Fprintf(w, "%s block normal use; %s.\n", words.Count(r.Blocking, "problem", "problems"), words.Count(r.Advisory, "advisory", "advisories"))
	case r.Advisory > 0:
		fmt.Fprintf(w, "Ready to go live; %s.\n", words.Count(r.Advisory, "advisory", "advisories"))
	default:
		fmt.Fprintln(w, "Ready to go live.")
	}
}
