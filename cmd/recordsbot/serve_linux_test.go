package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// A long answer to Slack (net/http writes it in two writes; writeAck
// holds them and internal/onewrite sends one) arrives whole and in one
// TCP segment, counted by the client's kernel (tcp_info's
// tcpi_data_segs_in, tcp(7)), and the connection it came on answers the
// next command at once: serve's listener gives every connection to
// onewrite.
func TestServeSendsLongAnswersInOneSegment(t *testing.T) {
	t.Parallel()
	e := newServeEnv(t, nil)
	e.start()
	e.waitReady()
	require.NotNil(t, httpServer(testApp(t, e.cfg, "serve", io.Discard), http.NotFoundHandler()).ConnContext)

	var (
		mu    sync.Mutex
		conns []*net.TCPConn
	)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				mu.Lock()
				conns = append(conns, c.(*net.TCPConn))
				mu.Unlock()
			}
			return c, err
		},
	}}
	segmentsIn := func() uint32 {
		mu.Lock()
		defer mu.Unlock()
		if len(conns) == 0 {
			return 0
		}
		raw, err := conns[0].SyscallConn()
		require.NoError(t, err)
		var info *unix.TCPInfo
		require.NoError(t, raw.Control(func(fd uintptr) {
			info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		}))
		require.NoError(t, err)
		return info.Data_segs_in
	}
	send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack, HTTPClient: client}
	var first []byte
	for i := range 3 {
		before := segmentsIn()
		r, err := send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/actions"})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		require.Greater(t, len(r.Body), 4096, "longer than net/http's connection buffer")
		var msg struct {
			Blocks []json.RawMessage `json:"blocks"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &msg), "whole JSON")
		require.NotEmpty(t, msg.Blocks)
		assert.EqualValues(t, 1, segmentsIn()-before, "one segment")
		if i == 0 {
			first = r.Body
		}
		assert.Len(t, r.Body, len(first))
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, conns, 1, "one kept-alive connection")
}
