// Package demo is `recordsbot demo`: the real bot in this process with
// everything it talks to stood in for — an in-memory records service
// serving the demo's story (Dataset) and a local stand-in for Slack's Web
// API — and a console that speaks for Slack in the terminal.
//
// The story is the demo's own, not a test fixture (the tests' dataset is
// internal/testworld's, both built on internal/sampleorg), so it can be
// edited for the people who try the bot without breaking tests.
// `recordsbot sandbox` serves the same Dataset. The stand-ins are the
// fakes' models (apiclient/recordsfake, internal/slackapi/slackfake), not
// the test-only packages built on them.
package demo

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
)

// Options configure Run. The zero value speaks as alice, prints no JSON
// and keeps the bot's logs to itself.
type Options struct {
	// JSON also prints each message's Block Kit JSON and a Block Kit
	// Builder link.
	JSON bool
	// As is the first name of the demo person to speak as; default "alice".
	As string
	// Logger receives the bot's logs; nil discards them.
	Logger *slog.Logger
	// Version names the bot in its User-Agent to the records service.
	Version string
	// Getenv reads NO_COLOR and TERM, to decide on colour; nil: os.Getenv.
	Getenv func(string) string
}

// Run starts the demo's services, hands stdin and stdout to the console
// until the input ends, quit is typed or ctx is cancelled, and stops
// everything it started. Colour and the prompt appear only when stdout and
// stdin are terminals. It returns an error when the services cannot start,
// and, without a terminal, when a scripted command failed.
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout io.Writer) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env, err := startDemo(ctx, log, opts.Version)
	if err != nil {
		return err
	}
	con, err := newConsole(env, stdout, consoleOptions{
		JSON:        opts.JSON,
		Color:       wantColour(isTerminal(stdout), getenv),
		Interactive: isTerminal(stdin),
		As:          opts.As,
	})
	if err != nil {
		return errors.Join(err, env.close())
	}
	var src lineSource = newPlainLines(stdin, con.out)
	in, inOK := stdin.(*os.File)
	out, outOK := stdout.(*os.File)
	if inOK && outOK && isTerminal(in) && isTerminal(out) {
		// Typed at a terminal: lines are edited as in a shell (arrows,
		// Home, End, history).
		ed := newLineEditor(in, out)
		defer ed.close() // a signal may stop the console mid-line
		src = ed
	}
	runErr := con.runFrom(ctx, src)
	return errors.Join(runErr, env.close())
}

// wantColour reports whether output to a terminal (tty) may be styled:
// not when NO_COLOR is set to anything (https://no-color.org), nor on a
// terminal that says it is dumb.
func wantColour(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// isTerminal reports whether f is a terminal. A character device is close
// enough: the other one a user is likely to hand over, /dev/null, behaves
// the same either way (it reads as an immediate end of input).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
