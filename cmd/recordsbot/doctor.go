package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"

	"github.com/recordsbot/recordsbot/doctor"
)

// runDoctor parses doctor's flags and runs package doctor over the
// settings as parsed for it (set, whatever could be read) and every
// problem found (problems), then prints the checklist. It never refuses
// to run for a missing setting: that is one of the things it reports.
//
// It returns doctor.ErrFailed (exit 1) when a failure blocks normal use,
// errUsage for bad flags, and nil otherwise, advisory failures included.
func runDoctor(ctx context.Context, set *settings, problems configErrors, goVersion string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the checklist as JSON")
	writeCheck := fs.Bool("write-check", false, "also exercise actions:write by setting one action to the status it already has")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	opts := doctor.Options{WriteCheck: *writeCheck, Version: version}
	if goVersion != "" {
		opts.GoVersion, opts.GoPending, opts.PatchedGo = goVersion, toolchainFixesPending(goVersion), patchedGo
	}
	rep := doctor.Run(ctx, doctorSettings(set, problems), opts)
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
		rep.WriteText(stdout)
	}
	if rep.Blocking > 0 {
		return doctor.ErrFailed
	}
	return nil
}

// doctorSettings are the settings doctor checks: set as parsed, with
// every problem.
func doctorSettings(set *settings, problems configErrors) doctor.Settings {
	ds := doctor.Settings{
		SigningSecret: set.signingSecret, BotToken: set.botToken, AppToken: set.appToken, SlackAPIURL: set.slackAPIURL,
		RecordsURL: set.recordsURL, RecordsKey: set.recordsKey, FieldMap: set.fieldMap,
		OrgLanguage: set.orgLanguage, PublicURL: set.publicURL, Admins: set.admins, UserMap: set.userMap, ReportChannel: set.reportChannel, WorkObjects: set.workObjects,
		Holidays: set.holidays, DatabaseURL: set.databaseURL,
	}
	for _, p := range problems {
		ds.Problems = append(ds.Problems, doctor.Problem{Name: p.name, Text: p.msg})
	}
	return ds
}
