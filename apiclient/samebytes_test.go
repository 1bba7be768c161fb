package apiclient_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
)

// bytesServer answers GET /actions with body, and with X-Total-Count when
// total is set; it sends no validators, as many records services do not.
type bytesServer struct {
	*httptest.Server
	body  atomic.Value // of string
	total atomic.Value // of string
}

func newBytesServer(t *testing.T, body string) *bytesServer {
	t.Helper()
	s := &bytesServer{}
	s.body.Store(body)
	s.total.Store("")
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := s.total.Load().(string); n != "" {
			w.Header().Set("X-Total-Count", n)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(s.body.Load().(string)))
	}))
	t.Cleanup(s.Close)
	return s
}

const twoOpen = `[{"id":"a1","title":"First","status":"open"},{"id":"a2","title":"Second","status":"open"}]`

func TestSameBytesSameList(t *testing.T) {
	t.Parallel()
	srv := newBytesServer(t, twoOpen)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", apiclient.WithSharedLists())
	require.NoError(t, err)
	read := func() *apiclient.ActionList {
		t.Helper()
		l, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
		require.NoError(t, err)
		return l
	}
	first, second := read(), read()
	assert.Equal(t, first, second)
	third := read()
	assert.Same(t, second, third, "the same bytes again: the same list, neither decoded nor copied")
	assert.Equal(t, []string{"a1", "a2"}, ids(third))

	// Another answer's headers are read afresh with the same body.
	srv.total.Store("5")
	cut := read()
	assert.NotSame(t, third, cut)
	assert.True(t, cut.Truncated, "the server now says there are more")
	assert.Equal(t, 5, cut.Total)
	srv.total.Store("")
	assert.False(t, read().Truncated)

	// Changed bytes are decoded.
	srv.body.Store(`[{"id":"a1","title":"Changed","status":"open"}]`)
	changed := read()
	assert.Equal(t, []string{"a1"}, ids(changed))
	assert.Equal(t, "Changed", changed.Actions[0].Title)
	changedAgain := read()
	assert.Same(t, changedAgain, read(), "the new bytes, once remembered, are not decoded again either")
}

func TestSameBytesStatusFilterCopies(t *testing.T) {
	t.Parallel()
	// A server that ignores ?status=: the client drops what it did not
	// ask for, from a copy, never from the remembered records.
	srv := newBytesServer(t, `[{"id":"a1","status":"open"},{"id":"a2","status":"complete"},{"id":"a3","status":"open"}]`)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", apiclient.WithSharedLists())
	require.NoError(t, err)
	for range 4 {
		open, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
		require.NoError(t, err)
		assert.Equal(t, []string{"a1", "a3"}, ids(open))
		all, err := c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"a1", "a2", "a3"}, ids(all))
	}
}

func TestSameBytesCallerOwnsListWithoutSharing(t *testing.T) {
	t.Parallel()
	srv := newBytesServer(t, twoOpen)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k")
	require.NoError(t, err)
	var prev *apiclient.ActionList
	for range 3 {
		l, err := c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, "First", l.Actions[0].Title)
		assert.NotSame(t, prev, l)
		l.Actions[0].Title = "scribbled" // the caller's own: the next read is not changed
		prev = l
	}
}

// TestSameBytesConcurrent: readers of one shared list, some asking for a
// status the server does not filter by, while the bytes change now and
// then (run it with -race).
func TestSameBytesConcurrent(t *testing.T) {
	t.Parallel()
	srv := newBytesServer(t, `[{"id":"a1","status":"open"},{"id":"a2","status":"complete"}]`)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", apiclient.WithSharedLists())
	require.NoError(t, err)
	done := make(chan error)
	for g := range 6 {
		go func() {
			for i := range 20 {
				if g == 0 && i%5 == 0 {
					srv.body.Store(`[{"id":"a1","status":"open"},{"id":"a2","status":"complete"},{"id":"a` + string(rune('3'+i%5)) + `","status":"open"}]`)
				}
				opts := &apiclient.ListActionsOptions{Status: apiclient.StatusOpen}
				if g%2 == 1 {
					opts = nil
				}
				l, err := c.ListActions(t.Context(), opts)
				if err == nil && opts != nil {
					for _, a := range l.Actions {
						if a.Status != apiclient.StatusOpen {
							err = assert.AnError
						}
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 6 {
		require.NoError(t, <-done)
	}
}
