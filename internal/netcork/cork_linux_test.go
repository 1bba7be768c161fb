package netcork_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/netcork"
)

// corked reads TCP_CORK of the connection r came on.
func corked(t *testing.T, r *http.Request) bool {
	t.Helper()
	var v int
	var err error
	netcork.Control(netcork.From(r.Context()), func(fd uintptr) {
		v, err = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK)
	})
	require.NoError(t, err)
	return v != 0
}

// An answer longer than net/http's connection buffer, written corked,
// arrives whole; the socket is corked while it is written and not after,
// so the next answer on the kept-alive connection is not held.
func TestCorkedAnswerArrivesWholeAndTheSocketIsUncorked(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 1500) // 24 kB
	var during, after []bool
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := netcork.From(r.Context())
		require.NotNil(t, c, "ConnContext keeps every TCP connection")
		if r.URL.Path == "/small" {
			after = append(after, corked(t, r))
			w.Write([]byte("ok"))
			return
		}
		c.Cork()
		during = append(during, corked(t, r))
		w.Write(body)
		w.(http.Flusher).Flush()
		c.Uncork()
		after = append(after, corked(t, r))
	}))
	srv.Config.ConnContext = netcork.ConnContext
	srv.Start()
	t.Cleanup(srv.Close)

	client := srv.Client()
	for range 3 {
		got := get(t, client, srv.URL+"/big")
		require.Equal(t, body, got)
		require.Equal(t, "ok", string(get(t, client, srv.URL+"/small")))
	}
	require.Equal(t, []bool{true, true, true}, during)
	require.Equal(t, []bool{false, false, false, false, false, false}, after)
}

func get(t *testing.T, c *http.Client, url string) []byte {
	t.Helper()
	resp, err := c.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}
