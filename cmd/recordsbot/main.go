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
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/kelseyhightower/envconfig"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := readEnvironment()
	env.goVersion = runtime.Version()
	err := runEnv(ctx, env, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	var ce *configError
	switch {
	case err == nil:
	case errors.As(err, &ce), errors.Is(err, errUsage):
		for line := range strings.SplitSeq(err.Error(), "\n") {
			fmt.Fprintln(os.Stderr, "recordsbot: "+line)
		}
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "recordsbot: "+err.Error())
		os.Exit(1)
	}
}

// environment is what main read from the process environment.
type environment struct {
	cfg Config
	// unreadable are the variables envconfig could not read into cfg's
	// types (PORT=http, WATCH_INTERVAL=5), one error each; their fields
	// keep the zero value.
	unreadable configErrors
	// set are the variables present in the environment; nil means every
	// field of cfg that is not zero (a test's Config literal).
	set map[string]bool
	// goVersion is the Go release this binary was built with
	// (runtime.Version(), set by main): doctor says when it has known
	// fixes pending. "" (a test's environment) leaves that check out.
	goVersion string
}

// isSet reports whether the variable name was given.
func (e environment) isSet(name string, zero bool) bool {
	if e.set == nil {
		return !zero
	}
	return e.set[name]
}

// readEnvironment reads Config with envconfig one variable at a time, so
// that every unreadable variable is reported, not only the first (envconfig
// stops at the first), and so that a malformed variable stops neither help
// nor doctor.
func readEnvironment() environment {
	env := environment{set: map[string]bool{}}
	v := reflect.ValueOf(&env.cfg).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name := f.Tag.Get("envconfig")
		if _, ok := os.LookupEnv(name); ok {
			env.set[name] = true
		}
		one := reflect.New(reflect.StructOf([]reflect.StructField{f}))
		if err := envconfig.Process("", one.Interface()); err != nil {
			env.unreadable = append(env.unreadable, &configError{name: name, msg: envconfigMessage(name, err)})
			continue
		}
		v.Field(i).Set(one.Elem().Field(0))
	}
	return env
}

// envconfigMessage turns envconfig's error about the variable name into
// one line that names it and says what was expected.
func envconfigMessage(name string, err error) string {
	var pe *envconfig.ParseError
	if !errors.As(err, &pe) {
		return name + ": " + err.Error()
	}
	want := pe.TypeName
	switch pe.TypeName {
	case "int":
		want = "a whole number"
	case "bool":
		want = "true or false"
	case "time.Duration":
		want = "a duration with a unit, such as 30s, 5m or 1h"
	}
	return fmt.Sprintf("%s: cannot read %q as %s", name, pe.Value, want)
}

// run is the whole program for a Config built by hand (the tests); see
// runEnv.
func run(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return runEnv(ctx, environment{cfg: cfg}, args, stdin, stdout, stderr)
}

// runEnv is the whole program: main only reads the environment and exits.
// help and version work whatever the environment holds; doctor reports
// every configuration problem among its checks; serve, remind and watch
// refuse to start with every problem listed, one line each.
func runEnv(ctx context.Context, env environment, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	sub := "serve"
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	cfg := env.cfg
	// parsed is the configuration for sub, with every problem: the
	// unreadable variables first, then the rest (a variable reported
	// unreadable is not reported again as, say, 0).
	parsed := func() (*settings, error) {
		set, errs := parseSettings(cfg, sub)
		unreadable := map[string]bool{}
		for _, ce := range env.unreadable {
			unreadable[ce.name] = true
		}
		return set, append(env.unreadable[:len(env.unreadable):len(env.unreadable)], errs.without(unreadable)...).err()
	}
	switch sub {
	case "serve", "remind", "watch":
		set, err := parsed()
		if err != nil {
			return err
		}
		a, err := newApp(set, sub, stderr)
		if err != nil {
			return err
		}
		switch sub {
		case "serve":
			return serve(ctx, a)
		case "remind":
			return runRemind(ctx, a, args, stdout, stderr)
		}
		return watchOnce(ctx, a, args, stdout, stderr)
	case "doctor":
		set, err := parsed()
		var problems configErrors
		if err != nil {
			problems = err.(configErrors)
		}
		return runDoctor(ctx, set, problems, env.goVersion, args, stdout, stderr)
	case "audit":
		set, err := parsed()
		if err != nil {
			return err
		}
		return runAudit(ctx, set, args, stdout, stderr)
	case "demo":
		return runDemo(ctx, cfg, args, stdin, stdout, stderr)
	case "sandbox":
		port := 8080
		if env.isSet("PORT", cfg.Port == 0) {
			port = cfg.Port
		}
		for _, ce := range env.unreadable {
			if ce.name == "PORT" {
				return ce
			}
		}
		return sandbox(ctx, port, cfg.SandboxKeys, args, stdout, stderr)
	case "healthcheck":
		for _, ce := range env.unreadable {
			if ce.name == "PORT" {
				return ce
			}
		}
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
  watch        poll the records once: announce new minutes to following channels, DM new assignees, post weekly digests and pre-meeting briefs (run every few minutes)
  audit        the audit trail of changes made through Slack (docs/audit.md); needs DATABASE_URL, and AUDIT_KEY for verify
               verify                                     exit 1 naming the first entry altered, removed or reordered
               export [--since TIME] [--format jsonl|csv] the trail from TIME, oldest first, to stdout
  demo         try recordsbot in this terminal, with no Slack workspace and no configuration
               --json      also print each message's Block Kit JSON
  sandbox      run an in-memory Records API on 127.0.0.1:$PORT (default 8080), keys from SANDBOX_KEYS
  help         this text
  healthcheck  exit 0 if the server on $PORT answers /healthz (for container health checks; the image has no shell)

Environment (read once at start-up):
`

// usageFormat is envconfig's usage template: one row per variable with its
// default and the subcommands that need it, in tab-separated columns that
// usage aligns to the longest name and default (FOLLOW_DEFAULTS' is long).
const usageFormat = `{{range .}}  {{usage_key .}}{{"\t"}}{{if usage_default .}}default {{usage_default . | printf "%q"}}{{end}}{{"\t"}}{{if .Tags.Get "needs"}}required for {{.Tags.Get "needs"}}; {{end}}{{usage_description .}}
{{end}}`

func usage(w io.Writer) error {
	io.WriteString(w, usageHead)
	var cfg Config
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	if err := envconfig.Usagef("", &cfg, tw, usageFormat); err != nil {
		return err
	}
	return tw.Flush()
}
