package apiclient

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// page returns the records of page n (1-based) of a three-page listing.
func pageItems(n int) string {
	return fmt.Sprintf(`[{"id":"p%d-a"},{"id":"p%d-b"}]`, n, n)
}

// pageOf reads the page number a request asks for from ?page= or
// ?cursor=c<n>; no parameter is page 1.
func pageOf(r *http.Request) int {
	q := r.URL.Query()
	if c := q.Get("cursor"); c != "" {
		n, _ := strconv.Atoi(strings.TrimPrefix(c, "c"))
		return n
	}
	if p := q.Get("page"); p != "" {
		n, _ := strconv.Atoi(p)
		return n
	}
	if strings.HasSuffix(r.URL.Path, "/page3") {
		return 3
	}
	return 1
}

func TestPaginationForms(t *testing.T) {
	t.Parallel()
	// Each form writes page n (of 3) of the listing.
	tests := []struct {
		name      string
		serve     func(w http.ResponseWriter, r *http.Request, n int)
		wantQuery []string // RawQuery of the three requests
	}{
		{
			name: "link header",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				if n < 3 {
					w.Header().Set("Link", fmt.Sprintf(`<%s/actions?status=open&page=%d>; rel="next"`, basePath, n+1))
				}
				serveJSON(200, pageItems(n))(w, r)
			},
			wantQuery: []string{"status=open", "status=open&page=2", "status=open&page=3"},
		},
		{
			name: "link header with several links, fields and relations",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Add("Link", `<`+basePath+`/actions?page=1>; rel="first", <`+basePath+`/actions?page=9>; rel=last`)
				if n < 3 {
					w.Header().Add("Link", fmt.Sprintf(`<?status=open&page=%d>; title="a, b; c"; rel="prefetch NEXT"`, n+1))
				}
				serveJSON(200, pageItems(n))(w, r)
			},
			wantQuery: []string{"status=open", "status=open&page=2", "status=open&page=3"},
		},
		{
			name: "link header relative path",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 1 {
					w.Header().Set("Link", `<actions?page=2>; rel=next`)
				} else if n == 2 {
					w.Header().Set("Link", `<../v1/actions/page3>; rel=next`)
				}
				serveJSON(200, pageItems(n))(w, r)
			},
			wantQuery: []string{"status=open", "page=2", ""},
		},
		{
			name: "body next absolute url",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := "null"
				if n < 3 {
					next = fmt.Sprintf(`"http://%s%s/actions?status=open&page=%d"`, r.Host, basePath, n+1)
				}
				serveJSON(200, fmt.Sprintf(`{"data":%s,"next":%s}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "status=open&page=2", "status=open&page=3"},
		},
		{
			name: "links.next relative reference",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := ""
				if n < 3 {
					next = fmt.Sprintf(`?status=open&page=%d`, n+1)
				}
				serveJSON(200, fmt.Sprintf(`{"data":%s,"links":{"self":"x","next":%q}}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "status=open&page=2", "status=open&page=3"},
		},
		{
			name: "next as cursor string",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := "null"
				if n < 3 {
					next = fmt.Sprintf(`"c%d"`, n+1)
				}
				serveJSON(200, fmt.Sprintf(`{"items":%s,"next":%s}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "cursor=c2&status=open", "cursor=c3&status=open"},
		},
		{
			name: "next_cursor",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := `""`
				if n < 3 {
					next = fmt.Sprintf(`"c%d"`, n+1)
				}
				serveJSON(200, fmt.Sprintf(`{"results":%s,"next_cursor":%s}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "cursor=c2&status=open", "cursor=c3&status=open"},
		},
		{
			name: "cursor echoing the current one ends",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				cur := r.URL.Query().Get("cursor")
				if n < 3 {
					serveJSON(200, fmt.Sprintf(`{"actions":%s,"cursor":"c%d"}`, pageItems(n), n+1))(w, r)
					return
				}
				serveJSON(200, fmt.Sprintf(`{"actions":%s,"cursor":%q}`, pageItems(n), cur))(w, r)
			},
			wantQuery: []string{"status=open", "cursor=c2&status=open", "cursor=c3&status=open"},
		},
		{
			name: "meta next_cursor",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := `null`
				if n < 3 {
					next = fmt.Sprintf(`"c%d"`, n+1)
				}
				serveJSON(200, fmt.Sprintf(`{"data":%s,"meta":{"next_cursor":%s}}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "cursor=c2&status=open", "cursor=c3&status=open"},
		},
		{
			name: "next_page",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				next := `null`
				if n < 3 {
					next = strconv.Itoa(n + 1)
				}
				serveJSON(200, fmt.Sprintf(`{"data":%s,"next_page":%s}`, pageItems(n), next))(w, r)
			},
			wantQuery: []string{"status=open", "page=2&status=open", "page=3&status=open"},
		},
		{
			name: "page and total_pages",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				serveJSON(200, fmt.Sprintf(`{"data":%s,"page":%d,"total_pages":3}`, pageItems(n), n))(w, r)
			},
			wantQuery: []string{"status=open", "page=2&status=open", "page=3&status=open"},
		},
		{
			name: "pagination object with current_page and last_page",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				serveJSON(200, fmt.Sprintf(`{"data":%s,"pagination":{"current_page":"%d","last_page":3}}`, pageItems(n), n))(w, r)
			},
			wantQuery: []string{"status=open", "page=2&status=open", "page=3&status=open"},
		},
		{
			name: "has_more without page",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				serveJSON(200, fmt.Sprintf(`{"data":%s,"has_more":%t}`, pageItems(n), n < 3))(w, r)
			},
			wantQuery: []string{"status=open", "page=2&status=open", "page=3&status=open"},
		},
		{
			name: "has_more false beats a next link",
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Link", fmt.Sprintf(`<?page=%d>; rel="next"`, n+1))
				serveJSON(200, fmt.Sprintf(`{"data":%s,"has_more":%t}`, pageItems(n), n < 3))(w, r)
			},
			wantQuery: []string{"status=open", "page=2", "page=3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				n := pageOf(r)
				if n < 1 || n > 3 {
					t.Errorf("request for page %d: %s", n, r.RequestURI)
					http.NotFound(w, r)
					return
				}
				// Items are open whatever the page, for the client-side filter.
				tt.serve(w, r, n)
			})
			list, err := newTestClient(t, srv).ListActions(t.Context(), &ListActionsOptions{Status: StatusOpen})
			// The records have no status; the client-side filter would drop
			// them, so look at the requests and the Truncated flag instead.
			require.NoError(t, err)
			assert.False(t, list.Truncated)
			var got []string
			for _, r := range srv.requests() {
				got = append(got, r.Query)
			}
			assert.Equal(t, tt.wantQuery, got)
		})
	}
}

func TestPaginationCollectsEveryPage(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := pageOf(r)
		if n < 3 {
			w.Header().Set("Link", fmt.Sprintf(`<?page=%d>; rel="next"`, n+1))
		}
		serveJSON(200, pageItems(n))(w, r)
	})
	list, err := newTestClient(t, srv, WithRawRecords()).ListActions(t.Context(), nil)
	require.NoError(t, err)
	var ids []string
	for _, a := range list.Actions {
		ids = append(ids, a.ID)
	}
	assert.Equal(t, []string{"p1-a", "p1-b", "p2-a", "p2-b", "p3-a", "p3-b"}, ids)
	assert.Equal(t, `{"id":"p1-a"}`, string(list.Actions[0].Raw))
	assert.Equal(t, `{"id":"p3-b"}`, string(list.Actions[5].Raw))
	assert.False(t, list.Truncated)
}

func TestPaginationLoop(t *testing.T) {
	t.Parallel()
	// Page 2 links back to page 1.
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		next := "?page=2"
		if pageOf(r) == 2 {
			next = basePath + "/actions"
		}
		w.Header().Set("Link", `<`+next+`>; rel="next"`)
		serveJSON(200, pageItems(pageOf(r)))(w, r)
	})
	list, err := newTestClient(t, srv).ListActions(t.Context(), nil)
	require.NoError(t, err)
	assert.True(t, list.Truncated, "a loop is reported, not silent")
	assert.Len(t, list.Actions, 4)
	assert.Len(t, srv.requests(), 2)
}

func TestPaginationCaps(t *testing.T) {
	t.Parallel()
	// An endless listing: every page links to the next.
	endless := func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("page"))
		w.Header().Set("Link", fmt.Sprintf(`<?page=%d>; rel="next"`, n+1))
		serveJSON(200, `[{"id":"a"},{"id":"b"},{"id":"c"}]`)(w, r)
	}
	tests := []struct {
		name          string
		handler       http.HandlerFunc
		maxPages      int
		maxItems      int
		wantItems     int
		wantRequests  int
		wantTruncated bool
	}{
		{name: "page cap", handler: endless, maxPages: 4, maxItems: 1000, wantItems: 12, wantRequests: 4, wantTruncated: true},
		{name: "item cap inside a page", handler: endless, maxPages: 100, maxItems: 5, wantItems: 5, wantRequests: 2, wantTruncated: true},
		{name: "item cap at a page end with more pages", handler: endless, maxPages: 100, maxItems: 6, wantItems: 6, wantRequests: 2, wantTruncated: true},
		{name: "item cap exactly met on the last page", handler: serveJSON(200, `[{"id":"a"},{"id":"b"},{"id":"c"}]`), maxPages: 100, maxItems: 3, wantItems: 3, wantRequests: 1},
		{name: "page cap exactly met on the last page", handler: serveJSON(200, `[{"id":"a"}]`), maxPages: 1, maxItems: 100, wantItems: 1, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, tt.handler)
			list, err := newTestClient(t, srv, WithListLimits(tt.maxPages, tt.maxItems)).ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Len(t, list.Actions, tt.wantItems)
			assert.Equal(t, tt.wantTruncated, list.Truncated)
			assert.Len(t, srv.requests(), tt.wantRequests)
		})
	}
}

func TestNextLinkToAnotherHost(t *testing.T) {
	t.Parallel()
	var evilCalls atomic.Int32
	evil := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		evilCalls.Add(1)
		serveJSON(200, `[]`)(w, r)
	})
	tests := []struct {
		name string
		next func(r *http.Request) (header, body string)
	}{
		{name: "link header other host", next: func(r *http.Request) (string, string) {
			return `<` + evil.URL + basePath + `/actions?page=2>; rel="next"`, `[]`
		}},
		{name: "body next other host", next: func(r *http.Request) (string, string) {
			return "", `{"data":[],"next":"` + evil.URL + basePath + `/actions?page=2"}`
		}},
		{name: "scheme-relative", next: func(r *http.Request) (string, string) {
			return `<//` + strings.TrimPrefix(evil.URL, "http://") + basePath + `/actions>; rel=next`, `[]`
		}},
		{name: "https downgrade to http is another scheme", next: func(r *http.Request) (string, string) {
			return `<https://` + r.Host + basePath + `/actions?page=2>; rel=next`, `[]`
		}},
		{name: "user info", next: func(r *http.Request) (string, string) {
			return `<http://user@` + r.Host + basePath + `/actions?page=2>; rel=next`, `[]`
		}},
	}
	// Cleanup, not a plain assert: the parallel subtests run after this
	// function returns.
	t.Cleanup(func() { assert.Zero(t, evilCalls.Load(), "the key never goes to another host") })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				h, b := tt.next(r)
				if h != "" {
					w.Header().Set("Link", h)
				}
				serveJSON(200, b)(w, r)
			})
			c := newTestClient(t, srv)
			// Not followed, and not hidden either: the caller learns the
			// list is incomplete and why.
			list, err := c.ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.True(t, list.Truncated, "actions: truncation reported")
			assert.Contains(t, list.TruncatedReason, "not the records api host")
			page, err := c.ListMeetings(t.Context(), nil)
			require.NoError(t, err)
			assert.True(t, page.Truncated, "meetings: truncation reported")
			assert.Empty(t, page.Next)
			assert.Len(t, srv.requests(), 2)
		})
	}
}
