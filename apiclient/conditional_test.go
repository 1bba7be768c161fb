package apiclient_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// statuses returns the status codes the records server answered to GET
// /actions, in order.
func statuses(srv *recordstest.Server) []int {
	var out []int
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/actions") {
			out = append(out, r.Status)
		}
	}
	return out
}

func ids(list *apiclient.ActionList) []string {
	out := make([]string, len(list.Actions))
	for i, a := range list.Actions {
		out[i] = a.ID
	}
	return out
}

func TestConditionalListServedFromMemoOn304(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t, recordstest.WithETags())
	first, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
	require.NoError(t, err)
	pages := len(statuses(srv))
	require.Greater(t, pages, 1, "the open actions span several pages")
	assert.Equal(t, []int{200}, uniq(statuses(srv)))

	srv.ResetRequests()
	again, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
	require.NoError(t, err)
	assert.Equal(t, []int{304}, uniq(statuses(srv)), "every page revalidated, none sent again")
	assert.Len(t, statuses(srv), pages)
	assert.Equal(t, first, again, "a 304 gives the same list as the download")

	// The caller owns its list: changing it does not change the memo.
	again.Actions[0].Title = "scribbled"
	third, err := c.ListActions(t.Context(), &apiclient.ListActionsOptions{Status: apiclient.StatusOpen})
	require.NoError(t, err)
	assert.Equal(t, first.Actions[0].Title, third.Actions[0].Title)
}

func TestConditionalListRefetchesOnlyTheChangedPage(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t, recordstest.WithETags())
	before, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	pages := len(statuses(srv))
	require.Greater(t, pages, 2)

	// Change the last action: only the last page's ETag changes.
	last := srv.Actions()[len(srv.Actions())-1]
	last.Title = "Renamed by the secretary"
	srv.AddAction(last)
	srv.ResetRequests()

	after, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	got := statuses(srv)
	require.Len(t, got, pages)
	assert.Equal(t, []int{304}, uniq(got[:pages-1]))
	assert.Equal(t, 200, got[pages-1], "the changed page is downloaded")
	assert.Equal(t, ids(before), ids(after))
	assert.Equal(t, "Renamed by the secretary", after.Actions[len(after.Actions)-1].Title)
}

func TestConditionalListSeesStatusChanges(t *testing.T) {
	t.Parallel()
	_, c := newE2E(t, recordstest.WithETags())
	open := &apiclient.ListActionsOptions{Status: apiclient.StatusOpen}
	before, err := c.ListActions(t.Context(), open)
	require.NoError(t, err)
	id := before.Actions[0].ID
	_, err = c.UpdateActionStatus(t.Context(), id, apiclient.StatusComplete)
	require.NoError(t, err)

	after, err := c.ListActions(t.Context(), open)
	require.NoError(t, err)
	assert.NotContains(t, ids(after), id, "a closed action leaves the open list at once")
	assert.Len(t, after.Actions, len(before.Actions)-1)
}

func TestConditionalListWithoutValidators(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t) // recordstest without WithETags: no ETag, no Last-Modified
	for range 2 {
		list, err := c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Len(t, list.Actions, len(srv.Actions()))
	}
	assert.Equal(t, []int{200}, uniq(statuses(srv)))
}

// validatorServer serves a two-action list with the given validator header
// and records the conditional headers each request carried.
type validatorServer struct {
	*httptest.Server
	inm, ims atomic.Value // of string: the last If-None-Match, If-Modified-Since
	title    atomic.Value // of string: the first action's title
	answer   atomic.Int32 // status to answer a conditional request with; 0: compare
}

