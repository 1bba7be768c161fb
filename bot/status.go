package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// outcome is how a status change ended, other than with an error.
type outcome int

const (
	changed   outcome = iota // the records service accepted the new status
	unchanged                // the action already had it; nothing was sent
	forbidden                // the actor is neither the assignee nor an admin
	gone                     // no such action
	duplicate                // the same change was already under way (a double click)
)

// inflight collapses identical status changes that arrive together (double
// clicks, two people clicking at once): the first does the PUT, the others
// wait for it and report a duplicate, so the records service sees one write
// and the message is updated once.
type inflight struct {
	mu    sync.Mutex
	calls map[string]chan struct{}
}

// join returns leader=true and a done func for the first caller with key;
// later callers block until the leader is done and get leader=false.
func (f *inflight) join(ctx context.Context, key string) (leader bool, done func()) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]chan struct{}{}
	}
	if ch, ok := f.calls[key]; ok {
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		return false, func() {}
	}
	ch := make(chan struct{})
	f.calls[key] = ch
	f.mu.Unlock()
	return true, func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(ch)
	}
}

// setStatus changes action id to status to on behalf of Slack user actor.
// The action is re-read (through the short-lived cache) and the actor's
// right to change it checked before anything is sent: a button's value is
// never trusted alone. The returned action is the one after the change, or
// as found.
func (s *Server) setStatus(ctx context.Context, actor, id string, to apiclient.Status) (apiclient.Action, outcome, error) {
	if !to.Valid() {
		return apiclient.Action{}, gone, fmt.Errorf("set status %q: %w", to, apiclient.ErrInvalidStatus)
	}
	a, found, err := s.actions.find(ctx, id)
	if err != nil {
		return a, gone, err
	}
	if !found {
		return a, gone, nil
	}
	if !s.isAdmin(actor) {
		me, err := s.users.lookup(ctx, actor)
		if !me.owns(a.Assignee) {
			if err != nil && !me.mapped() {
				// Slack could not be asked who the actor is; say so rather
				// than refuse someone who may be the assignee.
				return a, gone, fmt.Errorf("identify %s: %w", actor, errSlackLookup)
			}
			return a, forbidden, nil
		}
	}
	if a.Status == to {
		return a, unchanged, nil
	}
	leader, done := s.changes.join(ctx, id+"\x00"+string(to))
	if !leader {
		return a, duplicate, nil
	}
	defer done()
	updated, err := s.deps.Records.UpdateActionStatus(ctx, id, to)
	if err != nil {
		if isNotFound(err) {
			return a, gone, nil
		}
		err = fmt.Errorf("update action %s: %w", id, err)
		if writeUnconfirmed(err) {
			// The records may hold the change: the next list must come
			// from them, not from a cache that says otherwise.
			s.actions.invalidate()
			err = fmt.Errorf("%w: %w", errUnconfirmed, err)
		}
		return a, gone, err
	}
	// Some servers answer a PUT with a partial row; keep what we knew.
	merged := *updated
	if merged.ID == "" {
		merged.ID = a.ID
	}
	if merged.Title == "" {
		merged.Title = a.Title
	}
	if merged.Assignee.IsZero() {
		merged.Assignee = a.Assignee
	}
	if merged.Deadline.IsZero() {
		merged.Deadline, merged.DeadlineHasTime = a.Deadline, a.DeadlineHasTime
	}
	if merged.MeetingID == "" {
		merged.MeetingID, merged.MeetingTitle = a.MeetingID, a.MeetingTitle
	}
	if merged.Committee == "" {
		merged.Committee = a.Committee
	}
	if merged.Status == "" {
		merged.Status = to
	}
	s.actions.put(merged)
	return merged, changed, nil
}

var errSlackLookup = errors.New("slack profile lookup failed")

// errUnconfirmed marks a status change that was sent but whose answer never
// arrived or could not be read: the records may or may not hold it.
var errUnconfirmed = errors.New("status change unconfirmed")

// writeUnconfirmed reports whether a failed update may still have been
// applied: the request went out but no readable answer came back (a
// timeout, a connection dropped mid-answer, a 2xx answer that does not
// decode or is over the size cap). An answer with an error status is taken
// at its word, and a request that never connected changed nothing. The
// client retries, and only the last attempt's error is judged: an earlier
// attempt cut off mid-answer, then one that could not connect, reads as
// "nothing changed". That needs the service to go down between two
// attempts a fraction of a second apart, which is rare enough to accept.
func writeUnconfirmed(err error) bool {
	var ae *apiclient.Error
	if !errors.As(err, &ae) {
		return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
	}
	if ae.StatusCode >= 200 && ae.StatusCode < 300 {
		return true
	}
	var op *net.OpError
	return ae.StatusCode == 0 && errors.Is(ae.Kind, apiclient.ErrUnavailable) && !(errors.As(err, &op) && op.Op == "dial")
}

func isNotFound(err error) bool { return errors.Is(err, apiclient.ErrNotFound) }

// statusDone is the past tense shown after a change.
func statusDone(st apiclient.Status) string {
	switch st {
	case apiclient.StatusComplete:
		return "marked complete"
	case apiclient.StatusInProgress:
		return "started"
	case apiclient.StatusDeferred:
		return "deferred"
	case apiclient.StatusCancelled:
		return "cancelled"
	case apiclient.StatusOpen:
		return "reopened"
	}
	return "set to " + string(st)
}

const msgNotYours = ":no_entry: Only the action's assignee or an admin can change this."

// statusOutcomeText is the message for a status change that did not happen.
func (s *Server) statusOutcomeText(ctx context.Context, id string, a apiclient.Action, to apiclient.Status, oc outcome, err error) string {
	switch {
	case errors.Is(err, errUnconfirmed):
		return s.userMessage(ctx, "status change", err) + " I can't tell whether the change was made: run `/actions` to see the action's current status."
	case errors.Is(err, errSlackLookup):
		s.log.WarnContext(ctx, "status change: actor lookup failed", "error", err)
		return ":warning: I couldn't check your Slack profile just now, so nothing was changed. Please try again in a minute."
	case err != nil:
		return s.userMessage(ctx, "status change", err) + " Nothing was changed."
	case oc == gone:
		return fmt.Sprintf(":mag: Action `%s` doesn't exist (any more). Use `/actions` to see your current ones.", blocks.Escape(id))
	case oc == forbidden:
		return msgNotYours
	case oc == unchanged:
		return fmt.Sprintf(":information_source: *%s* is already %s.", blocks.Escape(a.Title), statusWords(to))
	}
	return ""
}

// commandSetStatus is /actions complete <id> and friends.
func (s *Server) commandSetStatus(ctx context.Context, caller, id string, to apiclient.Status) *reply {
	a, oc, err := s.setStatus(ctx, caller, id, to)
	if err != nil || (oc != changed && oc != duplicate) {
		return notice(s.statusOutcomeText(ctx, id, a, to, oc, err))
	}
	now := s.deps.Now()
	row := s.actionRow(&a, now, true, false, &blocks.Change{By: caller, At: now, Status: string(to)})
	text := fmt.Sprintf(":white_check_mark: *%s* %s.", blocks.Escape(a.Title), statusDone(to))
	msg := blocks.Notice(text)
	msg.Blocks = append(msg.Blocks, blocks.ActionRowBlocks(row)...)
	return ephemeral(msg)
}
