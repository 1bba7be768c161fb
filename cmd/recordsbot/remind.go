package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	// Reminders go out in each person's own morning, so the zone database
	// must be there even in an image without one.
	_ "time/tzdata"

	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/remind"
)

// remind is `recordsbot remind [--dry-run]`: one run of the reminder job,
// for a scheduler. It prints the unmatched assignees, the failures and, last,
// the summary line to stdout; logs go to stderr. It returns an error (exit
// 1) when any reminder failed, after sending all the others.
func runRemind(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("remind", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: recordsbot remind [--dry-run]

Sends each assignee one DM listing their open and in-progress actions that
are overdue or due within REMIND_DAYS days, at most once a day, in their own
morning: a run reminds those whose local time has passed REMIND_AT and who
have not been reminded on their local today. Run it every hour from a
scheduler; running it again sends only what is missing.

`)
		fs.PrintDefaults()
	}
	dryRun := fs.Bool("dry-run", false, "print each reminder as text and send nothing; it still reads the records\n"+
		"and looks people up in Slack, so SLACK_BOT_TOKEN is still needed")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("remind: %w", errUsage)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("remind: unexpected argument %q: %w", fs.Arg(0), errUsage)
	}

	// The store records who was reminded on which day (shared by every
	// run and replica) and holds people's own settings.
	st, err := openStore(ctx, a)
	if err != nil {
		return err
	}
	defer st.Close()
	set := a.set
	holidays, err := loadHolidays(ctx, set, workdays.Loader{Cache: st}, a.log)
	if err != nil {
		return err
	}
	sum, err := remind.Run(ctx, remind.Config{
		Holidays:      holidays,
		Days:          set.remindDays,
		ReportChannel: set.reportChannel,
		SkipWeekends:  set.notify.WeekdaysOnly,
		DryRun:        *dryRun,
		RemindAt:      set.notify.RemindAt,
		Retention:     set.retention,
		Language:      set.orgLanguage,
	}, remind.Deps{
		Actions: a.Actions, Slack: a.Slack, Logger: a.log, Out: stdout,
		Store: st, Settings: remind.StoreSettings(st, set.notify),
	})

	if !*dryRun {
		// The dry run has already listed them with its reminders.
		for _, u := range sum.Unmatched {
			fmt.Fprintf(stdout, "unmatched: %s (%d due)\n", u.Assignee, u.Actions)
		}
	}
	for _, f := range sum.Failed {
		fmt.Fprintf(stdout, "failed: %s: %v\n", f.Who, f.Err)
	}
	fmt.Fprintln(stdout, sum)
	return err
}
