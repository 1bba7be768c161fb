package main

import (
	"bufio"
	"encoding/json"
	goversion "go/version"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/store"
)

// There is no Docker engine in CI, so these tests read the Dockerfile and
// hold it to what Docker does with it.

// TestDockerfileDataDirectory: the image's default store is a SQLite file
// in a directory that exists in the image and belongs to the user the
// image runs as. Docker fills a new named volume from the image's
// directory at the mount point, ownership included; without the directory
// it creates the volume owned by root, and uid 65532 cannot create the
// database there ("unable to open database file (14)").
func TestDockerfileDataDirectory(t *testing.T) {
	t.Parallel()
	df := dockerfile(t)

	require.Len(t, df["USER"], 1)
	user := df["USER"][0]
	assert.Equal(t, "65532:65532", user, "distroless's nonroot user, as the manifests' runAsUser")

	var databaseURL string
	for _, e := range df["ENV"] {
		if v, ok := strings.CutPrefix(e, "DATABASE_URL="); ok {
			databaseURL = v
		}
	}
	require.NotEmpty(t, databaseURL, "the image sets a default DATABASE_URL")
	require.NoError(t, store.CheckURL(databaseURL))
	file, ok := strings.CutPrefix(databaseURL, "sqlite:///")
	require.True(t, ok, "an absolute SQLite path, not one relative to / (which the user cannot write): %s", databaseURL)
	dataDir := path.Dir("/" + file)
	assert.Equal(t, "/var/lib/recordsbot", dataDir)

	// The directory is copied in owned by the image's user.
	var owned bool
	for _, c := range df["COPY"] {
		f := strings.Fields(c)
		if len(f) >= 2 && f[len(f)-1] == dataDir && strings.Contains(c, "--chown="+user) {
			owned = true
		}
	}
	assert.True(t, owned, "a COPY --chown=%s creates %s (the final image has no shell to mkdir)", user, dataDir)

	// It is declared a volume, and the README mounts one there.
	require.Len(t, df["VOLUME"], 1)
	var volumes []string
	require.NoError(t, json.Unmarshal([]byte(df["VOLUME"][0]), &volumes), "VOLUME in JSON form")
	assert.Equal(t, []string{dataDir}, volumes)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	assert.Regexp(t, `-v [a-z-]+:`+regexp.QuoteMeta(dataDir)+`\b`, string(readme), "README's docker run mounts the data directory")
}

// TestDockerfileBasesArePinned: every base image names a version, and the
// Go toolchain is a full release at least go.mod's.
func TestDockerfileBasesArePinned(t *testing.T) {
	t.Parallel()
	df := dockerfile(t)
	require.Len(t, df["FROM"], 2)
	for _, from := range df["FROM"] {
		image := strings.Fields(from)[0]
		name, tag, ok := strings.Cut(image, ":")
		require.True(t, ok, "%s has a tag", image)
		assert.NotEqual(t, "latest", tag, name)
		if name == "golang" {
			v := "go" + strings.Split(tag, "-")[0]
			assert.Regexp(t, `^go\d+\.\d+\.\d+$`, v, "the Go release is pinned to a patch version: %s", image)
			assert.GreaterOrEqual(t, goversion.Compare(v, "go"+goModVersion(t)), 0, "%s builds go.mod's Go", image)
		}
	}
}

// TestDockerignore: the build context leaves out history, Node modules,
// local databases and environment files (secrets).
func TestDockerignore(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../.dockerignore")
	require.NoError(t, err)
	var patterns []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	for _, want := range []string{".git", "**/node_modules", "*.db", "*.db-*", ".env"} {
		assert.Contains(t, patterns, want)
	}
	for _, p := range patterns {
		for _, needed := range []string{"go.mod", "go.sum", "cmd", "store", "bot"} {
			assert.NotEqual(t, needed, strings.Trim(p, "/"), "the build needs %s", needed)
		}
	}
}

// goModVersion is the go directive of go.mod.
func goModVersion(t *testing.T) string {
	t.Helper()
	f, err := os.Open("../../go.mod")
	require.NoError(t, err)
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("go.mod has no go directive")
	return ""
}

// TestDeployIngressRoutesOnlyThePublicRoutes: the example Ingress sends
// Slack's requests and the public minutes pages to the Service, on the
// host of PUBLIC_URL, and nothing for the cluster (/metrics, /healthz,
// /readyz).
func TestDeployIngressRoutesOnlyThePublicRoutes(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	ing := spec[struct {
		Rules []struct {
			Host string `json:"host"`
			HTTP struct {
				Paths []struct {
					Path     string `json:"path"`
					PathType string `json:"pathType"`
					Backend  struct {
						Service struct {
							Name string `json:"name"`
							Port struct {
								Name string `json:"name"`
							} `json:"port"`
						} `json:"service"`
					} `json:"backend"`
				} `json:"paths"`
			} `json:"http"`
		} `json:"rules"`
	}](t, one(t, objs, "Ingress", "recordsbot"))
	svc := one(t, objs, "Service", "recordsbot")
	public, err := url.Parse(one(t, objs, "ConfigMap", "recordsbot").Data["PUBLIC_URL"])
	require.NoError(t, err)

	require.Len(t, ing.Rules, 1)
	assert.Equal(t, public.Host, ing.Rules[0].Host, "the Ingress serves PUBLIC_URL's host")
	routed := map[string]string{}
	for _, p := range ing.Rules[0].HTTP.Paths {
		routed[p.Path] = p.PathType
		assert.Equal(t, svc.Metadata.Name, p.Backend.Service.Name)
		assert.Equal(t, "http", p.Backend.Service.Port.Name)
	}
	assert.Equal(t, map[string]string{"/slack/events": "Exact", "/minutes/": "Prefix", "/accessibility": "Exact", "/calendar.ics": "Exact", "/calendar/": "Prefix"}, routed)
	for _, private := range []string{"/metrics", "/healthz", "/readyz"} {
		for p, typ := range routed {
			assert.False(t, p == private || (typ == "Prefix" && strings.HasPrefix(private, p)), "%s is not public", private)
		}
	}
}
