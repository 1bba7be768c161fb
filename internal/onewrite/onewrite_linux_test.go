package onewrite_test

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/onewrite"
	"github.com/recordsbot/recordsbot/internal/onewrite/onewritetest"
)

// An answer longer than net/http's 4 kB connection buffer, held while it
// is written, leaves in one segment and arrives whole; the same answer
// not held leaves in several, so the count tells. After Send the
// connection writes directly again: the next, short answer on the
// kept-alive connection arrives (held, it would never leave).
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
		assert.NotNil(t, c, "Listen wraps every TCP connection")
		if r.URL.Path == "/held" {
			c.Hold()
		}
		w.Write(body)
		w.(http.Flusher).Flush()
		assert.NoError(t, c.Send())
	})
	var segs onewritetest.Dialer
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: segs.DialContext}}
	require.Equal(t, "ok", string(get(t, client, srv.URL+"/small")))

	for range 3 {
		before := segs.SegmentsIn(t)
		require.Equal(t, body, get(t, client, srv.URL+"/held"))
		require.EqualValues(t, 1, segs.SegmentsIn(t)-before, "held: one segment")

		before = segs.SegmentsIn(t)
		require.Equal(t, body, get(t, client, srv.URL+"/plain"))
		require.Greater(t, segs.SegmentsIn(t)-before, uint32(1), "not held: a segment per write")

		require.Equal(t, "ok", string(get(t, client, srv.URL+"/small")))
	}
}
