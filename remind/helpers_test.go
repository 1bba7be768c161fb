package remind_test

import (
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// testLogger sends the job's logs to the test log.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tlogWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tlogWriter struct{ t *testing.T }

var logMu sync.Mutex

func (w tlogWriter) Write(p []byte) (int, error) {
	logMu.Lock()
	defer logMu.Unlock()
	defer func() { recover() }() // the test may have ended while work finished
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// manifest is the part of manifest.yaml these tests read: the bot scopes
// the app is granted, which the fake Slack then enforces.
type manifest struct {
	OAuth struct {
		Scopes struct {
			Bot []string `json:"bot"`
		} `json:"scopes"`
	} `json:"oauth_config"`
}

func readManifest(t *testing.T) manifest {
	t.Helper()
	b, err := os.ReadFile("../manifest.yaml")
	require.NoError(t, err)
	var m manifest
	require.NoError(t, yaml.Unmarshal(b, &m))
	return m
}
