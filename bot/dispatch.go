package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/jsonappend"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/store"
)

// reply is a message for Slack: the body of an ack, or of a response_url
// post. Blocks may hold blocks.RawBlock values.
type reply struct {
	ResponseType    string        `json:"response_type,omitempty"`
	ReplaceOriginal bool          `json:"replace_original,omitempty"`
	Text            string        `json:"text"`
	Blocks          []slack.Block `json:"blocks,omitempty"`

	// encoded is the reply's JSON once encode has run, with the
	// ResponseType and ReplaceOriginal it was encoded with: a copy of the
	// reply that changes those (clicks.respond) is encoded afresh.
	encoded         []byte
	encodedType     string
	encodedReplaces bool
	// encodedLength is len(encoded) as a Content-Length header value.
	encodedLength []string
}

// encode returns the reply's JSON, encoding it only once (a memoised
// reply is served as these bytes; see listReply).
func (r *reply) encode() ([]byte, error) {
	if r.fresh() {
		return r.encoded, nil
	}
	buf := getBuffer()
	defer putBuffer(buf)
	b, err := r.appendJSON((*buf)[:0])
	*buf = b
	if err != nil {
		return nil, err
	}
	r.encoded, r.encodedType, r.encodedReplaces = bytes.Clone(b), r.ResponseType, r.ReplaceOriginal
	r.encodedLength = []string{strconv.Itoa(len(b))}
	return r.encoded, nil
}

// fresh reports whether r.encoded is the reply as it now is.
func (r *reply) fresh() bool {
	return r.encoded != nil && r.encodedType == r.ResponseType && r.encodedReplaces == r.ReplaceOriginal
}

