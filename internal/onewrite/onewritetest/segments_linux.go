package onewritetest

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Dialer dials TCP and keeps the connections, for SegmentsIn.
type Dialer struct {
	mu    sync.Mutex
	conns []*net.TCPConn
}

// DialContext is an http.Transport's DialContext.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		d.mu.Lock()
		d.conns = append(d.conns, c.(*net.TCPConn))
		d.mu.Unlock()
	}
	return c, err
}

// Conns is how many connections d dialled.
func (d *Dialer) Conns() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.conns)
}

// SegmentsIn is how many TCP segments with data arrived on the first
// connection d dialled, as its kernel counts them (tcp_info's
// tcpi_data_segs_in, tcp(7)), or 0 before it dialled: on loopback, whose
// MTU is 64 kB, one for an answer sent in one write, one per write for an
// answer written in several.
func (d *Dialer) SegmentsIn(t testing.TB) uint32 {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.conns) == 0 {
		return 0
	}
	raw, err := d.conns[0].SyscallConn()
	require.NoError(t, err)
	var info *unix.TCPInfo
	require.NoError(t, raw.Control(func(fd uintptr) {
		info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}))
	require.NoError(t, err)
	return info.Data_segs_in
}
