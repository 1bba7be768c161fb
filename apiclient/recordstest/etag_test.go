package recordstest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conditionalGet fetches path with If-None-Match set to inm.
func conditionalGet(t *testing.T, srv *Server, path, inm string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+DefaultKey)
	req.Header.Set("If-None-Match", inm)
	return do(t, req)
}

func TestETagsRevalidateEachPage(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithETags(), WithPageSize(2))

	first := get(t, srv, "/actions")
	require.Equal(t, http.StatusOK, first.status)
	tag := first.header.Get("ETag")
	require.Regexp(t, `^"[0-9a-f]{32}"$`, tag, "a strong entity tag")
	assert.Equal(t, tag, get(t, srv, "/actions").header.Get("ETag"), "the same body has the same tag")

	next := decode[struct {
		NextCursor string `json:"next_cursor"`
	}](t, first.body).NextCursor
	require.NotEmpty(t, next)
	second := get(t, srv, "/actions?cursor="+next)
	assert.NotEqual(t, tag, second.header.Get("ETag"), "every page has its own tag")

	tests := []struct {
		name string
		inm  string
		want int
	}{
		{name: "current tag", inm: tag, want: http.StatusNotModified},
		{name: "weak form of the tag", inm: "W/" + tag, want: http.StatusNotModified},
		{name: "in a list", inm: `"other", ` + tag, want: http.StatusNotModified},
		{name: "star", inm: "*", want: http.StatusNotModified},
		{name: "another tag", inm: `"0123"`, want: http.StatusOK},
		{name: "the next page's tag", inm: second.header.Get("ETag"), want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := conditionalGet(t, srv, "/actions", tt.inm)
			assert.Equal(t, tt.want, got.status)
			assert.Equal(t, tag, got.header.Get("ETag"), "a 304 repeats the tag (RFC 9110 §15.4.5)")
			if tt.want == http.StatusNotModified {
				assert.Empty(t, got.body)
				assert.Empty(t, got.header.Get("Content-Type"))
			} else {
				assert.Equal(t, first.body, got.body)
			}
		})
	}
}

func TestETagsChangeWithTheRecords(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithETags())
	before := get(t, srv, "/actions?status=open")
	tag := before.header.Get("ETag")
	require.NotEmpty(t, tag)

	// A PUT is never conditional, and changes what the list says.
	res := put(t, srv, "/actions/A-1", `{"status":"complete"}`)
	require.Equal(t, http.StatusOK, res.status)
	assert.Empty(t, res.header.Get("ETag"))

	after := conditionalGet(t, srv, "/actions?status=open", tag)
	assert.Equal(t, http.StatusOK, after.status, "a changed list is sent in full")
	assert.NotEqual(t, tag, after.header.Get("ETag"))
	assert.NotContains(t, string(after.body), "A-1")
	assert.Equal(t, http.StatusNotModified, conditionalGet(t, srv, "/actions?status=open", after.header.Get("ETag")).status)
}

func TestETagsOffByDefault(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	got := conditionalGet(t, srv, "/actions", "*")
	assert.Equal(t, http.StatusOK, got.status)
	assert.Empty(t, got.header.Get("ETag"))
}

func TestETagsLeaveErrorsAlone(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t, WithETags())
	got := send(t, http.MethodGet, srv.URL+"/actions", "wrong-key", "")
	assert.Equal(t, http.StatusUnauthorized, got.status)
	assert.Empty(t, got.header.Get("ETag"))
	got = conditionalGet(t, srv, "/meetings/nope", "*")
	assert.Equal(t, http.StatusNotFound, got.status)
}
