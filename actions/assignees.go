package actions

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Assignees finds the Slack user of records assignees, for the jobs that
// DM them (the watcher's assignment DMs, the morning reminders). It is
// the one place that order is written: USER_MAP first (it exists to
// override), then the Slack ID the records give, then the email among the
// members read in bulk ([Assignees.Know], from users.list), and only for
// an email still unknown users.lookupByEmail, once per email. Deleted
// members and bots match nobody. Safe for concurrent use; make one per
// run, so that people who join or leave are seen by the next.
type Assignees struct {
	userMap UserMap
	lookup  LookupByEmail

	mu      sync.Mutex
	byEmail map[string]string         // lowercased email -> user ID, "" for nobody
	zones   map[string]*time.Location // user ID -> their zone, when Slack knows it
	locales map[string]string         // user ID -> their Slack locale, when Slack said
}

// LookupByEmail finds the Slack user with an email (users.lookupByEmail).
// It returns the zero Profile, and no error, when Slack has nobody with
// that email; internal/slackapi/slackusers.ByEmail is the Web API's.
type LookupByEmail func(ctx context.Context, email string) (Profile, error)

// NewAssignees finds assignees through um and lookup.
func NewAssignees(um UserMap, lookup LookupByEmail) *Assignees {
	return &Assignees{userMap: um, lookup: lookup, byEmail: map[string]string{}, zones: map[string]*time.Location{}, locales: map[string]string{}}
}

// Know adds members as Slack listed them (users.list), so that their
// emails need no lookup and their zones and locales are known (the locale
// when users.list was asked with include_locale=true). Deleted members
// and bots are left out.
func (a *Assignees) Know(members []Profile) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, u := range members {
		a.knowLocked(u)
	}
}

func (a *Assignees) knowLocked(u Profile) {
	if u.Gone || u.ID == "" {
		return
	}
	if e := strings.ToLower(strings.TrimSpace(u.Email)); e != "" {
		a.byEmail[e] = u.ID
	}
	if loc := u.zone(); loc != nil {
		a.zones[u.ID] = loc
	}
	if u.Locale != "" {
		a.locales[u.ID] = u.Locale
	}
}

// WithEmail is how many members' emails are known without a lookup.
func (a *Assignees) WithEmail() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, id := range a.byEmail {
		if id != "" {
			n++
		}
	}
	return n
}

// SlackID returns the Slack user ID of assignee p, or "" when nobody in
// Slack matches. Errors: users.lookupByEmail's, wrapped, other than
// users_not_found (which is nobody).
func (a *Assignees) SlackID(ctx context.Context, p apiclient.Person) (string, error) {
	if id, ok := a.userMap.SlackID(p); ok {
		return id, nil
	}
	if p.SlackID != "" {
		return p.SlackID, nil
	}
	email := strings.ToLower(strings.TrimSpace(p.Email))
	if email == "" {
		return "", nil
	}
	a.mu.Lock()
	id, ok := a.byEmail[email]
	a.mu.Unlock()
	if ok {
		return id, nil
	}
	u, err := a.lookup(ctx, email)
	if err != nil {
		return "", fmt.Errorf("users.lookupByEmail: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.knowLocked(u)
	id = ""
	if !u.Gone {
		id = u.ID // "" when Slack has nobody with that email
	}
	a.byEmail[email] = id
	return id, nil
}

// Locale is user's Slack locale ("fr-FR") as users.list gave it with the
// member, or "" when Slack did not say: users.lookupByEmail takes no
// include_locale (https://api.slack.com/methods/users.lookupByEmail), so
// a member found only by a lookup has none, and reads ORG_LANGUAGE.
func (a *Assignees) Locale(user string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.locales[user]
}

// Zone is user's own time zone as Slack gave it with the member, or nil
// when unknown (the organisation's zone then applies).
func (a *Assignees) Zone(user string) *time.Location {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.zones[user]
}
