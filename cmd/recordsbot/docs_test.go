package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// What an admin reads (README.md, docs/*.md, .env.example, `recordsbot
// help`) must say what the code does. These tests hold the facts that
// matter to the sources of truth: the variables to Config, the schedules
// to the CronJobs, the routes to bot/routes.go and the scopes to
// manifest.yaml. A variable, route or scope added without its docs fails
// here, and so does a doc naming one that does not exist.

// notConfigVars are upper-case names the docs may mention that are not
// recordsbot's settings, each for a reason.
var notConfigVars = map[string]string{
	"NO_COLOR":        "the demo's colour convention (no-color.org)",
	"FUZZTIME":        ".ci/run's fuzzing budget",
	"FUZZ_TARGETS":    "how many fuzz targets .ci/run fuzzes",
	"SQLITE_CANTOPEN": "SQLite's result code, in the store's error",
	"YOUR_HOST":       "manifest.yaml's placeholder for the bot's public host",
	"TCP_NODELAY":     "the socket option Go sets on every TCP connection (tcp(7))",
	"TCP_CORK":        "the socket option of the build performance.md measures internal/onewrite against (tcp(7))",
}

// docVars lists the variables recordsbot reads: every envconfig tag in
// Config, nested structs included (the sandbox's SANDBOX_KEYS too).
func docVars(t *testing.T) []string {
	t.Helper()
	var names []string
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if name := f.Tag.Get("envconfig"); name != "" {
				names = append(names, name)
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[Config]())
	require.NotEmpty(t, names)
	return names
}

// docFiles reads README.md and every docs/*.md, by path from the
// repository's root.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range append(files, "../../README.md") {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out[strings.TrimPrefix(f, "../../")] = string(b)
	}
	require.Contains(t, out, "docs/running-at-scale.md")
	return out
}

func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	require.NoError(t, err)
	return string(b)
}

func helpText(t *testing.T) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), Config{}, []string{"help"}, strings.NewReader(""), &out, &out))
	return out.String()
}

// docSection returns the text under heading (a whole "## …" line) up to the
// next heading of the same level or higher.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	start := strings.Index(doc, "\n"+heading+"\n")
	require.GreaterOrEqual(t, start, 0, "no section %q", heading)
	rest := doc[start+len(heading)+2:]
	if end := regexp.MustCompile(`(?m)^#{1,` + strconv.Itoa(strings.Count(strings.Fields(heading)[0], "#")) + `} `).FindStringIndex(rest); end != nil {
		rest = rest[:end[0]]
	}
	return rest
}

