package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/recordsbot/recordsbot/apiclient"
)

// actionStore is the organisation's action list, shared by every user and
// command for a short TTL. A burst of /actions in a busy workspace then
// costs one records call, concurrent fetches collapse into one, and a status
// change made through the bot is written into the cached list at once, so
// the person who clicked never sees their own change undone.
//
// The cost is staleness: a change made outside the bot (another replica, the
// records service's own UI) shows up at most ttl later. A negative ttl turns
// the cache off; every command then reads the records service directly,
// filtered by status on the server where it can be.
type actionStore struct {
	records Records
	ttl     time.Duration
	now     func() time.Time
	flight  singleflight.Group

	mu      sync.Mutex
	list    *apiclient.ActionList
	fetched time.Time
}

func newActionStore(r Records, ttl time.Duration, now func() time.Time) *actionStore {
	return &actionStore{records: r, ttl: ttl, now: now}
}

// get returns a list holding every action with the given status (every
// action when status is empty). It may hold others too: with the cache on it
// is the whole shared list, which callers filter as they walk it rather than
// copying thousands of rows per command. Without the cache the records
// service filters by status. The list is shared: callers must not modify it.
func (s *actionStore) get(ctx context.Context, status apiclient.Status) (*apiclient.ActionList, error) {
	if s.ttl < 0 {
		l, err := s.records.ListActions(ctx, &apiclient.ListActionsOptions{Status: status})
		if err != nil {
			return nil, fmt.Errorf("list actions: %w", err)
		}
		return l, nil
	}
	return s.all(ctx, false)
}

// all returns the whole cached list, fetching it when stale (or when fresh
// is set). Concurrent fetches share one records call; the call runs on a
// context detached from any one caller, so one impatient caller cannot fail
// the others, and each caller still stops waiting when its own ctx ends.
func (s *actionStore) all(ctx context.Context, fresh bool) (*apiclient.ActionList, error) {
	if !fresh {
		s.mu.Lock()
		l, at := s.list, s.fetched
		s.mu.Unlock()
		if l != nil && s.now().Sub(at) < s.ttl {
			return l, nil
		}
	}
	// The shared fetch ends at its first caller's deadline, so that a
	// records outage is reported within that caller's budget. A caller who
	// joined it and still has time left gets one fetch of its own rather
	// than inheriting someone else's timeout.
	for attempt := 0; ; attempt++ {
		ch := s.flight.DoChan("all", func() (any, error) {
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if dl, ok := ctx.Deadline(); ok {
				fctx, cancel = context.WithDeadline(fctx, dl)
				defer cancel()
			}
			l, err := s.records.ListActions(fctx, nil)
			if err != nil {
				return nil, fmt.Errorf("list actions: %w", err)
			}
			s.mu.Lock()
			s.list, s.fetched = l, s.now()
			s.mu.Unlock()
			return l, nil
		})
		select {
		case r := <-ch:
			if r.Err == nil {
				return r.Val.(*apiclient.ActionList), nil
			}
			if attempt == 0 && r.Shared && ctx.Err() == nil && errors.Is(r.Err, context.DeadlineExceeded) {
				continue
			}
			return nil, r.Err
		case <-ctx.Done():
			return nil, fmt.Errorf("list actions: %w", ctx.Err())
		}
	}
}

// find returns the action with the given ID. A miss in a cached list is
// checked once more against a fresh list, so an action created a moment ago
// is found.
func (s *actionStore) find(ctx context.Context, id string) (apiclient.Action, bool, error) {
	l, err := s.get(ctx, "")
	if err != nil {
		return apiclient.Action{}, false, err
	}
	if a, ok := actionByID(l, id); ok || s.ttl < 0 {
		return a, ok, nil // without a cache the list was already fresh
	}
	if l, err = s.all(ctx, true); err != nil {
		return apiclient.Action{}, false, err
	}
	a, ok := actionByID(l, id)
	return a, ok, nil
}

func actionByID(l *apiclient.ActionList, id string) (apiclient.Action, bool) {
	for _, a := range l.Actions {
		if a.ID == id {
			return a, true
		}
	}
	return apiclient.Action{}, false
}

// invalidate drops the cached list, so the next read fetches it afresh.
func (s *actionStore) invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list, s.fetched = nil, time.Time{}
}

// put writes an updated action into the cached list (copy on write: lists
// already handed out stay as they were).
func (s *actionStore) put(a apiclient.Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.list == nil {
		return
	}
	for i := range s.list.Actions {
		if s.list.Actions[i].ID == a.ID {
			cp := &apiclient.ActionList{Truncated: s.list.Truncated, Actions: make([]apiclient.Action, len(s.list.Actions))}
			copy(cp.Actions, s.list.Actions)
			cp.Actions[i] = a
			s.list = cp
			return
		}
	}
}

// identity is a Slack user as recordsbot matches them to assignees.
type identity struct {
	ID    string
	Email string // from the Slack profile; empty without users:read.email
	Name  string
	// aliases are the USER_MAP assignees that point at this user.
	aliases []string
}

// mapped reports whether the bot has any way to match this user to
// assignees beyond their Slack ID.
func (id identity) mapped() bool { return id.Email != "" || len(id.aliases) > 0 }

// owns reports whether assignee p is this user.
func (id identity) owns(p apiclient.Person) bool {
	if id.ID != "" && (p.SlackID == id.ID || p.ID == id.ID) {
		return true
	}
	if id.Email != "" && p.Email != "" && strings.EqualFold(p.Email, id.Email) {
		return true
	}
	for _, k := range id.aliases {
		if strings.EqualFold(p.Email, k) || strings.EqualFold(p.Name, k) || strings.EqualFold(p.ID, k) || strings.EqualFold(p.SlackID, k) {
			return true
		}
	}
	return false
}

// userDirectory resolves Slack users to identities through users.info,
// cached with a TTL, and USER_MAP.
type userDirectory struct {
	slack   SlackAPI
	ttl     time.Duration
	now     func() time.Time
	aliases map[string][]string // Slack ID -> USER_MAP assignees
	flight  singleflight.Group

	mu    sync.Mutex
	cache map[string]cachedUser
}

type cachedUser struct {
	id identity
	at time.Time
}

func newUserDirectory(api SlackAPI, ttl time.Duration, now func() time.Time, userMap map[string]string) *userDirectory {
	d := &userDirectory{slack: api, ttl: ttl, now: now, aliases: map[string][]string{}, cache: map[string]cachedUser{}}
	for assignee, id := range userMap {
		d.aliases[id] = append(d.aliases[id], assignee)
	}
	return d
}

// lookup returns the identity of Slack user id. When Slack cannot be asked,
// the identity still carries the ID and USER_MAP aliases, and the error says
// why the email is missing.
func (d *userDirectory) lookup(ctx context.Context, id string) (identity, error) {
	d.mu.Lock()
	c, ok := d.cache[id]
	d.mu.Unlock()
	if ok && d.now().Sub(c.at) < d.ttl {
		return c.id, nil
	}
	v, err, _ := d.flight.Do(id, func() (any, error) {
		ident := identity{ID: id, aliases: d.aliases[id]}
		u, err := d.slack.GetUserInfoContext(ctx, id)
		if err != nil {
			return ident, fmt.Errorf("users.info %s: %w", id, err)
		}
		ident.Email = u.Profile.Email
		ident.Name = u.RealName
		if ident.Name == "" {
			ident.Name = u.Name
		}
		d.mu.Lock()
		d.cache[id] = cachedUser{id: ident, at: d.now()}
		d.mu.Unlock()
		return ident, nil
	})
	return v.(identity), err
}
