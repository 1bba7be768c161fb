package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"sort"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
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
}

// encode returns the reply's JSON, encoding it only once (a memoised
// reply is served as these bytes; see listReply).
func (r *reply) encode() ([]byte, error) {
	if r.encoded != nil && r.encodedType == r.ResponseType && r.encodedReplaces == r.ReplaceOriginal {
		return r.encoded, nil
	}
	type plain reply // the same fields without this method
	b, err := json.Marshal((*plain)(r))
	if err != nil {
		return nil, err
	}
	r.encoded, r.encodedType, r.encodedReplaces = b, r.ResponseType, r.ReplaceOriginal
	return b, nil
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
		s.deps.Metrics.request("command", "unknown", "help")
		return ephemeral(blocks.Help("", fmt.Sprintf("I don't know the command `%s`.", blocks.EscapeTyped(cmd.Name))))
	}
	if quick := s.quick[cmd.Name]; quick != nil {
		if r := quick(cmd); r != nil {
			s.deps.Metrics.acked("command", start)
			s.deps.Metrics.request("command", cmd.Name, "inline")
			s.deps.Metrics.finished("command", start)
			return r
		}
	}
	release, ok := s.admit(ctx, "command")
	if !ok {
		s.deps.Metrics.request("command", cmd.Name, "busy")
		return notice(msgBusy)
	}
	work := func(ctx context.Context) *reply { return handler(ctx, cmd) }
	r := s.withBudget(ctx, release, work, func(ctx context.Context, r *reply) {
		if err := s.postResponse(ctx, cmd.ResponseURL, r); err != nil {
			s.log.ErrorContext(ctx, "slash command follow-up failed", "command", cmd.Name, "error", err)
		}
		s.deps.Metrics.finished("command", start)
	})
	s.deps.Metrics.acked("command", start)
	if r == nil {
		s.deps.Metrics.request("command", cmd.Name, "deferred")
		return nil
	}
	s.deps.Metrics.request("command", cmd.Name, "inline")
	s.deps.Metrics.finished("command", start)
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
	r, _ := budgeted(s, ctx, release, work, func() *reply { return notice(msgInternal) }, func(ctx context.Context, r *reply) {
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
				s.deps.Metrics.backgroundPanic()
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

// User-facing messages for failures. Each says what happened and what to do.
const (
	msgInternal      = ":warning: Something went wrong on recordsbot's side. Please try again; if it keeps happening, tell the app's admin."
	msgRecordsDown   = ":warning: The records service isn't answering right now. Please try again in a few minutes."
	msgRecordsAuth   = ":warning: recordsbot can't sign in to the records service: its API key was refused. Please tell the app's admin."
	msgRecordsBad    = ":warning: The records service sent an answer recordsbot couldn't read. Please try again later; if it keeps happening, tell the app's admin."
	msgRecordsRefuse = ":warning: The records service refused that request. Please check what you typed and try again."
)

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
	var ae *apiclient.Error
	switch {
	case errors.Is(err, store.ErrInvalid):
		return ":thinking_face: I couldn't save that: " + blocks.Escape(err.Error()) + "."
	case store.IsUnavailable(err):
		return msgStoreDown
	case errors.Is(err, apiclient.ErrNotFound):
		return ":mag: I couldn't find that in the records. Check the ID and try again."
	case errors.Is(err, apiclient.ErrUnauthorized):
		return msgRecordsAuth
	case errors.Is(err, apiclient.ErrForbidden):
		scope := "the needed"
		if errors.As(err, &ae) && ae.Scope != "" {
			scope = "`" + blocks.Escape(ae.Scope) + "`"
		}
		return fmt.Sprintf(":lock: recordsbot's records API key lacks the %s permission. Please ask the app's admin to add it.", scope)
	case errors.Is(err, apiclient.ErrRateLimited):
		wait := ""
		if errors.As(err, &ae) && ae.RetryAfter > 0 {
			wait = fmt.Sprintf(" in %d seconds", int(ae.RetryAfter.Round(time.Second)/time.Second))
		}
		return ":hourglass: The records service is busy right now. Please try again" + wait + "."
	case errors.Is(err, apiclient.ErrInvalidResponse):
		return msgRecordsBad
	case errors.Is(err, apiclient.ErrBadRequest), errors.Is(err, apiclient.ErrInvalidStatus):
		return msgRecordsRefuse
	case errors.Is(err, apiclient.ErrUnavailable), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return msgRecordsDown
	}
	return msgInternal
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

func isRateLimited(err error) bool {
	var rl *slack.RateLimitedError
	return errors.As(err, &rl)
}
