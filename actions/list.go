package actions

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/cache"
)

// Records is what the domain needs of the records service;
// *apiclient.Client implements it.
type Records interface {
	ListActions(ctx context.Context, opts *apiclient.ListActionsOptions) (*apiclient.ActionList, error)
	UpdateActionStatus(ctx context.Context, id string, status apiclient.Status) (*apiclient.Action, error)
	// GetMeeting is read for the title of a meeting the actions name only
	// by ID (see meetingTitles).
	GetMeeting(ctx context.Context, id string) (*apiclient.Meeting, error)
}

// activeKey is the cache key of the list of actions still to do.
const activeKey = "active"

// listKeys are the cache keys of the lists that together hold every
// action, each status in one of them: activeKey for those still to do
// (StillToDo), then each other status under its own name, in the order
// find reads them (the status most often reopened first).
var listKeys = []string{activeKey, string(apiclient.StatusComplete), string(apiclient.StatusDeferred), string(apiclient.StatusCancelled)}

// findKeys is listKeys as find reads them: the actions still to do twice
// (within the TTL, then fresh).
var findKeys = append([]string{activeKey}, listKeys...)

// sharedList is the organisation's action list, shared by every user and
// command for a short TTL: a burst of commands costs one fetch, concurrent
// fetches collapse into one, and a change made through the bot is written
// into the cached list at once, so the person who clicked never sees their
// own change undone.
//
// An organisation's action log only grows, so the shared list holds the
// actions still to do (fetched by status: open, then in progress), whose
// number stays about the same over the years; the other statuses, asked
// for rarely (/actions complete, a Reopen button), are fetched on demand
// and kept for the same short time under their own key.
//
// The cost is staleness: a change made outside the bot (another replica,
// the records service's own UI) shows up at most two ttls later (see newSharedList). A negative ttl
// turns the cache off; every read then goes to the records service.
type sharedList struct {
	records Records
	off     bool
	lists   *cache.TTL[*apiclient.ActionList]
	titles  *meetingTitles
	// finished holds the actions the bot itself moved out of the
	// active list, for finishedTTL: an Undo or Reopen pressed soon after
	// finds its action here rather than by reading the whole history of
	// that status (the API has no GET of one action).
	finished *cache.TTL[apiclient.Action]
	// last holds, with the cache off, the list last made for each key
	// (see again).
	lastMu sync.Mutex
	last   map[string]lastList
}

// finishedTTL is how long an action the bot finished is found without
// reading the finished lists. Someone who completes by mistake reopens
// within minutes; the action's assignee, all that the change rule reads,
// hardly changes in a day.
const finishedTTL = 24 * time.Hour

func newSharedList(r Records, ttl time.Duration, now func() time.Time) *sharedList {
	// A list past its TTL is still shown, for as long again, while one
	// refresh runs in the background: no command waits for a refresh of
	// a list the bot already has (with a large organisation a refresh
	// takes tens of milliseconds, which would otherwise be every
	// command's p99). So a change made outside the bot shows up at most
	// two TTLs later; see docs/performance.md.
	return &sharedList{records: r, off: ttl < 0, lists: cache.New[*apiclient.ActionList](ttl, now).ServeStale(ttl),
		titles: newMeetingTitles(r, now), finished: cache.New[apiclient.Action](finishedTTL, now)}
}

// get returns the actions in status st; st "" means those still to do and
// All every action. The list is shared: callers must not modify it.
func (l *sharedList) get(ctx context.Context, st apiclient.Status) (*apiclient.ActionList, error) {
	if l.off && st != "" && st != All {
		// No cache to share: ask for just the one status.
		return l.load(ctx, string(st), showable)
	}
	switch {
	case st == "" || st == "active":
		return l.load(ctx, activeKey, showable)
	case st == All:
		return l.all(ctx)
	}
	if StillToDo(st) {
		// One of the active statuses: the shared list holds it.
		return l.load(ctx, activeKey, showable)
	}
	return l.load(ctx, string(st), showable)
}

// peek returns the list get would return for st when it is cached and
// fresh. The merged list of every status (All) is built anew by each get,
// so it never is.
func (l *sharedList) peek(st apiclient.Status) (*apiclient.ActionList, bool) {
	if l.off || st == All {
		return nil, false
	}
	key := string(st)
	if st == "" || st == "active" || StillToDo(st) {
		key = activeKey
	}
	return l.lists.Peek(key)
}

// All asks get for every action, whatever its status.
const All apiclient.Status = "all"

// all merges every status's list.
func (l *sharedList) all(ctx context.Context) (*apiclient.ActionList, error) {
	out := &apiclient.ActionList{}
	for _, key := range listKeys {
		part, err := l.load(ctx, key, showable)
		if err != nil {
			return nil, err
		}
		out.Actions = append(out.Actions, part.Actions...)
		out.Truncated = out.Truncated || part.Truncated
		out.Total += part.Total
	}
	return out, nil
}

// age is how old a list load may return.
type age int

const (
	// showable: a list past its TTL is returned while a background
	// refresh runs (lists shown to people).
	showable age = iota
	// withinTTL: a list past its TTL is fetched first (the re-read
	// before a change).
	withinTTL
	// fetched: the list is fetched whatever its age.
	fetched
)

