package bot

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
)

// Work in flight is bounded. Every command, click and event the bot takes
// on runs on after its request (withBudget, background) for up to
// WorkTimeout; with the records service hung, each holds its goroutines,
// connections and buffers for all of it. Unbounded, 270 requests a second
// for 20 s took goroutines from 22 to 9,583 and RSS from 35 to 183 MB.
//
// The bound is sized from the two budgets: a replica keeps its promise
// (an answer within the 3 s ack budget, the rest within WorkTimeout) to
// inFlightRate new requests a second even when every one of them runs its
// full WorkTimeout, which is inFlightRate × WorkTimeout slots (240 at the
// default 15 s). At normal load, requests are answered in milliseconds and
// hold a handful of slots. Past the bound a request is answered at once,
// well within the 3 s, with "msg.busy", and counted
// (recordsbot_work_rejected_total): a person told "try again in a moment"
// is better off than one whose request waits behind thousands of others.
const inFlightRate = 16

// workSlots bounds work in flight; see inFlightRate.
type workSlots struct {
	slots chan struct{}
}

func newWorkSlots(n int) *workSlots { return &workSlots{slots: make(chan struct{}, n)} }

// inFlightSlots is Config.MaxInFlight's default: inFlightRate requests a
// second for the whole of workTimeout.
func inFlightSlots(workTimeout time.Duration) int {
	return max(1, int(inFlightRate*workTimeout/time.Second))
}

// acquire takes a slot without waiting; ok is false when all are taken.
// release gives it back and may be called more than once.
func (w *workSlots) acquire() (release func(), ok bool) {
	select {
	case w.slots <- struct{}{}:
		return sync.OnceFunc(func() { <-w.slots }), true
	default:
		return nil, false
	}
}

// inFlight is how many slots are taken.
func (w *workSlots) inFlight() int { return len(w.slots) }

// admit takes a slot for a request of kind (command, interaction, event);
// ok is false, and the refusal counted and logged, when there is none.
func (s *Server) admit(ctx context.Context, kind metrics.Kind) (release func(), ok bool) {
	slot, ok := s.work.acquire()
	if !ok {
		s.deps.Metrics.WorkRejected(kind)
		s.log.WarnContext(ctx, "too much work in flight; request refused", "kind", kind, "in_flight", s.work.inFlight())
		return nil, false
	}
	s.deps.Metrics.InFlight(s.work.inFlight())
	return func() { slot(); s.deps.Metrics.InFlight(s.work.inFlight()) }, true
}

// background runs f after the current request, on a context detached from
// it and bounded by WorkTimeout, tracked for graceful shutdown. A panic in
// f is recovered, logged with its stack and counted
// (recordsbot_background_panics_total): one bad task must not take down
// serve and every request in flight with it.
func (s *Server) background(ctx context.Context, f func(ctx context.Context)) {
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.WorkTimeout)
		defer cancel()
		defer s.recoverTask(ctx, "background task")
		f(ctx)
	}()
}

// recoverTask, deferred, recovers a panic in a task the bot runs on its
// own, logs it with the stack and counts it.
func (s *Server) recoverTask(ctx context.Context, what string) {
	v := recover()
	if v == nil {
		return
	}
	s.deps.Metrics.BackgroundPanic()
	s.log.ErrorContext(ctx, "panic in "+what+"; recovered", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
}

// busyNotices bounds the "I'm busy" notices sent through response_url at
// once: a flood of clicks must not grow its own flood of posts.
const busyNotices = 32

// sayBusy tells the person who clicked that the bot is busy, through
// responseURL (a click's ack body is ignored by Slack). A click without
// one (the Home tab's), or one past busyNotices, is not told.
func (s *Server) sayBusy(ctx context.Context, responseURL string) {
	if responseURL == "" {
		return
	}
	release, ok := s.busy.acquire()
	if !ok {
		return
	}
	msg := notice(lang.FromContext(ctx).T("msg.busy"))
	s.background(ctx, func(ctx context.Context) {
		defer release()
		if err := s.postResponse(ctx, responseURL, msg); err != nil {
			s.log.WarnContext(ctx, "busy notice failed", "error", err)
		}
	})
}
