package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolchainFixesPending: doctor and serve's start-up say when the
// binary was built with a Go release older than patchedGo.
func TestToolchainFixesPending(t *testing.T) {
	t.Parallel()
	assert.Contains(t, toolchainFixesPending("go1.26.8"), "security fixes pending")
	assert.Contains(t, toolchainFixesPending("go1.27.2"), patchedGo)
	assert.Empty(t, toolchainFixesPending(patchedGo))
	assert.Empty(t, toolchainFixesPending("go1.28.0"))
	assert.Empty(t, toolchainFixesPending("devel go1.28-abcdef"), "a development build is not judged")

	var b strings.Builder
	cfg := Config{Port: 3000, DatabaseURL: "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db")}
	_ = runEnv(t.Context(), environment{cfg: cfg, goVersion: "go1.26.8"}, []string{"doctor"}, strings.NewReader(""), &b, io.Discard)
	assert.Contains(t, b.String(), "! built with go1.26.8, which has known standard-library security fixes pending (go1.27.3 has them)")
	assert.Contains(t, b.String(), "GOTOOLCHAIN=go1.27.3 go build")
}

// TestToolchainInStep: the image, CI's govulncheck and patchedGo name the
// same Go release, so what ships is what was checked.
func TestToolchainInStep(t *testing.T) {
	t.Parallel()
	var golang string
	for _, from := range dockerfile(t)["FROM"] {
		if name, tag, ok := strings.Cut(strings.Fields(from)[0], ":"); ok && name == "golang" {
			golang = "go" + strings.Split(tag, "-")[0]
		}
	}
	assert.Equal(t, patchedGo, golang, "the Dockerfile's golang image")
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`GOTOOLCHAIN=(go[0-9.]+)`).FindAllStringSubmatch(string(ci), -1) {
		assert.Equal(t, patchedGo, m[1], ".ci/run's GOTOOLCHAIN")
	}
}
