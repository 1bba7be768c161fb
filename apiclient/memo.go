package apiclient

import (
	"errors"
	"net/http"
	"sync"
)

// defaultMemoActions bounds how many decoded actions a Client remembers
// for conditional requests (see WithConditionalRequests).
const defaultMemoActions = 50_000

// WithConditionalRequests sets how many decoded actions the client keeps
// to revalidate lists with (default 50,000; 0 turns conditional requests
// and the decoding memo off). When the records service sends an ETag or
// Last-Modified with a page of actions, the client remembers the page's
// decoded records under the page's URL and asks again with If-None-Match
// or If-Modified-Since; a 304 Not Modified then costs no download and no
// decoding. A page without validators is remembered with its bytes: when
// it comes again byte for byte, its records are taken from memory rather
// than decoded again (the same bytes decode to the same records). Past
// the bound the oldest pages are forgotten. Negative values keep the
// default.
func WithConditionalRequests(maxActions int) Option {
	return func(c *Client) {
		if maxActions >= 0 {
			c.memo.max = maxActions
		}
	}
}

// WithSharedLists lets [Client.ListActions] return one list to several
// callers, who must then never change a list they are given. A list read
// from the same bytes as the last read of its first page (a list of one
// page, not decoded again, see [WithConditionalRequests]) is then the
// very list returned last time, neither decoded nor copied: a caller can
// tell an unchanged list by its pointer. Without it, every call returns a
// list of the caller's own.
func WithSharedLists() Option { return func(c *Client) { c.sharedLists = true } }

// WithRawRecords makes [Client.ListActions] fill Action.Raw. It is off by
// default: the bot never reads Raw, and keeping it would hold a copy of
// every page of a list for as long as the list is kept.
func WithRawRecords() Option { return func(c *Client) { c.keepRaw = true } }

// pageMemo is what the client remembers of one page of actions: its
// validators and what decoding it gave.
//
// The memo is per page URL, never per list. An ETag validates the one
// representation it came with (RFC 9110 §8.8.3), here one page: a 304 on
// the first page says nothing about the second, which can change alone
// (an action closed near the end of the list). So every page is
// revalidated, and a changed page is downloaded and decoded alone; the
// cost of an unchanged list is one small request per page.
//
// A page is also remembered with its bytes (body), so that the same bytes
// again are not decoded again (see actionsRead.decode): what a page's body
// decodes to depends on nothing else (the client's field aliases are
// fixed, and the item cap only cuts what is kept, see replay). The
// pagination is worked out afresh from each answer's headers with the
// body's own fields (pf).
type pageMemo struct {
	etag, lastModified string
	raw                bool     // decoded with Raw
	actions            []Action // the page's records, before the status filter
	n                  int      // records the page held
	pr                 pageResult
	envelope           string
	body               []byte     // the page as it came
	pf                 pageFields // its pagination fields
	// whole is the last list read that was this page alone, its
	// records reused (see wholeList); shared by copies of the memo.
	whole *wholeList
}

// wholeList is the list last read from one remembered page alone.
type wholeList struct {
	mu   sync.Mutex
	list *ActionList
}

// same returns the list last read from the page when it says the same
// as l (the same records, remembered, and the same account of the rest),
// else keeps l and returns it. A list read from the same bytes is then
// the same *ActionList, which callers may use as its version. Lists are
// never changed in place once returned.
func (w *wholeList) same(l *ActionList) *ActionList {
	if w == nil {
		return l
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.list; p != nil && len(p.Actions) == len(l.Actions) && (len(l.Actions) == 0 || &p.Actions[0] == &l.Actions[0]) &&
		p.Truncated == l.Truncated && p.TruncatedReason == l.TruncatedReason && p.Total == l.Total {
		return p
	}
	w.list = l
	return l
}

// listMemo is a Client's bounded store of pageMemos, keyed by page URL,
// forgetting the oldest first. Safe for concurrent use.
type listMemo struct {
	max int // actions held at most; 0 remembers nothing

	mu    sync.Mutex
	held  int
	pages map[string]*pageMemo
	order []string // keys, oldest first
}

// get returns the memo of url decoded with (raw) or without Raw.
func (m *listMemo) get(url string, raw bool) *pageMemo {
	if m.max == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.pages[url]
	if p == nil || p.raw != raw {
		return nil
	}
	return p
}

// put remembers p for url, replacing any earlier memo of it. A page with
// neither validator nor body, or larger than the whole bound, is not
// remembered (and any earlier memo of url is dropped).
func (m *listMemo) put(url string, p *pageMemo) {
	if m.max == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.pages[url]; old != nil {
		m.held -= len(old.actions)
		delete(m.pages, url)
		// Its key stays in order until it comes up; the map says whether
		// a key is live.
	}
	if (p.etag == "" && p.lastModified == "" && p.body == nil) || len(p.actions) > m.max {
		return
	}
	if m.pages == nil {
		m.pages = make(map[string]*pageMemo)
	}
	for m.held+len(p.actions) > m.max && len(m.order) > 0 {
		k := m.order[0]
		m.order = m.order[1:]
		if old, ok := m.pages[k]; ok {
			m.held -= len(old.actions)
			delete(m.pages, k)
		}
	}
	if len(m.order) > 4*len(m.pages)+64 {
		// Compact the keys of pages replaced or forgotten.
		live, kept := m.order[:0], make(map[string]bool, len(m.pages))
		for _, k := range m.order {
			if _, ok := m.pages[k]; ok && !kept[k] {
				kept[k] = true
				live = append(live, k)
			}
		}
		clear(m.order[len(live):])
		m.order = live
	}
	m.pages[url] = p
	m.order = append(m.order, url)
	m.held += len(p.actions)
}

// setValidators makes req conditional on memo p.
func setValidators(req *http.Request, p *pageMemo) {
	if p.etag != "" {
		req.Header.Set("If-None-Match", p.etag)
	}
	if p.lastModified != "" {
		req.Header.Set("If-Modified-Since", p.lastModified)
	}
}

// conditional reports whether r asks for 304 Not Modified when unchanged.
func conditional(r *http.Request) bool {
	return r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != ""
}

// errNoMemo is a 304 the client cannot serve: it was not given a
// remembered copy for the request (a decoder that does not handle 304).
var errNoMemo = errors.New("304 Not Modified without a remembered copy")

// notModified hands a 304 to decode with no body; decode serves the copy
// it remembered when it made the request conditional (RFC 9110 §15.4.5: a
// 304 carries no content).
func (c *Client) notModified(resp *http.Response, ep endpoint, decode decodeFunc) (*Error, bool) {
	if err := decode(resp, nil); err != nil {
		if e, ok := errors.AsType[*Error](err); ok {
			return e, false
		}
		return c.newError(ep, resp.StatusCode, ErrInvalidResponse, "", err), false
	}
	return nil, false
}