// load returns the list under key (activeKey or a status), as old as
// maxAge allows.
func (l *sharedList) load(ctx context.Context, key string, maxAge age) (*apiclient.ActionList, error) {
	fetch := func(ctx context.Context) (*apiclient.ActionList, error) {
		statuses := []apiclient.Status{apiclient.Status(key)}
		if key == activeKey {
			statuses = active
		}
		// The statuses are read at once: a command that reads them (the
		// cache off, or cold) waits for one records call, not one per
		// status.
		parts := make([]*apiclient.ActionList, len(statuses))
		errs := make([]error, len(statuses))
		var wg sync.WaitGroup
		for i, st := range statuses[1:] {
			wg.Go(func() { parts[i+1], errs[i+1] = l.records.ListActions(ctx, &apiclient.ListActionsOptions{Status: st}) })
		}
		parts[0], errs[0] = l.records.ListActions(ctx, &apiclient.ListActionsOptions{Status: statuses[0]})
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("list %s actions: %w", statuses[i], err)
			}
		}
		if l.off {
			return l.again(ctx, key, parts), nil
		}
		return l.merge(ctx, parts), nil
	}
	switch {
	case l.off:
		return fetch(ctx)
	case maxAge == fetched:
		return l.lists.Load(ctx, key, fetch)
	case maxAge == showable:
		return l.lists.GetStale(ctx, key, fetch)
	}
	return l.lists.Get(ctx, key, fetch)
}

// within returns the actions still to do as a list up to maxAge old when
// one is held, else as get does.
func (l *sharedList) within(ctx context.Context, maxAge time.Duration) (*apiclient.ActionList, error) {
	if !l.off {
		if list, ok := l.lists.PeekWithin(activeKey, maxAge); ok {
			return list, nil
		}
	}
	return l.get(ctx, "")
}

// merge is the list of the parts read for one key: their actions one
// after the other, with the meeting titles the records left out.
func (l *sharedList) merge(ctx context.Context, parts []*apiclient.ActionList) *apiclient.ActionList {
	out := &apiclient.ActionList{}
	for _, part := range parts {
		if out.Actions == nil {
			out.Actions = part.Actions // the client's own copy: no need for another
		} else {
			out.Actions = append(out.Actions, part.Actions...)
		}
		out.Truncated = out.Truncated || part.Truncated
		if part.Truncated && part.Total > 0 {
			out.Total += part.Total
		} else {
			out.Total += len(part.Actions)
		}
	}
	out.Actions = l.titles.fill(ctx, out.Actions)
	return out
}

// again is merge with the cache off, where every command reads the list:
// when the records client answered with the very lists it gave last time
// for key (the same bytes came back, see apiclient.WithConditionalRequests)
// and no meeting title is left to fill, it is the list made from them last
// time, so that what was drawn from that list can be served again (the
// bot's reply memo) instead of drawn again from equal data.
func (l *sharedList) again(ctx context.Context, key string, parts []*apiclient.ActionList) *apiclient.ActionList {
	l.lastMu.Lock()
	prev, ok := l.last[key]
	l.lastMu.Unlock()
	if ok && slices.Equal(prev.parts, parts) {
		if filled := l.titles.fill(ctx, prev.list.Actions); len(filled) == 0 || &filled[0] == &prev.list.Actions[0] {
			return prev.list
		}
	}
	out := l.merge(ctx, parts)
	l.lastMu.Lock()
	if l.last == nil {
		l.last = map[string]lastList{}
	}
	l.last[key] = lastList{parts: parts, list: out}
	l.lastMu.Unlock()
	return out
}

// lastList is the list last made with the cache off for a key, and the
// records client's lists it was made from.
type lastList struct {
	parts []*apiclient.ActionList
	list  *apiclient.ActionList
}

// find returns the action with the given ID, looking first among those
// still to do, then (on a miss) in a fresh list of them, then among the
// actions the bot itself finished lately, then in the other statuses; so
// an action created a moment ago, or a finished one whose Reopen button
// was pressed, is found, and reading a finished status's whole history is
// left for actions finished elsewhere or long ago.
func (l *sharedList) find(ctx context.Context, id string) (apiclient.Action, bool, error) {
	for i, key := range findKeys {
		if i == 1 && l.off {
			continue // without a cache the first read was already fresh
		}
		if i == 2 {
			if a, ok := l.finished.Peek(id); ok {
				return a, true, nil
			}
		}
		maxAge := withinTTL
		if i == 1 {
			maxAge = fetched
		}
		list, err := l.load(ctx, key, maxAge)
		if err != nil {
			return apiclient.Action{}, false, err
		}
		for _, a := range list.Actions {
			if a.ID == id {
				return a, true, nil
			}
		}
	}
	return apiclient.Action{}, false, nil
}

// invalidate drops every cached list, so the next read fetches afresh.
func (l *sharedList) invalidate() {
	for _, key := range listKeys {
		l.lists.Forget(key)
	}
}

// put writes a changed action into the cached lists: out of the list of
// its old status, into the list of its new one (copy on write: lists
// already handed out stay as they were).
func (l *sharedList) put(a apiclient.Action) {
	newKey := string(a.Status)
	if StillToDo(a.Status) {
		newKey = activeKey
		l.finished.Forget(a.ID)
	} else {
		l.finished.Put(a.ID, a)
	}
	for _, key := range listKeys {
		l.lists.Update(key, func(old *apiclient.ActionList) *apiclient.ActionList {
			cp := &apiclient.ActionList{Truncated: old.Truncated, Actions: make([]apiclient.Action, 0, len(old.Actions)+1)}
			found := false
			for _, x := range old.Actions {
				if x.ID != a.ID {
					cp.Actions = append(cp.Actions, x)
					continue
				}
				found = true
				if key == newKey {
					cp.Actions = append(cp.Actions, a)
				}
			}
			if !found && key == newKey {
				cp.Actions = append(cp.Actions, a)
			}
			return cp
		})
	}
}

// wait blocks until background refreshes are over.
func (l *sharedList) wait() { l.lists.Wait() }
