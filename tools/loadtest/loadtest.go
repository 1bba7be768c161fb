// Package loadtest drives a running recordsbot with signed slash commands at
// a fixed rate, as Slack would, and reports latency percentiles, status
// codes and errors. It speaks plain HTTP to the bot's request URL, so it
// load-tests a local `recordsbot serve`, the soak test, or your own
// deployment (run it from a test, see TestLoad).
//
// The rate is open-loop: a request starts every 1/Rate whether or not the
// earlier ones have been answered, as real users do not wait for each
// other, so a slow bot shows up as latency rather than as a lower rate. At
// most Concurrency requests are in flight; a tick that finds them all busy
// is counted as Dropped instead of queueing without bound.
package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// Defaults of Options.
const (
	DefaultRate        = 50
	DefaultDuration    = 10 * time.Second
	DefaultConcurrency = 64
	DefaultTimeout     = 10 * time.Second
	DefaultGrace       = 2 * time.Second
)

// SlackDeadline is how long Slack waits for the answer to a slash command
// before it shows the user an error; Result.OverDeadline counts answers
// slower than that.
const SlackDeadline = 3 * time.Second

// Options says what to send, where and how fast. The zero value of each
// optional field means its documented default.
type Options struct {
	// URL is the bot's request URL, such as
	// http://127.0.0.1:3000/slack/events. Required.
	URL string
	// Secret is the bot's Slack signing secret. Required.
	Secret string
	// Rate is the number of requests started per second. Default 50.
	Rate float64
	// Duration is how long requests are started for; Run then waits for
	// the ones in flight. Default 10 s.
	Duration time.Duration
	// Concurrency caps the requests in flight. Default 64.
	Concurrency int
	// Users are the Slack user IDs the commands come from, taken in turn.
	// Default: one made-up user, who the bot will not match to any
	// records (it still answers, after asking Slack who they are).
	Users []string
	// Commands are the slash commands to send, taken in turn, each with
	// its text: "/actions", "/actions overdue", "/meetings". Default
	// "/actions".
	Commands []string
	// ResponseURL is the response_url sent with each command, where the
	// bot posts answers that take longer than its ack budget. Default: a
	// listener Run starts on 127.0.0.1, which counts the posts
	// (Result.FollowUps); it is reachable only when the bot runs on the
	// same machine. Point it elsewhere for a remote bot, or at an address
	// that refuses, knowing the bot will log each failed follow-up.
	ResponseURL string
	// FollowUpGrace is how long Run keeps the default ResponseURL open
	// after the last answer, for follow-ups still on their way. Default
	// 2 s; negative: none.
	FollowUpGrace time.Duration
	// Timeout bounds each request. Default 10 s.
	Timeout time.Duration
	// HTTPClient sends the requests. Default: a client with Timeout and
	// a keep-alive pool of Concurrency connections, closed when Run
	// returns.
	HTTPClient *http.Client
}

// Result is what a run measured.
type Result struct {
	// Sent is the number of requests started; Dropped the ticks skipped
	// because Concurrency requests were in flight.
	Sent, Dropped int
	// Status counts the answers by HTTP status code.
	Status map[int]int
	// Errors counts requests that got no answer (refused connections,
	// timeouts); Error is the last such error.
	Errors int
	Error  error
	// Latencies of the answered requests: percentiles and the slowest.
	P50, P90, P99, Max time.Duration
	// OverDeadline counts answers that took longer than SlackDeadline,
	// which Slack would have shown the user as a failure.
	OverDeadline int
	// FollowUps counts the posts the bot made to the default ResponseURL
	// (answers that came after the ack); 0 with another ResponseURL.
	FollowUps int
	// Elapsed is the run's wall-clock time, including the wait for the
	// last answers.
	Elapsed time.Duration
}

// Answered is the number of requests that got an HTTP answer.
func (r Result) Answered() int {
	n := 0
	for _, c := range r.Status {
		n += c
	}
	return n
}

// String summarises r on one line.
func (r Result) String() string {
	codes := make([]int, 0, len(r.Status))
	for c := range r.Status {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var status []string
	for _, c := range codes {
		status = append(status, fmt.Sprintf("%d×%d", r.Status[c], c))
	}
	rate := 0.0
	if r.Elapsed > 0 {
		rate = float64(r.Answered()) / r.Elapsed.Seconds()
	}
	return fmt.Sprintf("sent %d (%.1f/s answered), dropped %d, errors %d, status [%s], latency p50 %v p90 %v p99 %v max %v, over %v: %d, follow-ups %d",
		r.Sent, rate, r.Dropped, r.Errors, strings.Join(status, " "),
		r.P50.Round(time.Microsecond), r.P90.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond),
		SlackDeadline, r.OverDeadline, r.FollowUps)
}

