package minutespage

import (
	"errors"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// retryAfter is the Retry-After of a 503 caused by err, as
// docs/reliability.md documents it: 5 seconds when the public pages'
// share of records calls is used up (it refills in seconds), 30 when the
// records service itself is down or slow.
func retryAfter(err error) string {
	if errors.Is(err, apiclient.ErrOverBudget) {
		return "5"
	}
	return "30"
}

// maxKeptPages bounds the rendered pages kept (a few kB each).
const maxKeptPages = 2000

// keptPage is a minutes page as last rendered.
type keptPage struct {
	page  []byte
	tag   string
	draft bool
	// since is when this replica first rendered these exact bytes: the
	// page's Last-Modified.
	since time.Time
}

// keptPages holds the last rendering of each minutes page: its
// Last-Modified, and a copy to serve while the records service cannot be
// read (down, or the public budget spent), so a reader of minutes that
// exist is not turned away by an outage or someone else's flood. Drafts
// are never served from it: a draft may be withdrawn at any time.
type keptPages struct {
	mu sync.Mutex
	m  map[string]keptPage
}

// keep records p, rendered at p.since, as meeting id's rendering and
// returns the one kept: an earlier rendering of the same bytes (its tag)
// keeps its own Last-Modified.
func (k *keptPages) keep(id string, p keptPage) keptPage {
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.m[id]; ok && old.tag == p.tag {
		return old
	}
	if k.m == nil {
		k.m = map[string]keptPage{}
	}
	if len(k.m) >= maxKeptPages {
		for key := range k.m { // any one: map order is random
			delete(k.m, key)
			break
		}
	}
	p.since = p.since.UTC().Truncate(time.Second)
	k.m[id] = p
	return p
}

// stale returns the approved page kept for id, if any.
func (k *keptPages) stale(id string) (keptPage, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	p, ok := k.m[id]
	return p, ok && !p.draft
}

// drop forgets meeting id's page in every language: the records no
// longer serve its minutes.
func (k *keptPages) drop(id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, l := range append(lang.Shipped(), lang.Pseudo) {
		delete(k.m, keptKey(id, l))
	}
}
