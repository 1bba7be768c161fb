package apiclient

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
)

// ListActions lists actions, following pagination to the end (see the
// package documentation for the forms accepted). Pages the server sent
// with an ETag or Last-Modified are revalidated, and served from memory on
// 304 Not Modified (see [WithConditionalRequests]). Action.Raw is nil
// unless the client was made [WithRawRecords]. With opts.Status set, only
// actions with that status are returned: the filter is sent as ?status= and
// applied again to the answer, so a server that ignores it cannot make the
// bot show closed actions as open. A nil opts lists every action.
//
// The list is never cut short silently: when a safety cap on pages or items
// is reached, the server's next link leads back to a page already read or
// off the records API host, or the server announces more actions (a total,
// X-Total-Count or Content-Range) than it let the client read, the actions
// read so far are returned with Truncated, TruncatedReason and (when the
// server said) Total set.
//
// Errors: ErrInvalidStatus for an undocumented opts.Status (nothing is
// sent), ErrUnauthorized, ErrForbidden (scope actions:read),
// ErrRateLimited, ErrUnavailable, ErrInvalidResponse, ErrBadRequest.
func (c *Client) ListActions(ctx context.Context, opts *ListActionsOptions) (*ActionList, error) {
	var status Status
	if opts != nil {
		status = opts.Status
	}
	list, _, err := c.listActions(ctx, actionsQuery{status: status, maxPages: c.maxPages, raw: c.keepRaw})
	return list, err
}

// listInfo is what reading a list showed about the server's conventions.
type listInfo struct {
	envelope string // see listPage.envelope
	scheme   string // a Scheme constant
	pages    int
	capped   bool // reading stopped at the pages limit
}

// actionsQuery is what listActions reads.
type actionsQuery struct {
	status   Status // "" for all
	maxPages int
	raw      bool // fill Action.Raw
	// stop, when set, ends the reading early: it is given the actions read
	// so far after each page.
	stop func([]Action) bool
}

// listActions reads up to q.maxPages pages of actions with q.status,
// stopping early when q.stop says so. Each page is asked for
// conditionally when the client remembers it (see pageMemo).
func (c *Client) listActions(ctx context.Context, q actionsQuery) (*ActionList, listInfo, error) {
	ep := endpoint{http.MethodGet, "/actions", scopeActionsRead}
	ref := "actions"
	if q.status != "" {
		if !q.status.Valid() {
			return nil, listInfo{}, c.newError(ep, 0, ErrInvalidStatus, fmt.Sprintf("%q is not a documented status", q.status), nil)
		}
		ref += "?status=" + url.QueryEscape(string(q.status))
	}
	r := &actionsRead{c: c, ep: ep, raw: q.raw, list: &ActionList{}, seen: map[string]struct{}{}, total: -1}
	for ref != "" {
		if r.info.pages == q.maxPages {
			r.info.capped = true
			r.truncate(fmt.Sprintf("stopped after %d pages", q.maxPages))
			break
		}
		pr, err := r.readPage(ctx, ref)
		if err != nil {
			return nil, r.info, err
		}
		ref = r.nextRef(pr, q.stop)
	}
	r.setTotal()
	if q.stop == nil {
		// A reading stopped on purpose is short by design.
		r.checkTotal()
	}
	list := r.list
	if q.status != "" {
		list.Actions = keepStatus(list.Actions, q.status)
	}
	if r.reused != nil && r.info.pages == 1 {
		// The same bytes as last time: the same list, so that a caller
		// can tell (the bot serves a reply it drew from it again).
		list = r.reused.whole.same(list)
	}
	return list, r.info, nil
}

// keepStatus is acts without those whose status is not st. acts may be a
// remembered page's records (see reuse), which are shared: they are
// copied rather than changed when some must go.
func keepStatus(acts []Action, st Status) []Action {
	i := slices.IndexFunc(acts, func(a Action) bool { return a.Status != st })
	if i < 0 {
		return acts
	}
	out := make([]Action, i, len(acts)-1)
	copy(out, acts[:i])
	for _, a := range acts[i+1:] {
		if a.Status == st {
			out = append(out, a)
		}
	}
	return out
}

// actionsRead is one reading of the actions list, page by page.
type actionsRead struct {
	c    *Client
	ep   endpoint
	raw  bool // fill Action.Raw
	list *ActionList
	info listInfo
	// seen holds the URL of every page asked for, to notice a next link
	// leading back.
	seen     map[string]struct{}
	received int   // records the server sent, before the item cap
	total    int64 // the whole list's size as the server last said, -1 unknown
	// reused is the remembered page whose records the last page read
	// was (the same bytes again), or nil.
	reused *pageMemo
}

// pageRead is one answer's actions: acts is the list so far with the
// page's records appended (cut at the item cap), n how many the server
// sent.
type pageRead struct {
	acts     []Action
	n        int
	pr       pageResult
	envelope string
}

