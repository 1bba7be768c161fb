package bot

import (
	"context"
	"maps"
	"sync"
	"time"
	"weak"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// listReply is /actions' list for caller. While the shared action list is
// the same version, the caller's profile the same and no action of theirs
// has turned overdue since, the list they are shown does not change, so
// its reply is drawn and encoded once and then served as ready bytes:
// under load most commands cost the signature check, two cache look-ups
// and a write (see docs/performance.md).
//
// A memoised reply repeats its render revisions (blocks.RowBlockID) in
// each new message it is sent as. Slack's rule is that a block_id be
// unique within a message and new in each version of one (an update); a
// slash command's reply is always a new message, and every redraw of it
// (a click, "Show more") is drawn afresh with new revisions, never from
// the memo.
func (u *actionsUI) listReply(ctx context.Context, caller string, q actionsQuery) *reply {
	src, r, _ := u.pageSource(ctx, caller, q, live{})
	if r != nil {
		return r
	}
	now := u.now()
	// A profile Slack could not give is not memoised (the next command
	// asks again), nor is a meeting's list (the meeting is read afresh).
	if u.memo == nil || src.meErr != nil || src.ownerErr != nil || src.meeting != nil {
		src.snoozes = u.snoozes.running(ctx, src.me)
		r, _ := u.drawPage(src, caller, q, nil, now)
		return r
	}
	// With the cache on, a snooze made here forgets the caller's memo
	// (clickSnooze) and one made on another replica shows once the list
	// is refreshed, a new version: no store read. With it off, the list
	// may stay one version for as long as the records do not change, so
	// the snoozes are read for every command (one short read) and a reply
	// drawn with others is not served.
	readFirst := !u.actions.Caches()
	if readFirst {
		src.snoozes = u.snoozes.running(ctx, src.me)
	}
	key := memoKey{caller: caller, q: q}
	if r, ok := u.memo.get(key, src, now, readFirst); ok {
		return r
	}
	if !readFirst {
		src.snoozes = u.snoozes.running(ctx, src.me)
	}
	r, until := u.drawPage(src, caller, q, nil, now)
	u.memo.put(key, src, until, r)
	return r
}

// quickActions answers /actions from the memo alone, on the request's
// own goroutine, when the caller's profile and the list are in memory and
// their reply memoised; nil otherwise (commandActions then answers,
// within the ack budget). It reads through the same pageSource as every
// list, from memory (fromMemory): no Slack or records call, no
// background work, no timer. A notice (another person's list refused) is
// left to commandActions, which answers it in the caller's language.
func (u *actionsUI) quickActions(ctx context.Context, cmd command) *reply {
	if u.memo == nil || !u.actions.Caches() {
		return nil
	}
	q, _, ok := parseActionsText(lang.English, cmd.Args) // the note is not shown
	if !ok || q.verb != "" || q.history != "" || q.snoozed {
		return nil
	}
	src, r, ok := u.pageSource(ctx, cmd.UserID, q, fromMemory{})
	if !ok || r != nil {
		return nil
	}
	r, _ = u.memo.get(memoKey{caller: cmd.UserID, q: q}, src, u.now(), false)
	return r
}

// memoKey is what a memoised list reply answers: who asked, and what for.
// A per-viewer rule (what the caller may see) is covered by the caller
// and their profile in the entry.
type memoKey struct {
	caller string
	q      actionsQuery
}

// memoEntry is one encoded reply and what it was drawn from.
type memoEntry struct {
	// list is the version of the shared list the reply shows; weak, so a
	// reply kept here does not keep an old list (megabytes with a large
	// organisation) alive.
	list      weak.Pointer[apiclient.ActionList]
	me, owner actions.Member
	// until is when an action of the list turns overdue (zero: never).
	until time.Time
	// snoozes are the caller's snoozes the reply shows (pageSource).
	snoozes map[string]time.Time
	reply   reply
}

// replyMemo holds encoded /actions replies, at most memoBudget bytes of
// them: past that it starts again empty, which costs one draw per caller.
type replyMemo struct {
	mu      sync.Mutex
	entries map[memoKey]*memoEntry
	size    int
}

// memoBudget bounds the memo's replies: a reply is 1 to 40 kB, so this
// keeps a few thousand callers' lists in a few megabytes.
const memoBudget = 8 << 20

func newReplyMemo() *replyMemo { return &replyMemo{entries: map[memoKey]*memoEntry{}} }

// get returns the reply memoised for key, if it was drawn from what src
// holds (its snoozes too, with snoozes set) and is still right at now.
func (m *replyMemo) get(key memoKey, src pageSource, now time.Time, snoozes bool) (*reply, bool) {
	m.mu.Lock()
	e := m.entries[key]
	m.mu.Unlock()
	if e == nil || e.list != weak.Make(src.list) || (!e.until.IsZero() && !now.Before(e.until)) ||
		!e.me.Equal(src.me) || !e.owner.Equal(src.owner) || (snoozes && !maps.Equal(e.snoozes, src.snoozes)) {
		return nil, false
	}
	r := e.reply
	return &r, true
}

// put encodes r and keeps it for key.
func (m *replyMemo) put(key memoKey, src pageSource, until time.Time, r *reply) {
	if _, err := r.encode(); err != nil {
		return
	}
	e := &memoEntry{list: weak.Make(src.list), me: src.me, owner: src.owner, until: until, snoozes: src.snoozes, reply: *r}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.entries[key]; old != nil {
		m.size -= len(old.reply.encoded)
	}
	if m.size+len(r.encoded) > memoBudget {
		clear(m.entries)
		m.size = 0
	}
	m.entries[key] = e
	m.size += len(r.encoded)
}

// forget drops caller's memoised replies: something they see on every
// row of their own changed (a snooze). Another replica's memo keeps its
// copy until the shared list is refreshed (ACTIONS_CACHE_TTL), showing
// Snooze where this one shows Unsnooze; the reminder job reads the store
// itself, so that never decides a reminder. A nil memo does nothing.
func (m *replyMemo) forget(caller string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, e := range m.entries {
		if k.caller == caller {
			m.size -= len(e.reply.encoded)
			delete(m.entries, k)
		}
	}
}
