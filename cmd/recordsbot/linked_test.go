package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinaryLinksNoTestOnlyPackage: the binary links the fakes `demo` and
// `sandbox` run (apiclient/recordsfake, internal/slackapi/slackfake,
// internal/orgsim, internal/sampleorg) and nothing only tests use: no
// package of the module named *test (recordstest, slacktest, bottest...)
// and not internal/testworld.
func TestBinaryLinksNoTestOnlyPackage(t *testing.T) {
	t.Parallel()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{.ImportPath}} {{.Name}}", ".").Output()
	require.NoError(t, err, "go list -deps")
	const module = "github.com/recordsbot/recordsbot/"
	for line := range strings.Lines(string(out)) {
		path, name, _ := strings.Cut(strings.TrimSpace(line), " ")
		if !strings.HasPrefix(path, module) {
			continue
		}
		if strings.HasSuffix(name, "test") || path == module+"internal/testworld" {
			t.Errorf("cmd/recordsbot links %s, which only tests may import", path)
		}
	}
}
