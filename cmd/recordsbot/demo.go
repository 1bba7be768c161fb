package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/slacktest"
)

// demo runs the real bot in this process with everything it talks to
// stood in for — an in-memory records service with the demo dataset and a
// local stand-in for Slack's Web API — and hands the terminal to a console
// that speaks for Slack. It needs no configuration and reads nothing from
// the environment but NO_COLOR and TERM (for colour); cfg matters only for
// LOG_LEVEL=debug, which shows the bot's logs on stderr.
func demo(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "also print each message's Block Kit JSON and a Block Kit Builder link")
	as := fs.String("as", "alice", "the demo person you speak as (first name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: recordsbot demo [--json] [--as NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("demo takes no arguments, got %q: %w", fs.Arg(0), errUsage)
	}

	env, err := startDemo(demoLogger(cfg, stderr))
	if err != nil {
		return err
	}
	con, err := newConsole(env, stdout, consoleOptions{
		JSON:        *jsonOut,
		Color:       wantColour(isTerminal(stdout), os.Getenv),
		Interactive: isTerminal(stdin),
		As:          *as,
	})
	if err != nil {
		return errors.Join(err, env.close())
	}
	runErr := con.run(ctx, stdin)
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

// demoLogger keeps the bot quiet in the console: only errors reach stderr,
// unless LOG_LEVEL=debug asks for everything (info, the default, is taken
// as not asked).
func demoLogger(cfg Config, stderr io.Writer) *slog.Logger {
	level := slog.LevelError
	if l, err := parseLevel(cfg.LogLevel); err == nil && l == slog.LevelDebug {
		level = slog.LevelDebug
	}
	// The bot logs from its request and follow-up goroutines; the lock
	// keeps their lines whole when stderr is a shared buffer.
	w := &lockedWriter{w: stderr}
	return slog.New(bot.RequestIDHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// demoChannel is the channel slash commands are typed in and minutes are
// shared to; slacktest.Sender uses the same default.
const (
	demoChannel     = "C0GENERAL"
	demoChannelName = "general"
)

// demoRemindDays is the reminder job's due-soon window in the demo: the
// default of REMIND_DAYS.
const demoRemindDays = 3

// demoEnv is everything the demo runs, in one process: the records
// service, the stand-in for Slack, the bot's real HTTP server on a loopback
// port, and the sender that speaks for Slack to it.
type demoEnv struct {
	people  []recordstest.Person
	records *recordstest.Server
	slack   *slacktest.Server
	bot     *bot.Server
	// botURL is the bot's base URL, http://127.0.0.1:PORT; it is also its
	// PUBLIC_URL, so minutes links open its real pages.
	botURL string
	send   *slacktest.Sender
	// remind runs the reminder job once, as `recordsbot remind` does.
	remind func(ctx context.Context) (bot.RemindSummary, error)

	httpSrv   *http.Server
	serveErr  chan error
	transport *http.Transport
}

// startDemo starts the demo's services. The caller must call close.
func startDemo(log *slog.Logger) (*demoEnv, error) {
	data := recordstest.DemoDataset(time.Now())
	env := &demoEnv{people: data.People}

	var users []slacktest.User
	for _, p := range data.People {
		users = append(users, slacktest.User{ID: p.SlackID, Name: handle(p), RealName: p.Name, Email: p.Email})
	}
	// Both stand-ins panic, like httptest, if they cannot listen on
	// loopback; nothing else could work then either.
	env.records = recordstest.NewServer(recordstest.WithDataset(data))
	env.slack = slacktest.NewServer(slacktest.WithUsers(users...))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		env.slack.Close()
		env.records.Close()
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	env.botURL = "http://" + ln.Addr().String()

	// One transport for every client, all of them on loopback, so that
	// close can drop its idle connections and leave no goroutine behind.
	env.transport = http.DefaultTransport.(*http.Transport).Clone()
	records, err := apiclient.NewClient(env.records.URL, recordstest.DefaultKey,
		apiclient.WithTransport(env.transport), apiclient.WithUserAgent("recordsbot/"+version+" (demo)"))
	if err != nil {
		ln.Close()
		env.slack.Close()
		env.records.Close()
		return nil, fmt.Errorf("records client: %w", err)
	}
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(env.slack.APIURL()),
		slack.OptionHTTPClient(&http.Client{Timeout: 15 * time.Second, Transport: env.transport}))
	secret := randomKey()
	env.bot = bot.NewServer(bot.Config{
		SigningSecret: secret,
		PublicURL:     env.botURL,
		PublicMinutes: true,
	}, bot.Deps{
		Logger:     log,
		Records:    records,
		Slack:      api,
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: env.transport},
	})
	env.send = &slacktest.Sender{
		URL:    env.botURL + "/slack/events",
		Secret: secret,
		Slack:  env.slack,
		// Longer than the bot's ack budget, so a slow answer is still an
		// answer.
		HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: env.transport},
	}
	env.remind = func(ctx context.Context) (bot.RemindSummary, error) {
		// The demo reminds at once, whatever the hour in each person's zone.
		return bot.Remind(ctx, bot.RemindConfig{Days: demoRemindDays, RemindAt: "00:00"},
			bot.RemindDeps{Records: records, Slack: api, Logger: log, Clock: noWaitClock{}})
	}

	env.httpSrv = &http.Server{
		Handler:           env.bot,
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelError),
	}
	env.serveErr = make(chan error, 1)
	go func() { env.serveErr <- env.httpSrv.Serve(ln) }()
	return env, nil
}

// close stops the bot's server, lets its follow-ups finish, and stops the
// stand-ins.
func (e *demoEnv) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	if err := e.httpSrv.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("stop the bot's server: %w", err))
	}
	if err := <-e.serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("bot server: %w", err))
	}
	if err := e.bot.Wait(ctx); err != nil {
		errs = append(errs, err)
	}
	e.slack.Close()
	e.records.Close()
	e.transport.CloseIdleConnections()
	return errors.Join(errs...)
}

// handle is a demo person's Slack handle: their first name in lower case.
func handle(p recordstest.Person) string {
	first, _, _ := strings.Cut(p.Name, " ")
	return strings.ToLower(first)
}
