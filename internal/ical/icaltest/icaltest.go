// Package icaltest checks iCalendar output with parsers recordsbot shares
// no code with: Debian's python3-icalendar and, through
// tools/publiccheck, Mozilla's ical.js and node-ical.
package icaltest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// PythonEvents parses cal with Python's icalendar (strictly: any parse
// problem it notes fails the test) and returns its events as maps of uid,
// summary, description, location, url, start (ISO 8601), sequence and
// stamp. It skips the test when python3-icalendar is not installed,
// unless RECORDSBOT_CALENDAR_TOOLS is set (as .ci/run does).
func PythonEvents(t testing.TB, cal []byte) []map[string]any {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import icalendar").Run(); err != nil {
		if os.Getenv("RECORDSBOT_CALENDAR_TOOLS") != "" {
			t.Fatalf("python3-icalendar is not installed: %v", err)
		}
		t.Skip("Debian's python3-icalendar is not installed (.ci/run installs it)")
	}
	const script = `
import sys, json, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
assert cal.get('VERSION') == '2.0', cal.get('VERSION')
assert cal.get('PRODID'), 'no PRODID'
errs = [e for c in cal.walk() for e in getattr(c, 'errors', [])]
assert not errs, errs
out = []
for ev in cal.walk('VEVENT'):
    start = ev.decoded('DTSTART')
    out.append({
        'uid': str(ev.get('UID')), 'summary': str(ev.get('SUMMARY', '')),
        'description': str(ev.get('DESCRIPTION', '')), 'location': str(ev.get('LOCATION', '')),
        'url': str(ev.get('URL', '')), 'start': start.isoformat(),
        'sequence': int(ev.get('SEQUENCE', 0)), 'stamp': ev.decoded('DTSTAMP').isoformat(),
    })
json.dump(out, sys.stdout)
`
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Stdin = bytes.NewReader(cal)
	return events(t, "python icalendar", cmd)
}

// NodeEvents imports cal with tools/publiccheck/ical.mjs (ical.js and
// node-ical, which must agree) and returns its events as maps of uid,
// summary, start, allDay and sequence. It skips the test when the tools'
// packages are not installed (npm ci --prefix tools/publiccheck), unless
// RECORDSBOT_CALENDAR_TOOLS is set.
func NodeEvents(t testing.TB, cal []byte) []map[string]any {
	t.Helper()
	root := repoRoot(t)
	tool := filepath.Join(root, "tools", "publiccheck")
	if _, err := os.Stat(filepath.Join(tool, "node_modules", "ical.js")); err != nil {
		if os.Getenv("RECORDSBOT_CALENDAR_TOOLS") != "" {
			t.Fatalf("tools/publiccheck is not installed: %v", err)
		}
		t.Skip("tools/publiccheck's packages are not installed (npm ci --prefix tools/publiccheck)")
	}
	f := filepath.Join(t.TempDir(), "feed.ics")
	require.NoError(t, os.WriteFile(f, cal, 0o600))
	return events(t, "ical.mjs", exec.Command("node", filepath.Join(tool, "ical.mjs"), f))
}

// events runs cmd, a parser that prints the events it read as a JSON
// array, and returns them; the parser failing fails the test with what
// it wrote to stderr.
func events(t testing.TB, parser string, cmd *exec.Cmd) []map[string]any {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s: %s", parser, stderr.String())
	var parsed []map[string]any
	require.NoError(t, json.Unmarshal(out, &parsed))
	return parsed
}

// repoRoot is the module's root, found from the working directory.
func repoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "go.mod not found")
		dir = parent
	}
}
