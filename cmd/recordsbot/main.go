// Command recordsbot is a Slack app that brings committee-meeting records
// (action items, meetings, minutes) into Slack. Run `recordsbot help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/kelseyhightower/envconfig"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var cfg Config
	if err := envconfig.Process("", &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "recordsbot: "+envconfigMessage(err))
		os.Exit(2)
	}
	err := run(ctx, cfg, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	var ce *configError
	switch {
	case err == nil:
	case errors.As(err, &ce), errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "recordsbot: "+err.Error())
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "recordsbot: "+err.Error())
		os.Exit(1)
	}
}

// envconfigMessage turns envconfig's error into one line that names the
// variable.
func envconfigMessage(err error) string {
	var pe *envconfig.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: cannot use %q as %s", pe.KeyName, pe.Value, pe.TypeName)
	}
	return err.Error()
}

// run is the whole program: main only reads the environment and exits.
func run(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	sub := "serve"
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "serve":
		if err := cfg.check(sub); err != nil {
			return err
		}
		return serve(ctx, cfg, stdout, stderr)
	case "remind":
		if err := cfg.check(sub); err != nil {
			return err
		}
		return runRemind(ctx, cfg, args, stdout, stderr)
	case "doctor":
		return doctor(ctx, cfg, args, stdout, stderr)
	case "watch":
		if err := cfg.check(sub); err != nil {
			return err
		}
		return watchOnce(ctx, cfg, args, stdout, stderr)
	case "demo":
		return runDemo(ctx, cfg, args, stdin, stdout, stderr)
	case "sandbox":
		return sandbox(ctx, cfg, args, stdout, stderr)
	case "healthcheck":
		return healthcheck(ctx, cfg, stdout)
	case "help", "-h", "--help", "-help":
		return usage(stdout)
	case "version", "--version":
		fmt.Fprintln(stdout, "recordsbot", version)
		return nil
	}
	usage(stderr)
	return fmt.Errorf("unknown subcommand %q: %w", sub, errUsage)
}

const usageHead = `recordsbot brings committee-meeting records into Slack.

Usage: recordsbot [subcommand] [flags]

Subcommands:
  serve        run the Slack app (the default): HTTP on $PORT, or Socket Mode with SLACK_APP_TOKEN
  remind       DM each assignee about overdue and due-soon actions, once a day from REMIND_AT in their time zone (run hourly by a scheduler)
               --dry-run   print the reminders, send nothing (still needs SLACK_BOT_TOKEN to look people up)
  doctor       check the set-up before going live: prints a checklist (✓ ✗ –), exits 1 if something blocks normal use
               --json          print the checklist as JSON
               --write-check   also exercise actions:write (re-PUTs one action's current status)
  watch        poll the records once: announce new minutes to following channels, DM new assignees (run every few minutes)
  demo         try recordsbot in this terminal, with no Slack workspace and no configuration
               --json      also print each message's Block Kit JSON
  sandbox      run an in-memory Records API on 127.0.0.1:$PORT (default 8080), keys from SANDBOX_KEYS
  help         this text
  healthcheck  exit 0 if the server on $PORT answers /healthz (for container health checks; the image has no shell)

Environment (read once at start-up):
`

// usageFormat is envconfig's usage template: one row per variable with its
// default and the subcommands that need it.
const usageFormat = `{{range .}}  {{usage_key . | printf "%-22s"}} {{if usage_default .}}default {{usage_default . | printf "%-24q"}}{{else}}{{printf "%-32s" ""}}{{end}} {{if .Tags.Get "needs"}}required for {{.Tags.Get "needs"}}; {{end}}{{usage_description .}}
{{end}}`

func usage(w io.Writer) error {
	io.WriteString(w, usageHead)
	var cfg Config
	if err := envconfig.Usagef("", &cfg, w, usageFormat); err != nil {
		return err
	}
	io.WriteString(w, "  SANDBOX_KEYS           sandbox: KEY=SCOPE+SCOPE,… (default: one full-scope key, printed)\n")
	return nil
}
