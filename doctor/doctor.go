// Package doctor is `recordsbot doctor`, the installer's self-check: from
// the settings as start-up parsed them (Settings: every variable read
// once, and every problem found), it exercises each dependency the way
// serve would (read-only, unless WriteCheck) and returns a checklist, one
// line per check, grouped by dependency, each failure followed by what to
// do. It never refuses to run for a missing or bad setting: that is one
// of the things it reports. Its text is English, as the logs are:
// operators search for it.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/words"
)

// ErrFailed is what a caller returns when the report has a failure that
// blocks normal use (Report.Blocking > 0); the checklist has said what.
var ErrFailed = errors.New("doctor: something blocks normal use")

// Options are doctor's flags and what it says about the binary.
type Options struct {
	WriteCheck bool // --write-check: exercise actions:write
	// Version is recordsbot's, shown in the heading and the User-Agent.
	Version string
	// GoVersion is the Go release the binary was built with
	// (runtime.Version()); "" skips that check. GoPending is what is
	// pending for it ("" for nothing) and PatchedGo the release that has
	// it all, which the fix names.
	GoVersion, GoPending, PatchedGo string
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

// Report is the whole checklist, the form --json prints.
type Report struct {
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
func (r *Report) add(title string, c check) {
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

// Run runs every check. The sections run one after the other: each has
// its own short deadline, and the whole takes seconds.
func Run(ctx context.Context, set Settings, opts Options) *Report {
	rep := &Report{Version: opts.Version}
	for _, t := range []string{secConfig, secRecords, secSlack, secStore, secPublic, secDeps} {
		rep.Sections = append(rep.Sections, section{Title: t, Checks: []check{}})
	}
	checkConfig(set, rep)
	checkToolchain(opts, rep)
	rep.add(secConfig, languagesCheck(set.OrgLanguage))
	rep.add(secConfig, unfurlsCheck(set))
	checkHolidays(ctx, set, time.Now(), rep)
	checkRecords(ctx, set, opts, rep)
	checkSlack(ctx, set, rep)
	checkStore(ctx, set, rep)
	checkPublicURL(ctx, set, rep)
	checkDependencies(ctx, set, opts, rep)
	return rep
}

// checkToolchain is the line on the Go release the binary was built
// with; none when it is not known.
func checkToolchain(opts Options, rep *Report) {
	if opts.GoVersion == "" {
		return
	}
	if opts.GoPending != "" {
		rep.add(secConfig, advisory(opts.GoPending, "rebuild with "+opts.PatchedGo+": GOTOOLCHAIN="+opts.PatchedGo+" go build ./cmd/recordsbot (the image already is)"))
		return
	}
	rep.add(secConfig, ok("built with "+opts.GoVersion+", which has the standard library's known fixes"))
}

// checkConfig lists every configuration problem, one line each (the
// variables envconfig could not read and the ones serve, remind or watch
// would refuse), then the shapes start-up accepts but that cannot work,
// then the optional settings left unset and what their absence means.
func checkConfig(set Settings, rep *Report) {
	for _, p := range set.Problems {
		rep.add(secConfig, failed(p.Text, "fix "+p.Name+" (recordsbot help says what each variable takes); the sections below check what they can without it"))
	}
	if len(set.Problems) == 0 {
		rep.add(secConfig, ok("every variable is valid and serve, remind and watch have what they need"))
	}
	for _, c := range shapeChecks(set) {
		rep.add(secConfig, c)
	}
	for _, o := range []struct {
		name string
		set  bool
		text string
	}{
		{"ADMIN_USER_IDS", len(set.Admins) > 0, "ADMIN_USER_IDS not set: only each action's assignee may change it"},
		{"USER_MAP", len(set.UserMap) > 0, "USER_MAP not set: people are matched to assignees by their Slack email only"},
		{"RECORDS_FIELD_MAP", len(set.FieldMap) > 0, "RECORDS_FIELD_MAP not set: record fields are read under the built-in names only"},
	} {
		// A variable that could not be read is a problem above, not unset.
		if !o.set && !set.problem(o.name) {
			rep.add(secConfig, skipped(o.text))
		}
	}
}

// shapeChecks are the values start-up accepts (it only needs them set)
// that cannot work: a bot token of another kind, admins that are not Slack
// user IDs, a public URL Slack will not call, a report channel given by
// name.
func shapeChecks(set Settings) []check {
	var out []check
	if t := set.BotToken; t != "" && !strings.HasPrefix(t, "xoxb-") {
		out = append(out, failed("SLACK_BOT_TOKEN does not look like a bot token (xoxb-…)",
			"copy OAuth & Permissions → Bot User OAuth Token, not the user token (xoxp-) or an app-level token (xapp-)"))
	}
	var notIDs []string
	for _, a := range set.Admins {
		if !slackapi.IsUserID(a) {
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
	if u, err := url.Parse(set.PublicURL); err == nil && u.Scheme == "http" && u.Host != "" && !isLoopback(u.Hostname()) {
		text := "PUBLIC_URL is http, not https: Slack sends its requests only to https URLs"
		fix := "serve the bot behind TLS (an ingress or proxy) and set PUBLIC_URL to its https address"
		if set.AppToken != "" {
			out = append(out, advisory(text+"; in Socket Mode only minutes links use it", fix))
		} else {
			out = append(out, failed(text, fix))
		}
	}
	if ch := set.ReportChannel; ch != "" && !slackapi.IsChannelID(ch) {
		out = append(out, advisory("REMIND_REPORT_CHANNEL "+strconv.Quote(ch)+" is not a channel ID (C… or G…): remind's report of unmatched assignees would fail",
			"use the channel's ID, from the channel's details (at the bottom of About), not its name"))
	}
	return out
}

// isLoopback reports whether host is this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// WriteText prints the checklist for people.
func (r *Report) WriteText(w io.Writer) {
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
