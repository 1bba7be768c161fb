package doctor

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// doctor checks the token for the scopes manifest.yaml asks for; the
// fake Slack's ManifestScopes is kept equal to the manifest by its own
// test, so the two lists are one.
func TestNeededScopesMatchManifest(t *testing.T) {
	t.Parallel()
	assert.ElementsMatch(t, slacktest.ManifestScopes(), neededScopes)
}

func TestParseScopes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   []string
		want []string
	}{
		"Slack's spacing":  {in: []string{"files:read, chat:write:bot"}, want: []string{"files:read", "chat:write:bot"}},
		"no spaces":        {in: []string{"commands,chat:write"}, want: []string{"commands", "chat:write"}},
		"empty items":      {in: []string{" , commands,, "}, want: []string{"commands"}},
		"repeated header":  {in: []string{"commands", "users:read"}, want: []string{"commands", "users:read"}},
		"empty header":     {in: []string{""}, want: nil},
		"no header at all": {in: nil, want: nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, parseScopes(tt.in))
		})
	}
}

// Whatever the header holds, each scope read is non-empty and trimmed, and
// reading what was read, joined as Slack joins it, gives it back.
func FuzzParseScopes(f *testing.F) {
	f.Add("files:read, chat:write:bot")
	f.Add(" , commands,,users:read.email ")
	f.Add("")
	f.Fuzz(func(t *testing.T, header string) {
		got := parseScopes([]string{header})
		for _, s := range got {
			if s == "" || s != strings.TrimSpace(s) || strings.Contains(s, ",") {
				t.Fatalf("parseScopes(%q) gave %q", header, s)
			}
		}
		again := parseScopes([]string{strings.Join(got, ", ")})
		if !slices.Equal(got, again) {
			t.Fatalf("parseScopes(%q) = %q, but reading it back gave %q", header, got, again)
		}
	})
}