// appendJSON appends the reply's JSON, byte for byte what encoding/json
// marshals for it (its exported fields and their tags), written directly:
// with the cache off every /actions reply is encoded afresh, and
// encoding/json's reflection over slack-go's block types was a tenth of
// that path (docs/performance.md). TestReplyEncodingMatchesEncodingJSON
// and FuzzReplyEncoding hold the two to each other.
func (r *reply) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	if r.ResponseType != "" {
		dst = jsonappend.Member(dst, "response_type")
		dst = jsonappend.String(dst, r.ResponseType)
	}
	if r.ReplaceOriginal {
		dst = jsonappend.Member(dst, "replace_original")
		dst = append(dst, "true"...)
	}
	dst = jsonappend.Member(dst, "text")
	dst = jsonappend.String(dst, r.Text)
	if len(r.Blocks) > 0 {
		dst = jsonappend.Member(dst, "blocks")
		var err error
		if dst, err = blocks.AppendJSON(dst, r.Blocks); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// MarshalJSON encodes the reply wherever it is sent (an ack, a
// response_url post, a Socket Mode answer).
func (r *reply) MarshalJSON() ([]byte, error) { return r.encode() }

// encodeAck is the JSON of an answer to Slack: a reply's own encoding
// (ready bytes when memoised), anything else through encoding/json.
func encodeAck(v any) ([]byte, error) {
	if r, ok := v.(*reply); ok && r != nil {
		return r.encode()
	}
	return json.Marshal(v)
}

// buffers holds the scratch space replies are encoded in: a reply is a
// few kilobytes, written once and dropped (or copied once, to be kept).
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// maxPooledBuffer keeps an unusually large reply's buffer out of the pool.
const maxPooledBuffer = 64 << 10

func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

func putBuffer(b *[]byte) {
	if cap(*b) <= maxPooledBuffer {
		*b = (*b)[:0]
		buffers.Put(b)
	}
}

// ephemeral wraps a message as a reply only its reader sees.
func ephemeral(m blocks.Message) *reply {
	return &reply{ResponseType: slack.ResponseTypeEphemeral, Text: m.Text, Blocks: m.Blocks}
}

// notice is a short ephemeral message written by the bot.
func notice(text string) *reply { return ephemeral(blocks.Notice(text)) }

// dispatchSlash answers a slash command. Whatever happens, the user sees
// exactly one message, holding the result: the ack carries it when the
// work finishes within the ack budget; otherwise the ack is an empty 200,
// which shows nothing, and the result follows through response_url.
//
// An interim "Looking that up…" ack would stay on screen above the answer:
// Slack does not honour replace_original on a slash command's own
// response_url, only for messages with interactive components, so the
// follow-up always arrives as a second message (slackapi/bolt-js#2287,
// slackapi/bolt-python#1268; Slack staff: the same response_url cannot
// update the command's earlier ephemeral reply).
func (s *Server) dispatchSlash(ctx context.Context, sc slack.SlashCommand) ack {
	cmd := newCommand(sc)
	start := s.deps.Now()
	handler, ok := s.cmds[cmd.Name]
	if !ok {
		s.deps.Metrics.Request(metrics.Command, "unknown", "help")
		lg := s.knownLang(cmd.UserID)
		return ephemeral(blocks.Help(lg, "", lg.F("cmd.unknown", "command", blocks.EscapeTyped(cmd.Name))))
	}
	if quick := s.quick[cmd.Name]; quick != nil {
		if r := quick(ctx, cmd); r != nil {
			s.deps.Metrics.Acked(metrics.Command, start)
			s.deps.Metrics.Request(metrics.Command, cmd.Name, "inline")
			s.deps.Metrics.Finished(metrics.Command, start)
			return r
		}
	}
	// The profile cache alone, before any work: a busy or failed answer is
	// in the person's language when it is known (reader sets it for good).
	// After the memo's quick answer, which costs no allocation for it.
	ctx = lang.NewContext(ctx, s.knownLang(cmd.UserID))
	release, ok := s.admit(ctx, metrics.Command)
	if !ok {
		s.deps.Metrics.Request(metrics.Command, cmd.Name, "busy")
		return notice(lang.FromContext(ctx).T("msg.busy"))
	}
	// Who asks, and from where, for the audit trail of what it changes.
	ctx = audit.WithActor(audit.WithSurface(ctx, audit.Command), cmd.UserID)
	work := func(ctx context.Context) *reply { return handler(s.reader(ctx, cmd.UserID), cmd) }
	r := s.withBudget(ctx, release, work, func(ctx context.Context, r *reply) {
		if err := s.postResponse(ctx, cmd.ResponseURL, r); err != nil {
			s.log.ErrorContext(ctx, "slash command follow-up failed", "command", cmd.Name, "error", err)
		}
		s.deps.Metrics.Finished(metrics.Command, start)
	})
	s.deps.Metrics.Acked(metrics.Command, start)
	if r == nil {
		s.deps.Metrics.Request(metrics.Command, cmd.Name, "deferred")
		return nil
	}
	s.deps.Metrics.Request(metrics.Command, cmd.Name, "inline")
	s.deps.Metrics.Finished(metrics.Command, start)
	return r
}

// Commands lists the slash commands the bot answers, sorted.
func (s *Server) Commands() []string {
	out := make([]string, 0, 3)
	for c := range s.cmds {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// withBudget runs work on a context detached from the request and waits for
// it for the ack budget. When it is done in time its result is returned;
// otherwise nil is returned and late receives the result when it comes.
// release (the request's slot, see admit) is called once all is done.
func (s *Server) withBudget(ctx context.Context, release func(), work func(context.Context) *reply, late func(context.Context, *reply)) *reply {
	r, _ := budgeted(s, ctx, release, work, func() *reply { return notice(lang.FromContext(ctx).T("err.internal")) }, func(ctx context.Context, r *reply) {
		if r != nil && late != nil {
			late(ctx, r)
		}
	})
	return r
}

// budgeted is withBudget for work of any result: it returns the result and
// true when work is done within the ack budget, else the zero value and
// false, and late (which may be nil) then receives the result. A panic in
// work is logged and its result is failed().
func budgeted[T any](s *Server, ctx context.Context, release func(), work func(context.Context) T, failed func() T, late func(context.Context, T)) (T, bool) {
	done := make(chan T, 1)
	s.background(ctx, func(ctx context.Context) {
		defer func() {
			if v := recover(); v != nil {
				s.deps.Metrics.BackgroundPanic()
				s.log.ErrorContext(ctx, "panic in handler", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				done <- failed()
			}
		}()
		done <- work(ctx)
	})
	timer := time.NewTimer(s.cfg.AckBudget)
	defer timer.Stop()
	select {
	case r := <-done:
		release()
		return r, true
	case <-timer.C:
	}
	s.background(ctx, func(ctx context.Context) {
		defer release()
		select {
		case r := <-done:
			if late != nil {
				late(ctx, r)
			}
		case <-ctx.Done():
		}
	})
	var zero T
	return zero, false
}

// User-facing messages for failures are the catalogue's "err.*" keys:
// each says what happened and what to do.

// userMessage translates err into a short message for the person who asked,
// and logs the detail once. This is the one place errors become words.
// A store that is down is logged through the store's outage log (a line
// when it goes down and a reminder while it stays down), not once per
// request: every request meets it, and the person is told either way.
func (s *Server) userMessage(ctx context.Context, what string, err error) string {
	if store.IsUnavailable(err) {
		s.deps.StoreOutage.Failed(ctx, fmt.Errorf("%s: %w", what, err))
	} else {
		s.log.WarnContext(ctx, what+" failed", "error", err)
	}
	lg := lang.FromContext(ctx)
	var ae *apiclient.Error
	switch {
	case errors.Is(err, store.ErrInvalid):
		// The store's reason is English (it is also logged): an
		// operator's word, quoted as it is.
		return lg.F("err.store_invalid", "reason", blocks.Escape(err.Error()))
	case store.IsUnavailable(err):
		return lg.T("err.store_down")
	case errors.Is(err, apiclient.ErrNotFound):
		return lg.T("err.not_found")
	case errors.Is(err, apiclient.ErrUnauthorized):
		return lg.T("err.records_auth")
	case errors.Is(err, apiclient.ErrForbidden):
		if errors.As(err, &ae) && ae.Scope != "" {
			return lg.F("err.records_scope", "scope", "`"+blocks.Escape(ae.Scope)+"`")
		}
		return lg.T("err.records_forbidden")
	case errors.Is(err, apiclient.ErrRateLimited):
		if errors.As(err, &ae) && ae.RetryAfter > 0 {
			return lg.N("err.records_busy_wait", int(ae.RetryAfter.Round(time.Second)/time.Second))
		}
		return lg.T("err.records_busy")
	case errors.Is(err, apiclient.ErrInvalidResponse):
		return lg.T("err.records_bad")
	case errors.Is(err, apiclient.ErrBadRequest), errors.Is(err, apiclient.ErrInvalidStatus):
		return lg.T("err.records_refused")
	case errors.Is(err, apiclient.ErrUnavailable), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return lg.T("err.records_down")
	}
	return lg.T("err.internal")
}

// echoUnreadable reports whether err is slack-go failing to decode a
// successful answer, rather than Slack refusing the call: not an ok:false
// error, a rate limit, an HTTP status or a transport error. Since v0.34
// slack-go refuses a whole answer whose echoed message holds a block
// element type it does not know, which happens when the bot sends back a
// message's own blocks unchanged.
func echoUnreadable(err error) bool {
	var (
		se  slack.SlackErrorResponse
		sep *slack.SlackErrorResponse
		rl  *slack.RateLimitedError
		sc  slack.StatusCodeError
		ue  *url.Error
	)
	return err != nil && !errors.As(err, &se) && !errors.As(err, &sep) && !errors.As(err, &rl) &&
		!errors.As(err, &sc) && !errors.As(err, &ue) &&
		!errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