func (r *actionsRead) truncate(why string) {
	r.list.Truncated, r.list.TruncatedReason = true, why
}

// readPage asks for the page at ref, conditionally when the client
// remembers it, adds its actions to the list, and returns what it says of
// the rest of the list.
func (r *actionsRead) readPage(ctx context.Context, ref string) (pageResult, error) {
	c := r.c
	req, err := c.newRequest(ctx, http.MethodGet, ref, nil)
	if err != nil {
		return pageResult{}, c.newError(r.ep, 0, ErrInvalidResponse, "", err)
	}
	key := req.URL.String()
	r.seen[key] = struct{}{}
	memo := c.memo.get(key, r.raw)
	if memo != nil {
		setValidators(req, memo)
	}
	var pr pageResult
	err = c.do(req, r.ep, func(resp *http.Response, body []byte) error {
		before := len(r.list.Actions)
		var pg pageRead
		var err error
		if resp.StatusCode == http.StatusNotModified {
			pg, err = r.replay(resp, key, memo)
		} else {
			pg, err = r.decode(resp, body, key, memo)
		}
		if err != nil {
			return err
		}
		pr = pg.pr
		r.add(pg, before)
		return nil
	})
	if err != nil {
		return pr, err
	}
	r.info.pages++
	if pr.total >= 0 {
		r.total = pr.total
	}
	if pr.stuck != "" {
		r.truncate(pr.stuck)
	}
	return pr, nil
}

// replay serves a 304 Not Modified from memo: the page is as remembered,
// with no download and no decoding.
func (r *actionsRead) replay(resp *http.Response, key string, memo *pageMemo) (pageRead, error) {
	if memo == nil {
		return pageRead{}, errNoMemo
	}
	before := len(r.list.Actions)
	keep := min(len(memo.actions), max(r.c.maxItems-before, 0))
	pg := pageRead{acts: append(r.list.Actions, memo.actions[:keep]...), n: memo.n, pr: memo.pr, envelope: memo.envelope}
	// A 304 may carry fresher validators (RFC 9110 §15.4.5).
	if et := resp.Header.Get("ETag"); et != "" && et != memo.etag {
		cp := *memo
		cp.etag = et
		r.c.memo.put(key, &cp)
	}
	return pg, nil
}

// decode reads a page's body and its pagination, and remembers the page
// when it came whole. A body the same, byte for byte, as the one memo
// remembers is not decoded again: its records are memo's.
func (r *actionsRead) decode(resp *http.Response, body []byte, key string, memo *pageMemo) (pageRead, error) {
	c := r.c
	before := len(r.list.Actions)
	if memo != nil && memo.body != nil && bytes.Equal(memo.body, body) {
		return r.reuse(resp, key, memo, before)
	}
	d := c.getDecoder()
	defer c.putDecoder(d, len(body))
	d.noRaw = !r.raw
	var pg pageRead
	acts, n, pf, err := decodeList(d, body, "actions", r.list.Actions, c.maxItems-before, decodeAction)
	if err != nil {
		return pg, err
	}
	if pg.pr, err = c.nextPage(resp, pf, n); err != nil {
		return pg, err
	}
	pg.envelope = d.lastEnvelope
	if pg.pr.discard {
		clear(acts[before:])
		acts, n = acts[:before], 0
	}
	pg.acts, pg.n = acts, n
	if len(acts)-before == n {
		// Only a whole page is worth remembering; one cut at the
		// item cap would replay cut. A page discarded is remembered
		// without its bytes: its records were not kept.
		if pg.pr.discard {
			body = nil
		}
		r.remember(resp, key, pg, before, body, pf)
	}
	return pg, nil
}

// reuse is decode for a body memo already decoded: its records, and the
// pagination of this answer (its headers may differ).
func (r *actionsRead) reuse(resp *http.Response, key string, memo *pageMemo, before int) (pageRead, error) {
	pr, err := r.c.nextPage(resp, memo.pf, memo.n)
	if err != nil {
		return pageRead{}, err
	}
	pg := pageRead{acts: r.list.Actions, pr: pr, envelope: memo.envelope}
	if !pr.discard {
		keep := min(len(memo.actions), max(r.c.maxItems-before, 0))
		if before == 0 && r.c.sharedLists {
			// The first page: the list is the remembered records
			// themselves, never changed in place (keepStatus copies, a
			// next page's append copies past the capacity; callers
			// agreed not to, WithSharedLists).
			pg.acts = memo.actions[:keep:keep]
			r.reused = memo
		} else {
			pg.acts = append(pg.acts, memo.actions[:keep]...)
		}
		pg.n = memo.n
	}
	// The same bytes may come with other validators.
	if et, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"); et != memo.etag || lm != memo.lastModified {
		cp := *memo
		cp.etag, cp.lastModified = et, lm
		r.c.memo.put(key, &cp)
	}
	return pg, nil
}

