package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: serve,
// remind and the demo start servers, and must stop them all however they
// end.
//
// With RECORDSBOT_TEST_MAIN=1 the test binary is recordsbot itself (main,
// as a shell would start it), for the tests that need the real
// environment and exit status (settings_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// TestDemoThroughRun drives `recordsbot demo` as main does: flags, the
// logger and package demo's console (tested in depth there).
func TestDemoThroughRun(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), Config{LogLevel: "info"}, []string{"demo", "--as", "carol"},
		strings.NewReader("/actions help\nquit\n"), &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "recordsbot demo", "a banner says what this is")
	assert.Contains(t, out, "@carol (Carol Chen)")
	assert.Contains(t, out, "/actions, then click 1", "and what to try")
	assert.Contains(t, out, "carol> /actions help", "commands are echoed without a terminal")
	assert.Contains(t, out, "`/actions` — your actions from committee meetings")
	assert.NotContains(t, out, "\x1b[", "no colour without a terminal")
	assert.Empty(t, stderr.String(), "the bot's logs stay quiet")

	err = run(t.Context(), Config{}, []string{"demo", "--bogus"}, strings.NewReader(""), io.Discard, io.Discard)
	assert.ErrorIs(t, err, errUsage)
	err = run(t.Context(), Config{}, []string{"demo", "--as", "zed"}, strings.NewReader(""), io.Discard, io.Discard)
	assert.ErrorContains(t, err, `--as: there is no one called "zed"`)
}