// tableCodes returns the first cell of each table row that is one
// `code span`.
func tableCodes(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDocsEnvironmentVariables: every variable recordsbot reads is in
// README's configuration table, in .env.example with a comment, and in
// `recordsbot help`; no doc, .env.example or help names one it does not
// read.
func TestDocsEnvironmentVariables(t *testing.T) {
	t.Parallel()
	vars := docVars(t)
	docs := docFiles(t)
	help := helpText(t)
	env := readRepoFile(t, ".env.example")

	assert.ElementsMatch(t, vars, tableCodes(docSection(t, docs["README.md"], "## Configuration")),
		"README's configuration table lists exactly the variables recordsbot reads")

	lines := strings.Split(env, "\n")
	inExample := map[string]bool{}
	for i, l := range lines {
		m := regexp.MustCompile(`^(?:# )?([A-Z][A-Z0-9_]+)=`).FindStringSubmatch(l)
		if m == nil {
			continue
		}
		inExample[m[1]] = true
		assert.True(t, i > 0 && strings.HasPrefix(lines[i-1], "#"), ".env.example: %s has a comment above it", m[1])
	}
	for _, v := range vars {
		assert.True(t, inExample[v], ".env.example sets or shows %s", v)
		assert.Regexp(t, `(?m)^  `+v+` `, help, "recordsbot help lists %s", v)
	}

	known := func(name string) bool {
		_, other := notConfigVars[name]
		// RECORDSBOT_… are the tests' and benchmarks' opt-in switches.
		return slices.Contains(vars, name) || other || strings.HasPrefix(name, "RECORDSBOT_")
	}
	mention := regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`")
	for path, text := range docs {
		for _, m := range mention.FindAllStringSubmatch(text, -1) {
			assert.True(t, known(m[1]), "%s names %s, which recordsbot does not read", path, m[1])
		}
	}
	for name := range inExample {
		assert.True(t, known(name), ".env.example sets %s, which recordsbot does not read", name)
	}
	for _, m := range regexp.MustCompile(`(?m)^  ([A-Z][A-Z0-9_]+) `).FindAllStringSubmatch(help, -1) {
		assert.True(t, known(m[1]), "help lists %s, which recordsbot does not read", m[1])
	}
}

// cronWords are the words the docs and help use for a schedule. A CronJob
// given a schedule not listed here fails the test until its words are.
var cronWords = map[string][]string{
	"0 * * * *":   {"hourly", "every hour"},
	"*/5 * * * *": {"every five minutes", "every 5 minutes", "every few minutes"},
}

// TestDocsSchedules: each CronJob's schedule is the one running-at-scale.md
// and jobs.md give, help describes its subcommand's schedule in the same
// words, and no doc gives a schedule that no CronJob has.
func TestDocsSchedules(t *testing.T) {
	t.Parallel()
	docs := docFiles(t)
	help := helpText(t)
	var schedules []string
	for _, o := range manifests(t) {
		if o.Kind != "CronJob" {
			continue
		}
		cron := spec[struct {
			Schedule    string `json:"schedule"`
			JobTemplate struct {
				Spec struct {
					Template podTemplate `json:"template"`
				} `json:"spec"`
			} `json:"jobTemplate"`
		}](t, o)
		containers := cron.JobTemplate.Spec.Template.Spec.Containers
		require.Len(t, containers, 1)
		require.NotEmpty(t, containers[0].Args)
		sub, schedule := containers[0].Args[0], cron.Schedule
		schedules = append(schedules, schedule)

		words, ok := cronWords[schedule]
		require.True(t, ok, "%s: say in cronWords how the docs describe the schedule %q", o.file, schedule)
		line := regexp.MustCompile(`(?m)^  ` + sub + ` .*$`).FindString(help)
		require.NotEmpty(t, line, "help lists %s", sub)
		assert.True(t, slices.ContainsFunc(words, func(w string) bool { return strings.Contains(line, w) }),
			"help says when %s runs as its CronJob does (%q, %s): %q", sub, schedule, strings.Join(words, " or "), line)
		for _, doc := range []string{"docs/running-at-scale.md", "docs/jobs.md"} {
			assert.True(t, strings.Contains(docs[doc], "`"+schedule+"`"), "%s gives %s's schedule `%s`", doc, o.file, schedule)
		}
		assert.True(t, strings.Contains(docs["docs/running-at-scale.md"], "`"+o.file+"`"), "running-at-scale.md lists %s", o.file)
	}
	require.NotEmpty(t, schedules)

	// Every schedule a doc gives is one a CronJob has.
	cronExpr := regexp.MustCompile("[`\"]((?:[0-9*/,-]+ ){4}[0-9*/,-]+)[`\"]")
	for path, text := range docs {
		for _, m := range cronExpr.FindAllStringSubmatch(text, -1) {
			assert.Contains(t, schedules, m[1], "%s gives the schedule %q, which no CronJob has", path, m[1])
		}
	}
	// Statements once found wrong stay gone.
	for path, text := range docs {
		for _, wrong := range []string{"once a day at 08:00", "08:00 UTC", "until a ledger is wired in", "no\ndatabase", "no database"} {
			assert.False(t, strings.Contains(strings.ToLower(text), strings.ToLower(wrong)), "%s says %q", path, wrong)
		}
	}
	assert.NotRegexp(t, `(?m)^  remind .*\bdaily\b`, help, "remind runs hourly")
}

// route is a method and a path the HTTP server serves.
type route struct{ method, path string }

// registeredRoutes reads bot/routes.go, where every route is listed.
func registeredRoutes(t *testing.T) []route {
	t.Helper()
	// bot's routes, and the public pages' that bot mounts
	// (minutespage.Site.Mount).
	src := readRepoFile(t, "bot/routes.go") + readRepoFile(t, "bot/minutespage/routes.go")
	var out []route
	for _, m := range regexp.MustCompile(`r\.(Get|Head|Post|Put|Patch|Delete)\(\s*"([^"]+)"`).FindAllStringSubmatch(src, -1) {
		out = append(out, route{strings.ToUpper(m[1]), m[2]})
	}
	for _, m := range regexp.MustCompile(`r\.(?:Method|MethodFunc)\(\s*http\.Method(\w+),\s*"([^"]+)"`).FindAllStringSubmatch(src, -1) {
		out = append(out, route{strings.ToUpper(m[1]), m[2]})
	}
	require.NotEmpty(t, out, "bot/routes.go (with bot/minutespage/routes.go) registers routes with r.Get(\"/path\", …) or r.Method(http.MethodX, \"/path\", …)")
	return out
}

