package apiclient

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"
)

// pageFields are the pagination hints of a list body. Strings are copies:
// they outlive the parser.
type pageFields struct {
	next       string // a URL reference (next, next_url, @odata.nextLink, links.next, _links.next.href)
	cursor     string // next_cursor, or a "next" that is not a URL
	echoCursor string // cursor: maybe the next one, maybe the current one
	nextPage   string // next_page
	page       string // the current page
	totalPages string
	offset     string // the offset of the first record of this page
	hasMore    int8   // 0 absent, 1 true, -1 false
	total      int64  // how many records the whole list has, if hasTotal
	hasTotal   bool
}

// from reads the pagination fields of the list object o and of its meta,
// pagination and links (or HAL _links) sub-objects; top-level fields win.
// Names match in every casing, like record fields.
func (pf *pageFields) from(o *fastjson.Object) {
	var subs [3]*fastjson.Object
	pf.visit(o, &subs)
	for _, sub := range subs {
		if sub != nil {
			pf.visit(sub, nil)
		}
	}
}

func (pf *pageFields) visit(o *fastjson.Object, subs *[3]*fastjson.Object) {
	var buf [64]byte
	o.Visit(func(k []byte, v *fastjson.Value) {
		switch nk := normKey(buf[:0], k); string(nk) {
		case "next", "nexturl", "nextlink", "@odata.nextlink":
			if pf.next == "" && pf.cursor == "" && pf.nextPage == "" {
				pf.setNext(v)
			}
		case "nextcursor":
			if pf.cursor == "" {
				pf.cursor = string(appendScalar(nil, v))
			}
		case "cursor":
			if pf.echoCursor == "" {
				pf.echoCursor = string(appendScalar(nil, v))
			}
		case "nextpage":
			if pf.nextPage == "" {
				if b := strBytes(v); looksLikeURL(b) {
					pf.next = string(b)
				} else {
					pf.nextPage = string(appendScalar(nil, v))
				}
			}
		case "page", "currentpage":
			if pf.page == "" {
				pf.page = string(appendScalar(nil, v))
			}
		case "totalpages", "lastpage":
			if pf.totalPages == "" {
				pf.totalPages = string(appendScalar(nil, v))
			}
		case "offset", "skip":
			if pf.offset == "" {
				pf.offset = string(appendScalar(nil, v))
			}
		case "total", "count", "totalcount", "@odata.count", "totalitems", "totalresults", "totalrecords":
			if n, err := v.Int64(); err == nil && n >= 0 && !pf.hasTotal {
				pf.total, pf.hasTotal = n, true
			}
		case "hasmore":
			if pf.hasMore == 0 {
				switch v.Type() {
				case fastjson.TypeTrue:
					pf.hasMore = 1
				case fastjson.TypeFalse:
					pf.hasMore = -1
				}
			}
		case "meta", "pagination", "links": // "_links" (HAL) normalises to "links"
			if subs == nil {
				break
			}
			i := 0
			switch string(nk) {
			case "pagination":
				i = 1
			case "links":
				i = 2
			}
			if subs[i] == nil {
				subs[i] = object(v)
			}
		}
	})
}

// setNext reads a "next" value: a URL reference, a cursor, a page number,
// or an object with an href (HAL, JSON:API link objects).
func (pf *pageFields) setNext(v *fastjson.Value) {
	switch v.Type() {
	case fastjson.TypeString:
		b := strBytes(v)
		if looksLikeURL(b) {
			pf.next = string(b)
		} else {
			pf.cursor = string(b)
		}
	case fastjson.TypeNumber:
		pf.nextPage = string(appendScalar(nil, v))
	case fastjson.TypeObject:
		o := v.GetObject()
		if b := strBytes(member(o, "href")); len(b) > 0 {
			pf.next = string(b)
		}
	}
}

