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
	list, _, err := c.listActions(ctx, status, c.maxPages, c.keepRaw, nil)
	return list, err
}

// listInfo is what reading a list showed about the server's conventions.
type listInfo struct {
	envelope string // see listPage.envelope
	scheme   string // a Scheme constant
	pages    int
	capped   bool // reading stopped at the pages limit
}

// listActions reads up to maxPages pages of actions with status (empty:
// all), stopping early when stop, given the actions read so far, returns
// true. Raw is filled only with raw set. Each page is asked for
// conditionally when the client remembers it (see pageMemo).
func (c *Client) listActions(ctx context.Context, status Status, maxPages int, raw bool, stop func([]Action) bool) (*ActionList, listInfo, error) {
	ep := endpoint{http.MethodGet, "/actions", scopeActionsRead}
	var info listInfo
	ref := "actions"
	if status != "" {
		if !status.Valid() {
			return nil, info, c.newError(ep, 0, ErrInvalidStatus, fmt.Sprintf("%q is not a documented status", status), nil)
		}
		ref += "?status=" + url.QueryEscape(string(status))
	}
	list := &ActionList{}
	truncate := func(why string) {
		list.Truncated, list.TruncatedReason = true, why
	}
	seen := make(map[string]struct{})
	received := 0 // records the server sent, before the item cap
	total := int64(-1)
	for page := 0; ; page++ {
		if page == maxPages {
			info.capped = true
			truncate(fmt.Sprintf("stopped after %d pages", maxPages))
			break
		}
		req, err := c.newRequest(ctx, http.MethodGet, ref, nil)
		if err != nil {
			return nil, info, c.newError(ep, 0, ErrInvalidResponse, "", err)
		}
		key := req.URL.String()
		seen[key] = struct{}{}
		memo := c.memo.get(key, raw)
		if memo != nil {
			setValidators(req, memo)
		}
		var pr pageResult
		err = c.do(req, ep, func(resp *http.Response, body []byte) error {
			before := len(list.Actions)
			var (
				acts     []Action
				n        int
				envelope string
			)
			if resp.StatusCode == http.StatusNotModified {
				// The page is as remembered: no download, no decoding.
				if memo == nil {
					return errNoMemo
				}
				keep := min(len(memo.actions), max(c.maxItems-before, 0))
				acts = append(list.Actions, memo.actions[:keep]...)
				n, pr, envelope = memo.n, memo.pr, memo.envelope
				// A 304 may carry fresher validators (RFC 9110 §15.4.5).
				if et := resp.Header.Get("ETag"); et != "" && et != memo.etag {
					cp := *memo
					cp.etag = et
					c.memo.put(key, &cp)
				}
			} else {
				d := c.getDecoder()
				defer c.putDecoder(d, len(body))
				d.noRaw = !raw
				var pf pageFields
				var err error
				acts, n, pf, err = decodeList(d, body, "actions", list.Actions, c.maxItems-before, decodeAction)
				if err != nil {
					return err
				}
				if pr, err = c.nextPage(resp, pf, n); err != nil {
					return err
				}
				envelope = d.lastEnvelope
				if pr.discard {
					clear(acts[before:])
					acts, n = acts[:before], 0
				}
				if len(acts)-before == n {
					// Only a whole page is worth remembering; one cut at the
					// item cap would replay cut. A page with no validator
					// cannot be asked for conditionally: it is not copied
					// (put drops any earlier memo of it).
					p := &pageMemo{
						etag:         resp.Header.Get("ETag"),
						lastModified: resp.Header.Get("Last-Modified"),
						raw:          raw,
						n:            n,
						pr:           pr,
						envelope:     envelope,
					}
					if p.etag != "" || p.lastModified != "" {
						p.actions = slices.Clone(acts[before:])
					}
					c.memo.put(key, p)
				}
			}
			if page == 0 {
				info.envelope, info.scheme = envelope, pr.scheme
			}
			list.Actions = acts
			received += n
			// Records dropped at the item cap, or a next page that will not
			// be read because of it, mean the list is incomplete.
			if len(acts)-before < n || (len(acts) >= c.maxItems && pr.next != nil) {
				truncate(fmt.Sprintf("stopped at %d actions", c.maxItems))
			}
			return nil
		})
		if err != nil {
			return nil, info, err
		}
		info.pages++
		if pr.total >= 0 {
			total = pr.total
		}
		if pr.stuck != "" {
			truncate(pr.stuck)
		}
		if pr.next == nil || list.Truncated || (stop != nil && stop(list.Actions)) {
			break
		}
		if _, loop := seen[pr.next.String()]; loop {
			truncate("the next page link leads back to a page already read")
			break
		}
		ref = pr.next.String()
	}
	if total >= 0 {
		list.Total = int(min(total, int64(maxInt)))
		if !list.Truncated && total > int64(received) && stop == nil {
			truncate(fmt.Sprintf("the server reports %d actions but sent %d", total, received))
		}
	}
	if status != "" {
		list.Actions = slices.DeleteFunc(list.Actions, func(a Action) bool { return a.Status != status })
	}
	return list, info, nil
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
	list, _, err := c.listActions(ctx, status, c.maxPages, false, func(acts []Action) bool { return find(acts) >= 0 })
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
