package onewrite_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/recordsbot/recordsbot/internal/onewrite"
)

// segments counts, from the client's side, the TCP segments with data
// that arrived on the connection it dialled (tcp_info's tcpi_data_segs_in,
// tcp(7)): one for an answer sent in one write on loopback, whose MTU is
// 64 kB, one per write for an answer written in several.
type segments struct {
	mu   sync.Mutex
	conn *net.TCPConn
}

func (s *segments) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		s.mu.Lock()
		s.conn = c.(*net.TCPConn)
		s.mu.Unlock()
	}
	return c, err
}

func (s *segments) in(t testing.TB) uint32 {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, err := s.conn.SyscallConn()
	require.NoError(t, err)
	var info *unix.TCPInfo
	require.NoError(t, raw.Control(func(fd uintptr) {
		info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}))
	require.NoError(t, err)
	return info.Data_segs_in
}

// An answer longer than net/http's 4 kB connection buffer, held while it
// is written, leaves in one segment and arrives whole; the same answer
// not held leaves in several, so the count tells. After Send the
// connection writes directly again: the next, short answer on the
// kept-alive connection is not held back.
func TestHeldAnswerLeavesInOneSegment(t *testing.T) {
	// 12 kB: past net/http's buffer, within the socket's first send buffer
	// (tcp_wmem's default, 16 kB), so that one write is one segment.
	body := bytes.Repeat([]byte("0123456789abcdef"), 750)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/small" {
			w.Write([]byte("ok"))
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		c := onewrite.From(r.Context())
		require.NotNil(t, c, "Listen wraps every TCP connection")
		if r.URL.Path == "/held" {
			c.Hold()
		}
		w.Write(body)
		w.(http.Flusher).Flush()
		require.NoError(t, c.Send())
	})
	var segs segments
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: segs.dial}}
	require.Equal(t, "ok", string(get(t, client, srv.URL+"/small")))

	for range 3 {
		before := segs.in(t)
		require.Equal(t, body, get(t, client, srv.URL+"/held"))
		require.EqualValues(t, 1, segs.in(t)-before, "held: one segment")

		before = segs.in(t)
		require.Equal(t, body, get(t, client, srv.URL+"/plain"))
		require.Greater(t, segs.in(t)-before, uint32(1), "not held: a segment per write")

		start := time.Now()
		require.Equal(t, "ok", string(get(t, client, srv.URL+"/small")))
		require.Less(t, time.Since(start), time.Second)
	}
}