// looksLikeURL tells a URL reference from an opaque cursor: only absolute
// http(s) URLs and references starting with "/" or "?" count as URLs.
func looksLikeURL(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '/' || b[0] == '?' {
		return true
	}
	return hasPrefixFold(b, "http://") || hasPrefixFold(b, "https://")
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// isHTTPURL reports whether b is an absolute http or https URL with a host.
func isHTTPURL(b []byte) bool {
	if !hasPrefixFold(b, "http://") && !hasPrefixFold(b, "https://") {
		return false
	}
	u, err := url.Parse(string(b))
	return err == nil && u.Host != ""
}

// contentRange is a parsed Content-Range of a list answer.
type contentRange struct {
	first, last int64 // -1 when the range is "*" (nothing sent)
	total       int64 // -1 when "*" (unknown)
}

// parseContentRange reads a Content-Range value of a row API: "0-99/1234",
// "items 0-99/1234" (any unit), "0-99/*" or "*/1234". ok is false for
// anything else, and for a range whose last is before its first or past
// the total.
func parseContentRange(v string) (cr contentRange, ok bool) {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, ' '); i >= 0 {
		v = strings.TrimSpace(v[i+1:])
	}
	rng, tot, found := strings.Cut(v, "/")
	if !found {
		return cr, false
	}
	num := func(s string) (int64, bool) {
		if s == "" || len(s) > 18 || strings.TrimLeft(s, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	cr.total = -1
	if tot != "*" {
		n, ok := num(tot)
		if !ok {
			return cr, false
		}
		cr.total = n
	}
	if rng == "*" {
		cr.first, cr.last = -1, -1
		return cr, cr.total >= 0
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return cr, false
	}
	var ok1, ok2 bool
	cr.first, ok1 = num(a)
	cr.last, ok2 = num(b)
	if !ok1 || !ok2 || cr.last < cr.first || (cr.total >= 0 && cr.last >= cr.total) {
		return cr, false
	}
	return cr, true
}

// Pagination schemes, as reported by [Client.Inspect].
const (
	SchemeNone       = "none"        // one page, no sign of more
	SchemeLinkHeader = "link header" // Link: <…>; rel="next"
	SchemeNextLink   = "next link"   // next, @odata.nextLink, links.next, _links.next.href
	SchemeCursor     = "cursor"      // next_cursor or cursor, sent back as ?cursor=
	SchemePage       = "page number" // next_page, page+total_pages or has_more, sent back as ?page=
	SchemeOffset     = "offset"      // Content-Range (row APIs) or a body offset, continued with ?offset=&limit=
)

// pageResult is what one list answer says about the rest of the list.
type pageResult struct {
	next   *url.URL // the next page; nil on the last page or when stuck
	total  int64    // records in the whole list, -1 unknown
	scheme string   // one of the Scheme constants
	// stuck says why a next page the answer signals cannot be followed;
	// empty when there is none or it can be.
	stuck string
	// discard is set when the page is not the one asked for (a server
	// that ignores offset sends the first page again): its records would
	// repeat others.
	discard bool
}

// errStuck marks a next page that may not be followed.
var errStuck = errors.New("cannot follow the next page")

// nextPage works out the page after resp from the Link header, the
// Content-Range and X-Total-Count headers and the body's pagination fields
// pf, rows being the number of records resp carried (see the package
// documentation). A next URL that is not on the base URL's scheme and host
// is not followed: it is reported in stuck. Errors are for hints that
// contradict themselves (a malformed link, a total_pages that is no
// number).
func (c *Client) nextPage(resp *http.Response, pf pageFields, rows int) (pageResult, error) {
	res := pageResult{total: -1, scheme: SchemeNone}
	var cr *contentRange // nil: no readable Content-Range
	if r, ok := parseContentRange(resp.Header.Get("Content-Range")); ok {
		cr = &r
	}
	switch {
	case pf.hasTotal:
		res.total = pf.total
	case cr != nil && cr.total >= 0:
		res.total = cr.total
	default:
		res.total = totalCount(resp.Header)
	}
	if pf.hasMore < 0 {
		return res, nil
	}
	cur := resp.Request.URL
	if ref, scheme := nextLinkRef(resp.Header, pf); ref != "" {
		res.scheme = scheme
		return c.followLink(res, cur, ref)
	}
	q := cur.Query()
	switch cursor := nextCursor(pf, q); {
	case cursor != "":
		res.scheme = SchemeCursor
		q.Set("cursor", cursor)
	case pf.nextPage != "" || pf.totalPages != "" || pf.hasMore > 0:
		res.scheme = SchemePage
		more, err := setNextPageNumber(q, pf)
		if err != nil || !more {
			return res, err
		}
	case cr != nil || pf.offset != "":
		res.scheme = SchemeOffset
		more, err := offsetNext(q, cr, pf, res.total, rows)
		if errors.Is(err, errStuck) {
			res.stuck, res.discard = err.Error(), true
			return res, nil
		}
		if err != nil || !more {
			return res, err
		}
	case resp.StatusCode == http.StatusPartialContent:
		res.stuck = "206 Partial Content with no Content-Range or next page"
		return res, nil
	default:
		return res, nil
	}
	u := *cur
	u.RawQuery = q.Encode()
	res.next = &u
	return res, nil
}

// totalCount is the X-Total-Count header's number; -1 when there is none.
func totalCount(h http.Header) int64 {
	if n, err := strconv.ParseInt(strings.TrimSpace(h.Get("X-Total-Count")), 10, 64); err == nil && n >= 0 {
		return n
	}
	return -1
}

// nextLinkRef is the URL reference of the next page, from the Link header
// else the body's next link, and the scheme it is; ref is empty when
// neither gives one.
func nextLinkRef(h http.Header, pf pageFields) (ref, scheme string) {
	if ref, ok := nextLink(h.Values("Link")); ok {
		return ref, SchemeLinkHeader
	}
	return pf.next, SchemeNextLink
}

// followLink sets res.next to ref, resolved against the page cur, unless
// it leaves the records API host: then it is reported in res.stuck.
func (c *Client) followLink(res pageResult, cur *url.URL, ref string) (pageResult, error) {
	u, err := cur.Parse(ref)
	if err != nil {
		return res, fmt.Errorf("next page link: %w", err)
	}
	u.Fragment, u.RawFragment = "", ""
	if !sameOrigin(u, c.base) {
		res.stuck = fmt.Sprintf("the next page link leads to %s://%s, not the records api host", u.Scheme, u.Host)
		return res, nil
	}
	res.next = u
	return res, nil
}

// nextCursor is the cursor to send back for the next page: next_cursor,
// else a cursor that is not the one this page was asked with (q).
func nextCursor(pf pageFields, q url.Values) string {
	if pf.cursor == "" && pf.echoCursor != q.Get("cursor") {
		return pf.echoCursor
	}
	return pf.cursor
}

// setNextPageNumber sets ?page= in q to the page after this one (from
// next_page, else the current page with total_pages or has_more) and
// reports whether there is one.
func setNextPageNumber(q url.Values, pf pageFields) (bool, error) {
	currentPage := func() int {
		if n, err := strconv.Atoi(pf.page); err == nil {
			return n
		}
		if n, err := strconv.Atoi(q.Get("page")); err == nil {
			return n
		}
		return 1
	}
	switch {
	case pf.nextPage != "":
		q.Set("page", pf.nextPage)
	case pf.totalPages != "":
		total, err := strconv.Atoi(pf.totalPages)
		if err != nil {
			return false, fmt.Errorf("total_pages %q is not a number", pf.totalPages)
		}
		p := currentPage()
		if p >= total {
			return false, nil
		}
		q.Set("page", strconv.Itoa(p+1))
	default:
		q.Set("page", strconv.Itoa(currentPage()+1))
	}
	return true, nil
}

// offsetNext sets ?offset= and ?limit= in q for the page after one that
// carried rows records from offset first (from the Content-Range cr when
// there is one, else the body's offset) and reports whether there is one: not when the total
// is reached or, with no total, when a page came back empty or shorter than
// the limit asked for. A server that answers another range than the one
// asked for ignores offset: that is errStuck.
func offsetNext(q url.Values, cr *contentRange, pf pageFields, total int64, rows int) (bool, error) {
	var first int64
	switch {
	case cr != nil && cr.first >= 0:
		first = cr.first
	case cr != nil:
		return false, nil // "*/N": nothing in this range
	default:
		n, err := strconv.ParseInt(pf.offset, 10, 64)
		if err != nil || n < 0 {
			return false, fmt.Errorf("offset %q is not a number", pf.offset)
		}
		first = n
	}
	if asked := q.Get("offset"); asked != "" && asked != strconv.FormatInt(first, 10) {
		return false, fmt.Errorf("%w: the server answered offset %d when asked for %s", errStuck, first, asked)
	}
	// No limit asked (or, in a server's own link, one that is no number):
	// a short page then does not say it is the last.
	limit := 0
	if n, err := strconv.Atoi(q.Get("limit")); err == nil {
		limit = n
	}
	next := first + int64(rows)
	switch {
	case rows == 0,
		total >= 0 && next >= total,
		total < 0 && limit > 0 && rows < limit:
		return false, nil
	}
	if limit <= 0 {
		limit = rows
	}
	q.Set("offset", strconv.FormatInt(next, 10))
	q.Set("limit", strconv.Itoa(limit))
	return true, nil
}

// tokenURL turns a MeetingPage.Next token (a request URI on the base host)
// back into a URL. A token comes back from outside (a public page's
// cursor, a button's value), so it is held to what the records' own next
// links are: the meetings list's path, or a path below it, with no dot
// segments (escaped or not, with or without ";" parameters) that a
// server would resolve to another endpoint or out of the API's base path.
func (c *Client) tokenURL(token string) (*url.URL, error) {
	if !strings.HasPrefix(token, "/") || strings.HasPrefix(token, "//") || strings.ContainsAny(token, "\\#") {
		return nil, errors.New("not a path on the records api host")
	}
	ref, err := url.Parse(token)
	if err != nil {
		return nil, fmt.Errorf("parse next token: %w", err)
	}
	list := c.base.Path + "/meetings"
	if ref.Path != list && !strings.HasPrefix(ref.Path, list+"/") || hasDotSegment(ref.Path) {
		return nil, errors.New("not a page of the meetings list")
	}
	u := *c.base
	u.Path, u.RawPath, u.RawQuery = ref.Path, ref.RawPath, ref.RawQuery
	return &u, nil
}

// hasDotSegment reports whether the decoded path p has a "." or ".."
// segment, which a server or proxy on the way would resolve. A segment's
// path parameters count for nothing: Tomcat, Jetty and the proxies that
// copy them resolve "..;x" as ".." (RFC 3986 §3.3 lets a segment carry
// ";" parameters), so "..;" is a dot segment too.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(strings.ReplaceAll(p, "\\", "/"), "/") {
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
