package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/onewrite"
	"github.com/recordsbot/recordsbot/internal/requestid"
	"github.com/recordsbot/recordsbot/internal/retry"
)

// verifiedHandler handles a request whose body has been read and whose
// Slack signature checked; ctx is the request's context with its request
// ID.
type verifiedHandler func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte)

// verified reads the body once through a size cap (413 over it) and checks
// Slack's signature before anything else looks at the request. A failure is
// a bare 401 and one warning without the body or the signature.
//
// The one exception is Slack's certificate check of a command's request
// URL: a form with ssl_check=1, which Slack sends without a signature
// (slackapi/bolt-js#1397: no X-Slack-Signature nor timestamp header). It
// gets an empty 200 and nothing else: whatever else such a body carries (a
// command, a payload) is never read, as an unsigned ssl_check must not be a
// way around the signature (slackapi/bolt-js#2898 and #2899; the value
// must be exactly "1").
func verified(secret string, maxBytes int64, now func() time.Time, log *slog.Logger, next verifiedHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The request ID is given here, not by requestid.Middleware: a
		// copy of the request with the new context would be the largest
		// allocation of a cached /actions.
		ctx := requestid.New(r.Context())
		body, err := readBody(w, r, maxBytes)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				log.WarnContext(ctx, "slack request too large", "limit", maxBytes)
				http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if isSSLCheck(r.Header, body) {
			log.DebugContext(ctx, "slack ssl_check answered")
			w.WriteHeader(http.StatusOK)
			return
		}
		if err := Verify(r.Header, body, secret, now()); err != nil {
			log.WarnContext(ctx, "slack request refused", "reason", err.Error(), "remote", r.RemoteAddr)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next(ctx, w, r, body)
	})
}

// readBody reads r's body, at most maxBytes (a *http.MaxBytesError
// over it). Slack says how long its bodies are, so a short one (a slash
// command is under a kilobyte) is read into one slice of that length,
// where io.ReadAll would grow its own: every request from Slack comes
// this way.
func readBody(w http.ResponseWriter, r *http.Request, maxBytes int64) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > min(maxBytes, maxExactBody) {
		// Unknown (chunked), long, or too long: the general way, which
		// grows with what arrives and stops at the limit.
		return io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
	}
	// net/http's body stops at Content-Length, and reports a body cut
	// short as io.ErrUnexpectedEOF.
	body := make([]byte, n)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// maxExactBody is the longest body readBody allocates whole before it
// arrives: the length is the sender's word, and the signature is checked
// only once the body is read, so a longer claim must not reserve memory
// that no byte has paid for.
const maxExactBody = 16 << 10

// isSSLCheck reports whether a request is Slack's ssl_check: a form body
// whose ssl_check field is exactly "1".
func isSSLCheck(h http.Header, body []byte) bool {
	if !bytes.Contains(body, []byte("ssl_check")) || !strings.HasPrefix(h.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return false
	}
	form, err := url.ParseQuery(string(body))
	return err == nil && form.Get("ssl_check") == "1"
}

// handleSlack takes everything Slack sends to the one endpoint, like Bolt:
// Events API JSON, interactivity forms (payload=) and slash-command forms.
func handleSlack(s *Server) verifiedHandler {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) {
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			// Absent on a first delivery (0); only the log lines read it.
			retry, _ := strconv.Atoi(r.Header.Get("X-Slack-Retry-Num"))
			writeAck(ctx, w, s.log, s.dispatchEvent(ctx, body, retry))
			return
		}
		// A slash command, read in one pass; anything else the general
		// way.
		if sc, ok := slashForm(body); ok {
			writeAck(ctx, w, s.log, s.dispatchSlash(ctx, sc))
			return
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			s.log.WarnContext(ctx, "slack request: malformed form", "error", err)
			http.Error(w, "malformed form body", http.StatusBadRequest)
			return
		}
		switch {
		case form.Has("payload"):
			writeAck(ctx, w, s.log, s.dispatchInteraction(ctx, []byte(form.Get("payload"))))
		case form.Has("command"):
			// SlashCommandParse reads r.PostForm; handing it the form
			// parsed above keeps slack-go's field mapping without a second
			// parse of the body.
			cmd, err := slack.SlashCommandParse(&http.Request{Form: form, PostForm: form})
			if err != nil {
				s.log.WarnContext(ctx, "slack request: malformed slash command", "error", err)
				http.Error(w, "malformed slash command", http.StatusBadRequest)
				return
			}
			writeAck(ctx, w, s.log, s.dispatchSlash(ctx, cmd))
		default:
			s.log.WarnContext(ctx, "slack request: neither command, payload nor event")
			http.Error(w, "unrecognised request", http.StatusBadRequest)
		}
	}
}

