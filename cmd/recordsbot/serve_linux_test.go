package main

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/onewrite/onewritetest"
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

	var dialer onewritetest.Dialer
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
	send := &slacktest.Sender{URL: e.base + "/slack/events", Secret: e.cfg.SlackSigningSecret, Slack: e.slack, HTTPClient: client}
	var first []byte
	for i := range 3 {
		before := dialer.SegmentsIn(t)
		r, err := send.SlashCommand(t.Context(), slacktest.Command{User: e.people["alice"], Command: "/actions"})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		require.Greater(t, len(r.Body), 4096, "longer than net/http's connection buffer")
		var msg struct {
			Blocks []json.RawMessage `json:"blocks"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &msg), "whole JSON")
		require.NotEmpty(t, msg.Blocks)
		assert.EqualValues(t, 1, dialer.SegmentsIn(t)-before, "one segment")
		if i == 0 {
			first = r.Body
		}
		assert.Len(t, r.Body, len(first))
	}
	assert.Equal(t, 1, dialer.Conns(), "one kept-alive connection")
}
