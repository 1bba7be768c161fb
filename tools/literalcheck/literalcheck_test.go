package literalcheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository, from this package's directory.
const root = "../.."

// allowedText are literals that read as words to the check but are not
// for people to read in Slack or on a page, each with why.
var allowedText = map[string]string{
	"public, max-age=":                    "a Cache-Control value (bot/publicweb)",
	"private, max-age=":                   "a Cache-Control value (bot/publicweb)",
	"the organisation's default":          "an audit trail value, stored and shown as the record of what was chosen (bot/audit.go)",
	"not ready: ":                         "/readyz's body, read by the orchestrator (bot/http.go)",
	"calendar token\x00":                  "an HMAC domain-separation label (calendar/private.go)",
	"Due: ":                               "the fingerprint of a private calendar's event, English as before the feeds were translated so that no SEQUENCE is raised; never shown (calendar/private.go)",
	"Due: Action ":                        "the fingerprint of a private calendar's event, as above; never shown (calendar/private.go)",
	"calendar tag\x00":                    "an HMAC domain-separation label (calendar/private.go)",
	"public, max-age=86400":               "a Cache-Control value (bot/publicweb)",
	"text/html; charset=utf-8":            "a Content-Type value",
	"text/plain; charset=utf-8":           "a Content-Type value",
	"width=device-width, initial-scale=1": "the viewport meta tag's value, read by browsers",
	"default-src 'none'; style-src 'self'; img-src 'self' data:; ": "Content-Security-Policy directives (bot/minutespage)",
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'":  "Content-Security-Policy directives (bot/minutespage)",
	"img-src 'self' data:":  "Content-Security-Policy directives (bot/minutespage)",
	"img-src 'self' data: ": "Content-Security-Policy directives (bot/minutespage)",
	"Event":                 "a schema.org type in a page's JSON-LD, read by search engines",
	"Organization":          "a schema.org type in a page's JSON-LD, read by search engines",
	"Place":                 "a schema.org type in a page's JSON-LD, read by search engines",
}

// allowedWhere are files and functions ("path" or "path:Func") whose
// words are English on purpose: operators' text, like the logs and doctor
// (docs/languages.md), the demo's own record data, and the check of
// Block Kit's limits, whose messages are for developers. Each says why.
var allowedWhere = map[string]string{
	"blocks/limits.go":                        "Block Kit limit violations: for developers and logs, never sent",
	"blocks/reminder.go:ReminderText":         "the --dry-run text's line naming the recipient, for the operator; the reminder itself is in its reader's words",
	"bot/server.go:Deps.missing":              "names a dependency missing at start-up, in an error for the operator",
	"remind/summary.go":                       "the reminder job's summary log line",
	"remind/send.go:remindJob.dryRun":         "the reminder job's --dry-run output, read by the operator in a terminal",
	"remind/report.go:remindJob.reportFailed": "names the failed report in the job's summary of failures, a log line",
	"watch/watch.go:Summary.String":           "the watcher's summary log line",
	"watch/watch.go:poll.phases":              "names a poll's part in its error, for the job's log",
	"demo/story.go":                           "the demo's records: record text, shown as the records hold it",
	"demo/story_committees.go":                "the demo's records: record text, shown as the records hold it",
}

// owned are files another workstream is moving into the catalogue;
// each names who. Their findings are
// logged, not failed. The list shrinks to nothing: remove a line when its
// file is clean (the test logs which are).
var owned = map[string]string{}

func allowed(f Finding) bool {
	path := filepath.ToSlash(f.Pos.Filename)
	return allowedText[f.Text] != "" || allowedWhere[path] != "" || allowedWhere[path+":"+f.Func] != ""
}

// TestNoUserFacingLiterals: no string literal in the code that writes to
// Slack or a page reads as English words outside the catalogue, and no
// page template has words outside {{t .Lang "key"}}.
func TestNoUserFacingLiterals(t *testing.T) {
	t.Parallel()
	found, err := Check(root, Dirs)
	require.NoError(t, err)
	tpl, err := Templates(root, "bot/minutespage/templates")
	require.NoError(t, err)
	found = append(found, tpl...)
	stillOwned := map[string]int{}
	for _, f := range found {
		path := filepath.ToSlash(f.Pos.Filename)
		switch {
		case allowed(f):
		case owned[path] != "":
			stillOwned[path]++
		default:
			t.Errorf("%s: English outside the catalogue (internal/lang): give it a key in internal/lang/locales/*.po (docs/languages.md, \"Adding a string\"), or allow it here with the reason", f)
		}
	}
	for path, owner := range owned {
		if n := stillOwned[path]; n > 0 {
			t.Logf("%s: %d literals left, owned by %s", path, n, owner)
		} else {
			t.Logf("%s is clean: remove it from owned", path)
		}
	}
}

// TestNoCatalogueInGo: the words live in internal/lang/locales/<code>.po,
// where translators' tools open them, not in Go maps.
func TestNoCatalogueInGo(t *testing.T) {
	t.Parallel()
	found, err := GoCatalogues(root)
	require.NoError(t, err)
	for _, f := range found {
		t.Errorf("%s:%d: %s. The catalogue is internal/lang/locales/<code>.po: move each entry there, in en.po as msgctxt \"key\", msgid \"English text\", msgstr \"\" and in every other language's file with msgid the same English and msgstr its translation; a plural has msgid_plural and msgstr[0], msgstr[1] (docs/languages.md, \"Adding a string\")", filepath.ToSlash(f.Pos.Filename), f.Pos.Line, f.Text)
	}
}

func TestGoCataloguesFindsThem(t *testing.T) {
	t.Parallel()
	found, err := GoCatalogues(filepath.Join("testdata", "gomap"))
	require.NoError(t, err)
	var got []string
	for _, f := range found {
		got = append(got, f.String())
	}
	assert.ElementsMatch(t, []string{
		`internal/lang/fr.go:1: "a language's catalogue as a Go file"`,
		`internal/lang/fr.go:3: "a lang.Catalogue literal"`,
		`blocks/words.go:5: "a map from lang.Key to text"`,
		`blocks/words.go:6: "a map from lang.Key to lang.Plural"`,
	}, got)
}

// The check finds what it should and passes what is not words.
func TestWords(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"Due soon": true,
		"Start":    true,
		":white_check_mark: *%s* marked complete.": true,
		"I didn't understand `%s`.":                true,
		"open":                                     false,
		"actions:complete":                         false,
		"status=open&offset=12":                    false,
		"`/actions overdue`":                       false,
		":white_check_mark:":                       false,
		"https://api.slack.com/methods":            false,
		"<@%s> · {date}":                           false,
		"%d/%d":                                    false,
		"Content-Type":                             false,
		"UTC":                                      false,
	} {
		assert.Equal(t, want, Words(s), "%q", s)
	}
}

// The check reads code: literals that reach people are found, those that
// are logs, errors, keys or keywords are not.
func TestCheckFile(t *testing.T) {
	t.Parallel()
	got, err := Check("testdata", []string{"sample"})
	require.NoError(t, err)
	var texts []string
	for _, f := range got {
		texts = append(texts, f.Func+": "+f.Text)
	}
	assert.Equal(t, []string{
		"reply: Nothing was changed.",
		"reply: :mag: I couldn't find `%s`.",
		"reply: Start",
		": Weekly digest",
	}, texts, strings.Join(texts, "\n"))
}
