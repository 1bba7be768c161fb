package onewrite_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/onewrite"
)

func TestWithoutATCPConnectionNothingHappens(t *testing.T) {
	c := onewrite.From(context.Background())
	require.Nil(t, c)
	c.Hold()
	require.NoError(t, c.Send())
}

// A connection that is not TCP (a Unix socket) is served as it is.
func TestOtherConnectionsPassThrough(t *testing.T) {
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	require.NoError(t, err)
	// Set on the server's goroutine, read on the test's.
	var found atomic.Bool
	srv := &http.Server{ConnContext: onewrite.ConnContext, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		found.Store(onewrite.From(r.Context()) != nil)
		io.WriteString(w, "ok")
	})}
	go srv.Serve(onewrite.Listen(ln))
	t.Cleanup(func() { srv.Close() })
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", ln.Addr().String())
	}}}
	require.Equal(t, "ok", string(get(t, client, "http://unix/")))
	require.False(t, found.Load())
}

// What net/http copies straight to the socket (ReadFrom, as io.Copy to a
// ResponseWriter does) comes after what was held, not before it.
func TestReadFromComesAfterWhatIsHeld(t *testing.T) {
	head := strings.Repeat("h", 6000)
	tail := strings.Repeat("t", 40000)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		c := onewrite.From(r.Context())
		c.Hold()
		io.WriteString(w, head)
		w.(http.Flusher).Flush()
		io.Copy(w, strings.NewReader(tail))
		assert.NoError(t, c.Send())
	})
	got := get(t, srv.Client(), srv.URL)
	require.Equal(t, head+tail, string(got))
}

func newServer(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = onewrite.Listen(srv.Listener)
	srv.Config.ConnContext = onewrite.ConnContext
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func get(t testing.TB, c *http.Client, url string) []byte {
	t.Helper()
	resp, err := c.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}
