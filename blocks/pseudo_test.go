package blocks

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/lang/langtest"
)

// The pseudo-language check (docs/languages.md): assertGolden
// renders every golden of this package in lang.Pseudo as well as English,
// and assertNoEnglish fails on any ASCII word in what a person would read
// that is neither catalogue text (which the pseudo-language accents and
// brackets) nor the test data's record text nor Slack syntax. A string
// literal in a builder that reaches Slack shows up here as an English
// word. TestMain then checks that every golden file on disk was drawn as
// such a scenario, so none escapes the check by being written another way.

// recordText is the test data's record text: every string literal this
// package's tests give a field that holds record text (recordFields: a
// title, a committee, a person, minutes, a query…), read from the test
// files themselves, so a new sample is known without a list to keep; plus
// the few given positionally (recordExtra). Its words are shown as the
// records hold them, in every language. A word a builder wrote is never
// here: builders are not test files.
var recordText = sync.OnceValue(func() langtest.Known {
	known := langtest.Words(recordExtra...)
	files, _ := filepath.Glob("*_test.go")
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			panic(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if key, ok := kv.Key.(*ast.Ident); ok && recordFields[key.Name] {
				ast.Inspect(kv.Value, func(n ast.Node) bool {
					if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil {
							known.Add(s)
						}
					}
					return true
				})
			}
			return true
		})
	}
	return known
})

// recordFields are the fields of this package's inputs that hold record
// text (or a person's name, a place, what someone typed): never words a
// builder wrote.
var recordFields = map[string]bool{
	"Title": true, "Committee": true, "CommitteeKey": true, "Meeting": true, "Assignee": true, "Name": true,
	"Body": true, "Location": true, "Description": true, "Reference": true, "Number": true, "ID": true, "MeetingID": true,
	"Status": true, "Query": true, "Quoted": true, "Snippet": true, "Text": true, "LatestMinutes": true,
	"Actor": true, "Target": true, "From": true, "To": true, "Outcome": true, "Unmapped": true, "By": true,
	"Agenda": true, "Minutes": true, "Groups": true, "Completed": true, "NewlyAssigned": true, "NewlyOverdue": true, "Open": true,
}

// recordExtra is record text the tests pass positionally.
var recordExtra = []string{
	"Circulate the <revised> budget", // audit_history's title
	"xylophone & <drums>",            // a search nobody matched
	"Book the hall for the AGM",      // notice's title
	"ˍdraftˍ ˋcutˋ",                  // hostileSearch's record text as Snippet defuses its mrkdwn
	richMarkdown, richHTML,           // minutes bodies
}

// ownedElsewhere are goldens whose English is known to come from code
// another workstream is moving into the catalogue, each with who and what.
// They are still drawn in the pseudo-language; their escapes are logged,
// not failed. The list shrinks to nothing.
var ownedElsewhere = map[string]string{}

// assertNoEnglish fails when v, a golden drawn in lang.Pseudo, holds
// English that escaped the catalogue: one failure per text, naming its
// words.
func assertNoEnglish(t *testing.T, name string, v any) {
	t.Helper()
	scenarios.Store(name, true)
	escapes, err := langtest.BlockKit(v, recordText())
	require.NoError(t, err)
	report := t.Errorf
	if owner, ok := ownedElsewhere[name]; ok {
		report = t.Logf
		defer t.Logf("golden %s: known English, owned by %s", name, owner)
	}
	for _, e := range langtest.ByText(escapes) {
		report("golden %s in the pseudo-language: English escaped the catalogue at %s", name, e)
	}
}

// assertGoldenIn is assertGolden (the English golden and the
// pseudo-language check) and a smoke test in each shipped language: the
// surface is drawn in it, differs from the English (it honours its Lang),
// and stays within Block Kit's limits (French and German run longer than
// English). A wording change touches the English golden only; the words of
// each language are the catalogue's, checked by internal/lang.
func assertGoldenIn(t *testing.T, name string, render func(lang.Lang) any) {
	t.Helper()
	assertGolden(t, name, render)
	english, err := json.Marshal(render(lang.English))
	require.NoError(t, err)
	for _, l := range lang.Shipped() {
		if l == lang.English {
			continue
		}
		got := render(l)
		require.NoError(t, checkAny(got), "%s in %s", name, l)
		drawn, err := json.Marshal(got)
		require.NoError(t, err)
		assert.NotEqual(t, string(english), string(drawn), "%s in %s reads as the English", name, l)
	}
}

// scenarios are the goldens drawn as scenarios in this run.
var scenarios sync.Map

// TestMain runs the tests, then, when every test ran, fails if a golden
// file on disk was not drawn through assertGolden: a golden written any
// other way would be missing from the pseudo-language check.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && flag.Lookup("test.skip").Value.String() == "" {
		if missing := unchecked(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: goldens not drawn as scenarios (assertGolden with a func(lang.Lang) any), so not checked in the pseudo-language: %s\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// unchecked lists the golden files no scenario drew.
func unchecked() []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.golden.json"))
	var missing []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".golden.json")
		if _, ok := scenarios.Load(name); !ok {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	return missing
}

// The check itself catches a literal: a builder that wrote "Due" itself
// instead of l.F("row.due", …) fails it.
func TestPseudoCheckCatchesALiteral(t *testing.T) {
	t.Parallel()
	m := Notice(lang.Pseudo.T("row.overdue") + " Due tomorrow")
	escapes, err := langtest.BlockKit(payload(m), recordText())
	require.NoError(t, err)
	var words []string
	for _, e := range escapes {
		words = append(words, e.Word)
	}
	assert.ElementsMatch(t, []string{"Due", "tomorrow", "Due", "tomorrow"}, words, "in the section and the fallback text")
}
