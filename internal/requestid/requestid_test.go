package requestid_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"testing/slogtest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/requestid"
)

func TestLogHandlerIsAConformingHandler(t *testing.T) {
	t.Parallel()
	var buf *bytes.Buffer
	slogtest.Run(t,
		func(*testing.T) slog.Handler {
			buf = new(bytes.Buffer)
			return requestid.LogHandler(slog.NewJSONHandler(buf, nil))
		},
		func(t *testing.T) map[string]any {
			var m map[string]any
			require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
			return m
		})
}

func TestRequestIDOnEveryLineOfARequest(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(requestid.LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")
	ctx := requestid.New(t.Context())
	id := requestid.From(ctx)
	derived, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()

	log.InfoContext(ctx, "one")
	log.InfoContext(derived, "two, after the ack")
	log.Info("three, outside any request")

	var lines []map[string]any
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m))
		lines = append(lines, m)
	}
	require.Len(t, lines, 3)
	assert.Regexp(t, `^[0-9a-f]{16}$`, id)
	assert.Equal(t, id, lines[0]["request_id"])
	assert.Equal(t, id, lines[1]["request_id"], "work derived from the request keeps its ID")
	assert.NotContains(t, lines[2], "request_id")
	assert.Equal(t, "test", lines[0]["component"], "attributes of the logger are kept")
	assert.NotEqual(t, id, requestid.From(requestid.New(t.Context())), "each request has its own ID")
	assert.Empty(t, requestid.From(t.Context()))
}