func newValidatorServer(t *testing.T, header, value string) *validatorServer {
	t.Helper()
	s := &validatorServer{}
	s.title.Store("First")
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inm.Store(r.Header.Get("If-None-Match"))
		s.ims.Store(r.Header.Get("If-Modified-Since"))
		if code := int(s.answer.Load()); code != 0 {
			w.WriteHeader(code)
			return
		}
		v := value + s.title.Load().(string)
		if header == "Last-Modified" {
			v = value
		}
		w.Header().Set(header, v)
		if r.Header.Get("If-None-Match") == v || (header == "Last-Modified" && r.Header.Get("If-Modified-Since") == v) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"id":"a1","title":"` + s.title.Load().(string) + `","status":"open"},{"id":"a2","title":"Second","status":"open"}]`))
	}))
	t.Cleanup(s.Close)
	return s
}

func TestConditionalListHeaders(t *testing.T) {
	t.Parallel()
	t.Run("etag", func(t *testing.T) {
		t.Parallel()
		srv := newValidatorServer(t, "ETag", `"v-`)
		c, err := apiclient.NewClient(srv.URL+"/api/v1", "k")
		require.NoError(t, err)
		_, err = c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Empty(t, srv.inm.Load(), "nothing to revalidate on the first request")
		list, err := c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, `"v-First`, srv.inm.Load())
		assert.Equal(t, []string{"a1", "a2"}, ids(list))

		srv.title.Store("Changed")
		list, err = c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, "Changed", list.Actions[0].Title, "a new ETag brings the new body")
		_, err = c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, `"v-Changed`, srv.inm.Load(), "the new tag is the one remembered")
	})
	t.Run("last-modified", func(t *testing.T) {
		t.Parallel()
		lm := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC).Format(http.TimeFormat)
		srv := newValidatorServer(t, "Last-Modified", lm)
		c, err := apiclient.NewClient(srv.URL+"/api/v1", "k")
		require.NoError(t, err)
		_, err = c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		list, err := c.ListActions(t.Context(), nil)
		require.NoError(t, err)
		assert.Equal(t, lm, srv.ims.Load())
		assert.Empty(t, srv.inm.Load())
		assert.Equal(t, []string{"a1", "a2"}, ids(list))
	})
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		srv := newValidatorServer(t, "ETag", `"v-`)
		c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", apiclient.WithConditionalRequests(0))
		require.NoError(t, err)
		for range 2 {
			_, err = c.ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Empty(t, srv.inm.Load())
		}
	})
	t.Run("bound smaller than a page", func(t *testing.T) {
		t.Parallel()
		srv := newValidatorServer(t, "ETag", `"v-`)
		c, err := apiclient.NewClient(srv.URL+"/api/v1", "k", apiclient.WithConditionalRequests(1))
		require.NoError(t, err)
		for range 2 {
			_, err = c.ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Empty(t, srv.inm.Load(), "a page of 2 actions is not remembered under a bound of 1")
		}
	})
}

func TestConditionalList304WithoutMemo(t *testing.T) {
	t.Parallel()
	// A server (or a broken cache in front of it) that answers 304 to a
	// request that was not conditional: there is nothing to serve.
	srv := newValidatorServer(t, "ETag", `"v-`)
	srv.answer.Store(http.StatusNotModified)
	c, err := apiclient.NewClient(srv.URL+"/api/v1", "k")
	require.NoError(t, err)
	_, err = c.ListActions(t.Context(), nil)
	require.ErrorIs(t, err, apiclient.ErrInvalidResponse)
	assert.Empty(t, srv.inm.Load())
}

func uniq(xs []int) []int {
	var out []int
	for _, x := range xs {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

func TestConditionalListConcurrent(t *testing.T) {
	t.Parallel()
	srv, c := newE2E(t, recordstest.WithETags())
	// A tiny bound makes the goroutines evict each other's pages too.
	small, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey, apiclient.WithConditionalRequests(10))
	require.NoError(t, err)
	want := len(srv.Actions())
	done := make(chan error)
	for g := range 8 {
		go func() {
			client := c
			if g%2 == 1 {
				client = small
			}
			for range 5 {
				list, err := client.ListActions(t.Context(), nil)
				if err == nil && len(list.Actions) != want {
					err = assert.AnError
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-done)
	}
	assert.Contains(t, statuses(srv), http.StatusNotModified)
}
