package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/feature/plural"
)

// placeholders are the {names} of s, sorted, without repeats.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

var placeholderRE = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)\}`)

// cldrForms are the plural forms CLDR gives the integers in l (recordsbot
// counts things; it never shows a fraction), found by asking
// golang.org/x/text for enough integers to meet every rule's modulus.
func cldrForms(l Lang) []plural.Form {
	seen := map[plural.Form]bool{}
	for n := 0; n <= 2000; n++ {
		seen[l.form(n)] = true
	}
	for _, n := range []int{10000, 100000, 1000000, 2000000, 10000000} {
		seen[l.form(n)] = true
	}
	var out []plural.Form
	for f := range seen {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

func (p Plural) has(f plural.Form) string {
	switch f {
	case plural.Zero:
		return p.Zero
	case plural.One:
		return p.One
	case plural.Two:
		return p.Two
	case plural.Few:
		return p.Few
	case plural.Many:
		return p.Many
	}
	return p.Other
}

func TestCatalogueComplete(t *testing.T) {
	t.Parallel()
	for _, l := range Shipped() {
		c := l.catalogue()
		t.Run(c.Code, func(t *testing.T) {
			t.Parallel()
			for k, en := range english.Strings {
				s, ok := c.Strings[k]
				if !assert.Truef(t, ok, "%s lacks %q (English: %q)", c.Code, k, en) {
					continue
				}
				assert.NotEmptyf(t, s, "%s %q is empty", c.Code, k)
				assert.Equalf(t, placeholders(en), placeholders(s), "%s %q placeholders: got %q, want those of %q", c.Code, k, s, en)
				_, plural := c.Plurals[k]
				assert.Falsef(t, plural, "%s %q is both plain and plural", c.Code, k)
			}
			for k := range c.Strings {
				_, ok := english.Strings[k]
				assert.Truef(t, ok, "%s has %q, which English has not (a typo, or a key to add to en.go)", c.Code, k)
			}
			forms := cldrForms(l)
			for k, en := range english.Plurals {
				p, ok := c.Plurals[k]
				if !assert.Truef(t, ok, "%s lacks plural %q", c.Code, k) {
					continue
				}
				// A form may leave the count out ("an action", "New actions
				// for you"); every other placeholder must be there.
				noN := func(s string) []string {
					// Never nil, so a form with only {n} equals one without.
					return append([]string{}, slices.DeleteFunc(placeholders(s), func(p string) bool { return p == "n" })...)
				}
				want := noN(en.Other)
				for _, f := range forms {
					s := p.has(f)
					if !assert.NotEmptyf(t, s, "%s plural %q lacks the CLDR form %v", c.Code, k, f) {
						continue
					}
					assert.Equalf(t, want, noN(s), "%s plural %q form %v: got %q, want the placeholders of %q", c.Code, k, f, s, en.Other)
					if f == plural.Other && slices.Contains(placeholders(en.Other), "n") {
						assert.Containsf(t, s, "{n}", "%s plural %q: the Other form must show the count", c.Code, k)
					}
				}
			}
			for k := range c.Plurals {
				_, ok := english.Plurals[k]
				assert.Truef(t, ok, "%s has plural %q, which English has not", c.Code, k)
			}
		})
	}
}

func TestAliasesDoNotCollide(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, l := range Shipped() {
		for alias, kw := range l.catalogue().Aliases {
			// Folded, as Keyword matches them: "réunion" (fr) and
			// "reunión" (es) would be one alias.
			a := fold(alias)
			assert.NotContainsf(t, seen, a, "alias %q of %s is also %s's", alias, l, seen[a])
			assert.NotEqualf(t, a, strings.ToLower(kw), "alias %q of %s is the keyword itself", alias, l)
			assert.Equalf(t, kw, Keyword(alias), "Keyword(%q)", alias)
			seen[a] = l.Code()
		}
	}
	assert.Equal(t, "overdue", Keyword("overdue"), "an English keyword stays itself")
	assert.Equal(t, "overdue", Keyword("En-Retard"), "case does not matter")
	assert.Equal(t, "overdue", Keyword("uberfallig"), "nor accents")
	assert.Equal(t, "meeting", Keyword("reunion"))
	assert.Equal(t, "finance", Keyword("finance"), "any other word stays itself")
}

func TestNPluralByCLDR(t *testing.T) {
	t.Parallel()
	fr, err := Parse("fr")
	require.NoError(t, err)
	de, err := Parse("de")
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		l    Lang
		n    int
		want string
	}{
		{"english zero is plural", English, 0, "0 actions"},
		{"english one", English, 1, "1 action"},
		{"english thousands grouped", English, 1234, "1,234 actions"},
		{"french zero is singular", fr, 0, "0 action"},
		{"french one", fr, 1, "1 action"},
		{"french two", fr, 2, "2 actions"},
		{"french thousands grouped", fr, 1234, "1\u00a0234 actions"},
		{"german one", de, 1, "1 Aufgabe"},
		{"german thousands grouped", de, 1234, "1.234 Aufgaben"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, c.l.N("count.actions", c.n))
		})
	}
}

func TestFFillsNamedPlaceholders(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "b then a", fill("{y} then {x}", []string{"x", "a", "y", "b"}))
	assert.Equal(t, "{unknown} a", fill("{unknown} {x}", []string{"x", "a"}), "a placeholder without a value is left as written")
	assert.Equal(t, "{y}", fill("{x}", []string{"x", "{y}", "y", "z"}), "values are not filled again")
	assert.Equal(t, "missing.key", English.T("missing.key"), "a key English lacks reads as itself")
}

func TestDates(t *testing.T) {
	t.Parallel()
	fr, _ := Parse("fr")
	de, _ := Parse("de")
	es, _ := Parse("es")
	d := mustTime(t, "2026-03-05T14:07:00Z")
	assert.Equal(t, "Mar 5, 2026", English.Date(d))
	assert.Equal(t, "5 mars 2026", fr.Date(d))
	assert.Equal(t, "5. März 2026", de.Date(d))
	assert.Equal(t, "5 de marzo de 2026", es.LongDate(d))
	assert.Equal(t, "Mar 5, 2026 at 14:07 UTC", English.DateTime(d))
	assert.Equal(t, "5 mars 2026 à 14:07 UTC", fr.DateTime(d))
	assert.Equal(t, "Thursday, March 5, 2026", English.FullDate(d))
	assert.Equal(t, "Donnerstag, 5. März 2026", de.FullDate(d))
	assert.Equal(t, "jueves, 5 de marzo de 2026", es.FullDate(d))
}

// TestRelativeDay: the day before, of and after now, by the calendar in
// now's zone, however many hours apart.
func TestRelativeDay(t *testing.T) {
	t.Parallel()
	fr, _ := Parse("fr")
	paris := time.FixedZone("CET", 3600)
	now := time.Date(2026, 3, 5, 0, 30, 0, 0, paris)
	tests := []struct {
		name string
		t    time.Time
		want string
		ok   bool
	}{
		{"late yesterday, an hour ago", now.Add(-time.Hour), "hier", true},
		{"the day before in UTC, today in Paris", time.Date(2026, 3, 4, 23, 0, 0, 0, time.UTC), "aujourd’hui", true},
		{"tomorrow", now.Add(30 * time.Hour), "demain", true},
		{"two days on", now.AddDate(0, 0, 2), "", false},
	}
	for _, tt := range tests {
		got, ok := fr.RelativeDay(tt.t, now)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestChoosing(t *testing.T) {
	t.Parallel()
	fr, _ := Parse("fr")
	de, _ := Parse("de")
	es, _ := Parse("es")
	for _, c := range []struct {
		name, locale string
		want         Lang
	}{
		{"slack french", "fr-FR", fr},
		{"slack canadian french", "fr-CA", fr},
		{"slack german", "de-DE", de},
		{"slack latin american spanish", "es-LA", es},
		{"slack british english", "en-GB", English},
		{"unshipped falls back", "ja-JP", de},
		{"empty falls back", "", de},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, ForLocale(c.locale, de))
		})
	}
	assert.Equal(t, es, Negotiate("", "es", English))
	assert.Equal(t, es, Negotiate("", "ja, es-MX;q=0.8, en;q=0.5", English))
	assert.Equal(t, fr, Negotiate("fr", "es", English), "?lang= wins")
	assert.Equal(t, es, Negotiate("xx", "es", English), "an unknown ?lang= is ignored")
	assert.Equal(t, de, Negotiate("", "ja, zh", de), "nothing shipped accepted")
	assert.Equal(t, de, Negotiate("", "", de))
	assert.Equal(t, de, Negotiate("", ";;;garbage", de))
	_, err := Parse("xx")
	assert.ErrorContains(t, err, "en, fr, de, es")
	for _, code := range []string{"en-XA", "qps"} {
		l, _ := Parse(code)
		assert.NotEqual(t, Pseudo, l, "pseudo is never chosen")
	}
}

func TestPseudolocalize(t *testing.T) {
	t.Parallel()
	got := Pseudolocalize(":warning: *Due* {date} <@U1> <https://x.example|Open> &amp; 3:04")
	assert.Equal(t, "⟦:warning: *Ðüé* {date} <@U1> <https://x.example|Öþéñ> &amp; 3:04⟧", got)
	assert.Equal(t, "⟦Öþéñ⟧", Pseudo.T("status.open"))
	assert.Equal(t, "⟦1 áçŧíöñ⟧", Pseudo.N("count.actions", 1))
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return tm
}

// TestKeysUsedExist finds every literal key given to T, F or N in the
// module's Go code and to t, f or n in its templates, and checks that
// English has it: a typo shows here, not as a key on someone's screen.
func TestKeysUsedExist(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	keyRE := regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)
	tmplRE := regexp.MustCompile(`\{\{-?\s*\(?(?:t|f|n) [^"}]*"([a-z][a-z0-9_.]*)"`)
	known := func(k string) bool {
		_, s := english.Strings[Key(k)]
		_, p := english.Plurals[Key(k)]
		return s || p
	}
	used := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == ".git" || name == "testdata" && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "F" && sel.Sel.Name != "N") {
					return true
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				k, err := strconv.Unquote(lit.Value)
				if err != nil || !keyRE.MatchString(k) {
					return true
				}
				used++
				assert.Truef(t, known(k) || k == "missing.key", "%s uses key %q, which en.go lacks", path, k)
				return true
			})
		case strings.HasSuffix(path, ".tmpl") || strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".xml"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range tmplRE.FindAllStringSubmatch(string(b), -1) {
				used++
				assert.Truef(t, known(m[1]), "%s uses key %q, which en.go lacks", path, m[1])
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, used)
}