// servedBy reports whether a path mentioned in the docs is served: equal
// to a route, a route with its {parameters} filled in, or (ending in /) a
// prefix of one.
func servedBy(routes []route, p string) bool {
	for _, r := range routes {
		if p == r.path || (strings.HasSuffix(p, "/") && strings.HasPrefix(r.path, p)) {
			return true
		}
		rs, ps := strings.Split(r.path, "/"), strings.Split(p, "/")
		if len(rs) != len(ps) {
			continue
		}
		match := true
		for i := range rs {
			if rs[i] != ps[i] && !(strings.HasPrefix(rs[i], "{") && ps[i] != "") {
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// TestDocsRoutes: architecture.md's route table is exactly the routes
// bot/routes.go registers, and every path of the bot's that a doc names is
// one it serves.
func TestDocsRoutes(t *testing.T) {
	t.Parallel()
	routes := registeredRoutes(t)
	docs := docFiles(t)

	var registered, documented []string
	for _, r := range routes {
		registered = append(registered, r.method+" "+r.path)
	}
	table := docSection(t, docs["docs/architecture.md"], "## Routes")
	for _, m := range regexp.MustCompile("(?m)^\\| ((?:`[A-Z]+`(?:, )?)+) \\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1) {
		for _, method := range regexp.MustCompile("`([A-Z]+)`").FindAllStringSubmatch(m[1], -1) {
			documented = append(documented, method[1]+" "+m[2])
		}
	}
	assert.ElementsMatch(t, registered, documented, "docs/architecture.md's route table lists exactly bot/routes.go's routes")

	// Paths under the bot's own first segments (/slack, /minutes/…,
	// /healthz…); the records service's (/actions, /meetings) and the
	// slash commands (/minutes alone) are other things.
	firsts := map[string]bool{}
	for _, r := range routes {
		firsts[strings.Split(r.path, "/")[1]] = true
	}
	pathRe := regexp.MustCompile("(?:`|(?:GET|POST|HEAD) )(/[a-z][a-zA-Z0-9_./{}-]*)")
	for path, text := range docs {
		for _, m := range pathRe.FindAllStringSubmatch(text, -1) {
			p := m[1]
			segs := strings.Split(p, "/")
			if !firsts[segs[1]] || (len(segs) == 2 && !servedBy(routes, p) && slashCommand(t, p)) {
				continue
			}
			assert.True(t, servedBy(routes, p), "%s names %s, which the bot does not serve", path, p)
		}
	}
}

// slashCommand reports whether p is one of the manifest's slash commands.
func slashCommand(t *testing.T, p string) bool {
	t.Helper()
	return regexp.MustCompile(`(?m)^\s*- command: ` + regexp.QuoteMeta(p) + `\s*$`).MatchString(readRepoFile(t, "manifest.yaml"))
}

// TestDocsScopes: install.md's scope table is exactly the manifest's bot
// scopes.
func TestDocsScopes(t *testing.T) {
	t.Parallel()
	var m struct {
		OAuthConfig struct {
			Scopes struct {
				Bot []string `json:"bot"`
			} `json:"scopes"`
		} `json:"oauth_config"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(readRepoFile(t, "manifest.yaml")), &m))
	require.NotEmpty(t, m.OAuthConfig.Scopes.Bot)
	table := docSection(t, docFiles(t)["docs/install.md"], "## The scopes the app asks for")
	assert.ElementsMatch(t, m.OAuthConfig.Scopes.Bot, tableCodes(table), "docs/install.md's scope table lists exactly manifest.yaml's bot scopes")
	// A count of them quoted anywhere ("the 13 scopes") is the manifest's.
	for path, text := range docFiles(t) {
		for _, n := range regexp.MustCompile(`\b(\d+) (?:bot )?scopes\b`).FindAllStringSubmatch(text, -1) {
			assert.Equal(t, strconv.Itoa(len(m.OAuthConfig.Scopes.Bot)), n[1], "%s says %q; manifest.yaml has %d bot scopes", path, n[0], len(m.OAuthConfig.Scopes.Bot))
		}
	}
}

// TestDocsQuoteGoldenOutput: where a doc quotes output and names the
// golden file it comes from ("… `doctor/testdata/doctor_good.golden`):"
// then a code block), every line quoted is a line of that file, so the
// quote changes when the output does ("[…]" marks a cut).
func TestDocsQuoteGoldenOutput(t *testing.T) {
	t.Parallel()
	quote := regexp.MustCompile("(?s)`((?:[a-z]+/)+testdata/[^`]+\\.golden)`\\):\n\n```\n(.*?)```")
	found := 0
	for path, text := range docFiles(t) {
		for _, m := range quote.FindAllStringSubmatch(text, -1) {
			found++
			golden := map[string]bool{}
			for _, l := range strings.Split(readRepoFile(t, m[1]), "\n") {
				golden[strings.TrimSpace(l)] = true
			}
			for _, l := range strings.Split(strings.TrimSpace(m[2]), "\n") {
				if l = strings.TrimSpace(l); l != "[…]" {
					assert.True(t, golden[l], "%s quotes %q from %s, which does not print it (any more)", path, l, m[1])
				}
			}
		}
	}
	assert.NotZero(t, found, "docs/install.md quotes doctor_good.golden")
}

// TestHelpColumnsAligned: in help's environment list every description
// starts in the same column, however long a default (FOLLOW_DEFAULTS') is.
func TestHelpColumnsAligned(t *testing.T) {
	t.Parallel()
	_, env, ok := strings.Cut(helpText(t), "Environment (read once at start-up):\n")
	require.True(t, ok)
	starts := map[int][]string{}
	for _, line := range strings.Split(strings.TrimRight(env, "\n"), "\n") {
		m := regexp.MustCompile(`^  ([A-Z][A-Z0-9_]+) +(?:default "[^"]*" +)?`).FindString(line)
		require.NotEmpty(t, m, "help row %q", line)
		col := len([]rune(m))
		starts[col] = append(starts[col], strings.Fields(line)[0])
	}
	assert.Len(t, starts, 1, "descriptions start in one column; by column: %v", starts)
}

// dockerEnvFile reads an env file as `docker run --env-file` does
// (docker/cli opts/file.go): leading space trimmed, blank lines and lines
// starting with # skipped, the name before the first '=', the value after
// it exactly as written, quotes included (docker/cli#3630: it never strips
// them, unlike Compose).
func dockerEnvFile(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		require.True(t, ok, "docker reads %q as a variable taken from its own environment", line)
		require.NotContains(t, name, " ", "docker refuses a name with spaces: %q", line)
		out[name] = value
	}
	return out
}

// TestEnvExampleReadsTheSameInAShellAndInDocker: with every variable of
// .env.example uncommented (ORG_NAME=Riverside Community Trust and
// DIGEST_DEFAULT=mon 09:00 have spaces), the README's shell line and
// `docker run --env-file` give the same environment, in bash and in a
// POSIX sh.
func TestEnvExampleReadsTheSameInAShellAndInDocker(t *testing.T) {
	t.Parallel()
	var file strings.Builder
	for _, line := range strings.Split(readRepoFile(t, ".env.example"), "\n") {
		if m := regexp.MustCompile(`^# ([A-Z][A-Z0-9_]*=.*)$`).FindStringSubmatch(line); m != nil {
			line = m[1]
		}
		file.WriteString(line + "\n")
	}
	want := dockerEnvFile(t, file.String())
	require.Equal(t, "Riverside Community Trust", want["ORG_NAME"], "the example has a value with spaces")
	for _, v := range docVars(t) {
		require.Contains(t, want, v, ".env.example shows %s", v)
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte(file.String()), 0o600))

	install := docSection(t, readRepoFile(t, "README.md"), "## Install")
	load := regexp.MustCompile(`(?m)^\s*(.*<\s*\.env)\s*$`).FindStringSubmatch(install)
	require.NotNil(t, load, "README's Install loads .env in the shell with a line ending <.env")
	require.Contains(t, readRepoFile(t, ".env.example"), load[1], ".env.example's header gives README's line")

	for _, shell := range []string{"bash", "sh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("no %s: %v", shell, err)
			continue
		}
		cmd := exec.CommandContext(t.Context(), path, "-c", load[1]+"\nenv -0")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", shell, out)
		got := map[string]string{}
		for _, kv := range strings.Split(string(out), "\x00") {
			if name, value, ok := strings.Cut(kv, "="); ok {
				got[name] = value
			}
		}
		for name, value := range want {
			assert.Equal(t, value, got[name], "%s: %s read by README's line, as docker --env-file reads it", shell, name)
		}
	}
}

// TestDocsInstallOrder: the README's Install and docs/install.md walk one
// order, and it reaches doctor's "Ready to go live": doctor checks
// PUBLIC_URL/healthz, which answers only once serve runs, so the step that
// starts serve comes before the one that runs doctor.
func TestDocsInstallOrder(t *testing.T) {
	t.Parallel()
	for path, section := range map[string]string{
		"README.md":       "## Install",
		"docs/install.md": "## Setting up the Slack app",
	} {
		steps := regexp.MustCompile(`(?m)^\d+\. `).Split(docSection(t, readRepoFile(t, path), section), -1)[1:]
		serve, doctor := -1, -1
		for i, s := range steps {
			if serve < 0 && regexp.MustCompile("`(?:\\./|recordsbot )?serve`|recordsbot:[0-9.]+\\n").MatchString(s) {
				serve = i
			}
			if strings.Contains(s, "Ready to go") {
				doctor = i
			}
		}
		require.GreaterOrEqual(t, serve, 0, "%s: a step starts serve", path)
		require.GreaterOrEqual(t, doctor, 0, "%s: a step runs doctor to Ready to go live", path)
		assert.Less(t, serve, doctor, "%s: serve runs (step %d) before doctor (step %d), whose PUBLIC_URL check needs it", path, serve+1, doctor+1)
	}
}