// remember keeps the whole page pg, its actions from before on, with its
// body and pagination fields pf, for asking for it conditionally next
// time and for not decoding the same bytes twice.
func (r *actionsRead) remember(resp *http.Response, key string, pg pageRead, before int, body []byte, pf pageFields) {
	p := &pageMemo{
		etag:         resp.Header.Get("ETag"),
		lastModified: resp.Header.Get("Last-Modified"),
		raw:          r.raw,
		n:            pg.n,
		pr:           pg.pr,
		envelope:     pg.envelope,
		actions:      slices.Clone(pg.acts[before:]),
		body:         bytes.Clone(body), // nil stays nil
		pf:           pf,
		whole:        &wholeList{},
	}
	r.c.memo.put(key, p)
}

// add takes pg's actions into the list; the list held before actions
// until then.
func (r *actionsRead) add(pg pageRead, before int) {
	if r.info.pages == 0 {
		r.info.envelope, r.info.scheme = pg.envelope, pg.pr.scheme
	}
	r.list.Actions = pg.acts
	r.received += pg.n
	// Records dropped at the item cap, or a next page that will not
	// be read because of it, mean the list is incomplete.
	if len(pg.acts)-before < pg.n || (len(pg.acts) >= r.c.maxItems && pg.pr.next != nil) {
		r.truncate(fmt.Sprintf("stopped at %d actions", r.c.maxItems))
	}
}

// nextRef is the page to read after one that answered pr: "" when there
// is none, the list is cut short, stop says enough, or the next link
// leads back to a page already read.
func (r *actionsRead) nextRef(pr pageResult, stop func([]Action) bool) string {
	if pr.next == nil || r.list.Truncated || (stop != nil && stop(r.list.Actions)) {
		return ""
	}
	next := pr.next.String()
	if _, loop := r.seen[next]; loop {
		r.truncate("the next page link leads back to a page already read")
		return ""
	}
	return next
}

// setTotal gives the list the server's total, when it said one.
func (r *actionsRead) setTotal() {
	if r.total >= 0 {
		r.list.Total = int(min(r.total, int64(maxInt)))
	}
}

// checkTotal marks the list cut short when the server announced more
// actions than it let the client read.
func (r *actionsRead) checkTotal() {
	if r.total >= 0 && !r.list.Truncated && r.total > int64(r.received) {
		r.truncate(fmt.Sprintf("the server reports %d actions but sent %d", r.total, r.received))
	}
}

// maxInt is the largest int, for totals a server sends as int64.
const maxInt = int(^uint(0) >> 1)

// UpdateActionStatus sets action id's status and returns the updated action
// as the server sent it back: the row itself, a one-element array, or the
// row in an envelope. When the answer is empty (204 No Content), the action
// is read back from the list of actions with the new status, the records
// API having no GET of one action; when that fails, or the answer lacks the
// id or status, the requested ones fill the gaps.
//
// Errors: ErrInvalidStatus when status is not Valid (nothing is sent),
// ErrNotFound (also for an empty id, "." or ".."), ErrUnauthorized,
// ErrForbidden (scope actions:write), ErrBadRequest (such as a status the
// server refuses), ErrRateLimited, ErrUnavailable, ErrInvalidResponse.
func (c *Client) UpdateActionStatus(ctx context.Context, id string, status Status) (*Action, error) {
	ep := endpoint{http.MethodPut, "/actions/{id}", scopeActionsWrite}
	if !status.Valid() {
		return nil, c.newError(ep, 0, ErrInvalidStatus, fmt.Sprintf("%q is not a documented status", status), nil)
	}
	if err := c.checkID(ep, id); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodPut, "actions/"+url.PathEscape(id), struct {
		Status Status `json:"status"`
	}{status})
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	a := &Action{}
	empty := false
	err = c.do(req, ep, func(_ *http.Response, body []byte) error {
		*a = Action{}
		if empty = len(bytes.TrimSpace(body)) == 0; empty {
			return nil
		}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		return d.decodeActionBody(body, a)
	})
	if err != nil {
		return nil, err
	}
	if empty {
		if got, ok := c.readBack(ctx, id, status); ok {
			return got, nil
		}
	}
	if a.ID == "" {
		a.ID = id
	}
	if a.Status == "" {
		a.Status = status
	}
	return a, nil
}

// readBack finds action id among the actions with status, stopping at the
// first page that holds it. ok is false when it is not there or the list
// cannot be read: the update itself succeeded, so that is no error.
func (c *Client) readBack(ctx context.Context, id string, status Status) (*Action, bool) {
	find := func(acts []Action) int {
		return slices.IndexFunc(acts, func(a Action) bool { return a.ID == id })
	}
	list, _, err := c.listActions(ctx, actionsQuery{status: status, maxPages: c.maxPages, stop: func(acts []Action) bool { return find(acts) >= 0 }})
	if err != nil {
		return nil, false
	}
	i := find(list.Actions)
	if i < 0 {
		return nil, false
	}
	a := list.Actions[i]
	return &a, true
}