// Run sends slash commands to opts.URL at opts.Rate for opts.Duration, then
// waits for the answers still in flight and reports what it measured. It
// returns an error, with no Result, when opts is unusable; failed requests
// are counted in the Result, not returned. When ctx ends, Run stops
// starting requests, cancels those in flight and returns what it has with
// ctx's error.
func Run(ctx context.Context, opts Options) (Result, error) {
	if err := opts.setDefaults(); err != nil {
		return Result{}, err
	}
	hc := opts.HTTPClient
	if hc == nil {
		tr := &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConns:        opts.Concurrency,
			MaxIdleConnsPerHost: opts.Concurrency,
			IdleConnTimeout:     30 * time.Second,
		}
		defer tr.CloseIdleConnections()
		hc = &http.Client{Transport: tr, Timeout: opts.Timeout}
	}
	var sink *followUpSink
	if opts.ResponseURL == "" {
		var err error
		sink, err = startSink()
		if err != nil {
			return Result{}, err
		}
		defer sink.close()
		opts.ResponseURL = sink.url
	}

	sender := &slacktest.Sender{URL: opts.URL, Secret: opts.Secret, HTTPClient: hc}
	rec := &recorder{status: map[int]int{}}
	slots := make(chan struct{}, opts.Concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	ticker := time.NewTicker(time.Duration(float64(time.Second) / opts.Rate))
	defer ticker.Stop()
	stop := time.NewTimer(opts.Duration)
	defer stop.Stop()
	var runErr error
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			runErr = ctx.Err()
		case <-stop.C:
		case <-ticker.C:
			select {
			case slots <- struct{}{}:
			default:
				rec.drop()
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-slots }()
				rec.send(ctx, sender, opts.command(i), opts.ResponseURL)
			}()
			continue
		}
		break
	}
	wg.Wait()
	r := rec.result()
	r.Elapsed = time.Since(start)
	if sink != nil {
		if opts.FollowUpGrace > 0 && runErr == nil {
			t := time.NewTimer(opts.FollowUpGrace)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		r.FollowUps = int(sink.posts.Load())
	}
	return r, runErr
}

func (o *Options) setDefaults() error {
	if o.URL == "" || o.Secret == "" {
		return errors.New("loadtest: URL and Secret are required")
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Duration <= 0 {
		o.Duration = DefaultDuration
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.FollowUpGrace == 0 {
		o.FollowUpGrace = DefaultGrace
	}
	if len(o.Users) == 0 {
		o.Users = []string{"U0LOADTEST"}
	}
	if len(o.Commands) == 0 {
		o.Commands = []string{"/actions"}
	}
	for _, c := range o.Commands {
		if !strings.HasPrefix(c, "/") {
			return fmt.Errorf("loadtest: command %q does not start with /", c)
		}
	}
	return nil
}

// command is the i-th command to send: users and commands in turn, offset
// so that every user sends every command when the lists' lengths share a
// factor.
func (o *Options) command(i int) slacktest.Command {
	line := o.Commands[i%len(o.Commands)]
	name, text, _ := strings.Cut(line, " ")
	id := o.Users[(i+i/len(o.Commands))%len(o.Users)]
	return slacktest.Command{
		User:    slacktest.User{ID: id, Name: strings.ToLower(id)},
		Command: name,
		Text:    strings.TrimSpace(text),
	}
}

// recorder collects what the requests saw.
type recorder struct {
	mu        sync.Mutex
	sent      int
	dropped   int
	status    map[int]int
	errors    int
	lastErr   error
	latencies []time.Duration
}

func (r *recorder) drop() {
	r.mu.Lock()
	r.dropped++
	r.mu.Unlock()
}

// send posts one signed command and records its outcome.
func (r *recorder) send(ctx context.Context, s *slacktest.Sender, c slacktest.Command, responseURL string) {
	r.mu.Lock()
	r.sent++
	r.mu.Unlock()
	body := []byte(s.CommandForm(c, responseURL).Encode())
	t0 := time.Now()
	resp, err := s.Post(ctx, "application/x-www-form-urlencoded", body, nil)
	d := time.Since(t0)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.errors++
		r.lastErr = err
		return
	}
	r.status[resp.Status]++
	r.latencies = append(r.latencies, d)
}

func (r *recorder) result() Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := Result{Sent: r.sent, Dropped: r.dropped, Status: r.status, Errors: r.errors, Error: r.lastErr}
	l := slices.Clone(r.latencies)
	slices.Sort(l)
	res.P50, res.P90, res.P99 = percentile(l, 50), percentile(l, 90), percentile(l, 99)
	if len(l) > 0 {
		res.Max = l[len(l)-1]
	}
	for _, d := range l {
		if d > SlackDeadline {
			res.OverDeadline++
		}
	}
	return res
}

// percentile returns the p-th percentile of sorted by the nearest-rank
// method: the smallest value at least p% of the values are at or below;
// 0 for none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*p/100+0.999999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// followUpSink is the default response_url: it accepts and counts the
// bot's follow-up posts.
type followUpSink struct {
	srv   *http.Server
	ln    net.Listener
	url   string
	posts atomic.Int64
	done  chan struct{}
}

func startSink() (*followUpSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loadtest: response_url listener: %w", err)
	}
	s := &followUpSink{ln: ln, url: "http://" + ln.Addr().String() + "/response", done: make(chan struct{})}
	s.srv = &http.Server{
		ReadHeaderTimeout: 5 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20)) // only the count matters
			s.posts.Add(1)
		}),
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed when closed
	}()
	return s, nil
}

// close stops the sink after giving follow-ups in progress a moment.
func (s *followUpSink) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		_ = s.srv.Close() // a post still in progress is cut off; it was late anyway
	}
	<-s.done
}