// ack is the body of the answer to Slack: nil for an empty 200.
type ack = any

func writeAck(ctx context.Context, w http.ResponseWriter, log *slog.Logger, body ack) {
	if body == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	var (
		b   []byte
		err error
	)
	if r, ok := body.(*reply); ok && r != nil && !r.fresh() {
		// A reply sent once is encoded in a pooled buffer rather than kept.
		buf := getBuffer()
		defer putBuffer(buf)
		b, err = r.appendJSON((*buf)[:0])
		*buf = b
	} else {
		b, err = encodeAck(body)
	}
	if err != nil {
		// Only a bug gets here; Slack still gets a 200 so it doesn't retry.
		log.ErrorContext(ctx, "encode slack reply", "error", err)
		w.WriteHeader(http.StatusOK)
		return
	}
	// The keys are canonical already, and net/http copies the header
	// map when the header is written, so the value can be shared.
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = contentLength(body, b)
	w.WriteHeader(http.StatusOK)
	if len(b) <= oneWrite {
		w.Write(b)
		return
	}
	// net/http writes a longer answer in several writes: held, they are
	// sent as one (internal/onewrite).
	conn := onewrite.From(ctx)
	conn.Hold()
	w.Write(b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	conn.Send()
}

// contentLength is the Content-Length of b, the encoding of body: a
// memoised reply's own, written once (the header map is copied when it is
// written, so the value can be shared), or b's length afresh.
func contentLength(body ack, b []byte) []string {
	if r, ok := body.(*reply); ok && r != nil && r.fresh() && len(r.encodedLength) == 1 {
		return r.encodedLength
	}
	return []string{strconv.Itoa(len(b))}
}

// oneWrite is the longest answer net/http sends in one write call: its
// 4 kB connection buffer less room for the status line and headers.
const oneWrite = 4096 - 512

// jsonContentType is the Content-Type of every JSON answer to Slack:
// application/json; charset=utf-8.
var jsonContentType = []string{mime.FormatMediaType("application/json", map[string]string{"charset": "utf-8"})}

// handleHealthz is the liveness probe: cheap, no dependencies.
func handleHealthz() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	}
}

// handleReadyz is the readiness probe: whether this process can take
// requests (503 while it shuts down), not whether the records service,
// Slack or the store work: every replica shares those, and an outage of
// one is better met by the bot's own message than by no replica at all
// (recordsbot_dependency_up reports them). The reason is one of the
// process's own, never a dependency's URL.
func handleReadyz(ready func() error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := ready(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "not ready: "+err.Error()+"\n")
			return
		}
		io.WriteString(w, "ready\n")
	}
}

// postResponse posts msg to a response_url, retrying briefly (through
// internal/retry, honouring Retry-After) when Slack is rate limiting or
// failing.
func (s *Server) postResponse(ctx context.Context, responseURL string, msg any) error {
	if responseURL == "" {
		return errors.New("post response: no response_url")
	}
	b, err := encodeAck(msg)
	if err != nil {
		return err
	}
	// The answer must go out even when the work used up its own time (a
	// timeout is exactly what the user needs to hear about).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	policy := retry.Policy{Attempts: 3, Base: 200 * time.Millisecond, Max: 2 * time.Second, MaxWait: 5 * time.Second}
	return retry.Do(ctx, policy, func(ctx context.Context, _ int) retry.Result {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, responseURL, bytes.NewReader(b))
		if err != nil {
			return retry.Result{Err: err}
		}
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		resp, err := s.deps.HTTPClient.Do(req)
		if err != nil {
			// A transport error names the URL, and a response_url is a
			// credential (anyone holding it can post for 30 minutes):
			// keep only the cause.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			err = fmt.Errorf("response_url: %w", err)
			return retry.Result{Err: err, Retry: true}
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return retry.Result{}
		}
		err = errors.New("response_url: HTTP " + strconv.Itoa(resp.StatusCode))
		r := retry.Result{Err: err, Retry: resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500}
		if ra, aerr := strconv.Atoi(resp.Header.Get("Retry-After")); aerr == nil && ra > 0 {
			r.After = time.Duration(ra) * time.Second
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			s.deps.Metrics.SlackWait("response_url")
		}
		return r
	})
}
