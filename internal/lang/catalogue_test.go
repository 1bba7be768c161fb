package lang

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
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

// languageProblems are what keeps the language c, read from its file po,
// from standing beside English, en: a key missing or left untranslated,
// a key English lacks, placeholders that differ, a missing plural form, a
// msgid that is not English's text, a fuzzy flag, a Plural-Forms header
// that CLDR contradicts. Each says what to do.
func languageProblems(en *catalogue, enPO *poFile, c *catalogue, po *poFile) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(c.code+".po: "+format, args...)) }
	fixMsg := "translate it in locales/" + c.code + ".po"
	for _, k := range sortedKeys(en.strings) {
		en := en.strings[k]
		s, ok := c.strings[k]
		if !ok {
			bad("lacks %q (English: %q): %s", k, en, fixMsg)
			continue
		}
		if got, want := placeholders(s), placeholders(en); !slices.Equal(got, want) {
			bad("%q has placeholders %v, English %v: %q should have those of %q", k, got, want, s, en)
		}
	}
	for _, k := range sortedKeys(c.strings) {
		if _, ok := en.strings[k]; !ok {
			bad("has %q, which English has not (a typo, or a key to add to en.po)", k)
		}
		if _, ok := c.plurals[k]; ok {
			bad("%q is both plain and plural", k)
		}
	}
	for _, k := range sortedKeys(en.plurals) {
		enP := en.plurals[k]
		p, ok := c.plurals[k]
		if !ok {
			bad("lacks plural %q (English: %q / %q): %s, every form", k, enP.One, enP.Other, fixMsg)
			continue
		}
		// A form may leave the count out ("an action", "New actions for
		// you"); every other placeholder must be there.
		noN := func(s string) []string {
			return append([]string{}, slices.DeleteFunc(placeholders(s), func(p string) bool { return p == "n" })...)
		}
		want := noN(enP.Other)
		for _, f := range c.forms {
			s := p.get(f)
			if s == "" {
				bad("plural %q lacks the CLDR form %s", k, formNames([]plural.Form{f}))
				continue
			}
			if got := noN(s); !slices.Equal(got, want) {
				bad("plural %q form %s: %q has placeholders %v, want those of %q", k, formNames([]plural.Form{f}), s, got, enP.Other)
			}
			if f == plural.Other && slices.Contains(placeholders(enP.Other), "n") && !strings.Contains(s, "{n}") {
				bad("plural %q: the form other must show the count {n}: %q", k, s)
			}
		}
	}
	for _, k := range sortedKeys(c.plurals) {
		if _, ok := en.plurals[k]; !ok {
			bad("has plural %q, which English has not", k)
		}
	}
	// The file itself: what a translator sees.
	source := map[string]poEntry{}
	for _, e := range enPO.entries {
		source[e.ctx] = e
	}
	for _, e := range po.entries {
		src, ok := source[e.ctx]
		switch {
		case c.code == en.code:
			if e.plural && slices.ContainsFunc(e.str, func(s string) bool { return s != "" }) || !e.plural && e.str[0] != "" {
				bad("line %d: %q has a msgstr; English is the source: write the text in msgid and leave msgstr empty", e.line, e.ctx)
			}
		case !ok:
		case e.id != src.id || e.idPlural != src.idPlural:
			bad("line %d: %q's msgid is %q, but English now says %q: check the translation, then copy English's msgid (and msgid_plural) into it", e.line, e.ctx, e.id+e.idPlural, src.id+src.idPlural)
		case e.fuzzy:
			bad("line %d: %q is marked fuzzy, so it reads in English: review the translation and remove the flag", e.line, e.ctx)
		}
	}
	nplurals, expr, err := parsePluralForms(po.header["Plural-Forms"])
	if err != nil {
		bad("Plural-Forms header: %v (e.g. \"nplurals=2; plural=(n != 1);\")", err)
		return out
	}
	if nplurals != len(c.forms) {
		bad("Plural-Forms says nplurals=%d; CLDR gives %s %d forms (%s)", nplurals, c.code, len(c.forms), formNames(c.forms))
		return out
	}
	tag := language.MustParse(c.code)
	for n := 0; n <= 2000; n++ {
		i, err := evalPlural(expr, n)
		if err != nil {
			bad("Plural-Forms: %v", err)
			break
		}
		want := slices.Index(c.forms, plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0))
		if i != want {
			bad("Plural-Forms: plural=%s gives %d for n=%d, but CLDR's form for %d is %s, msgstr[%d] (forms in order: %s)", expr, i, n, n, formNames(c.forms[want:want+1]), want, formNames(c.forms))
			break
		}
	}
	return out
}

func sortedKeys[V any](m map[Key]V) []Key {
	out := slices.Collect(maps.Keys(m))
	slices.Sort(out)
	return out
}

// shippedFile is the parsed PO file of a shipped language.
func shippedFile(t *testing.T, code string) *poFile {
	t.Helper()
	data, err := locales.ReadFile("locales/" + code + ".po")
	require.NoError(t, err)
	po, err := parsePO(code+".po", data)
	require.NoError(t, err)
	return po
}

// TestCatalogueComplete: every shipped language has every key of English,
// with the same placeholders and every plural form CLDR asks for, its file
// shows translators English's current text, and nothing is left fuzzy.
func TestCatalogueComplete(t *testing.T) {
	t.Parallel()
	enPO := shippedFile(t, source)
	for _, l := range Shipped() {
		c := l.catalogue()
		t.Run(c.code, func(t *testing.T) {
			t.Parallel()
			for _, p := range languageProblems(lib.cats[0], enPO, c, shippedFile(t, c.code)) {
				t.Error(p)
			}
		})
	}
}

// TestLanguagesAreFiles: the shipped languages are the files in locales,
// English first, then by code, each with its own name.
func TestLanguagesAreFiles(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(locales, "locales/*.po")
	require.NoError(t, err)
	var codes []string
	for _, f := range files {
		codes = append(codes, strings.TrimSuffix(path.Base(f), ".po"))
	}
	slices.Sort(codes)
	var shipped []string
	for _, l := range Shipped() {
		shipped = append(shipped, l.Code())
		assert.NotEmpty(t, l.Name())
	}
	assert.Equal(t, "en", shipped[0], "English is first, the default")
	assert.ElementsMatch(t, codes, shipped)
	assert.Equal(t, "Français", mustParse(t, "fr").Name())
}

func mustParse(t *testing.T, code string) Lang {
	t.Helper()
	l, err := Parse(code)
	require.NoError(t, err)
	return l
}

// TestAddingALanguageIsAddingAFile adds Esperanto from a fixture file
// beside the shipped English: it is chosen by its code, by a Slack locale
// and by Accept-Language, reads its own words and plural forms, knows its
// command words, falls back to English for what it lacks, and the
// completeness check names what it lacks.
func TestAddingALanguageIsAddingAFile(t *testing.T) {
	t.Parallel()
	en, err := locales.ReadFile("locales/en.po")
	require.NoError(t, err)
	eo, err := os.ReadFile(filepath.Join("testdata", "eo.po"))
	require.NoError(t, err)
	b, err := load(fstest.MapFS{"locales/en.po": {Data: en}, "locales/eo.po": {Data: eo}})
	require.NoError(t, err)

	l, ok := b.base("eo")
	require.True(t, ok, "eo is shipped")
	assert.Equal(t, Lang(1), l)
	assert.Equal(t, "Esperanto", b.cat(l).name)
	got, _ := b.base("eo-XX")
	assert.Equal(t, l, got, "a Slack locale's base")
	assert.Equal(t, l, b.negotiate("", "ja, eo;q=0.9, en;q=0.5", English), "Accept-Language")
	assert.Equal(t, "Malfermitaj", b.text(l, "status.open"))
	assert.Equal(t, "{n} ago", b.plural(l, "count.actions", 1))
	assert.Equal(t, "{n} agoj", b.plural(l, "count.actions", 2))
	assert.Equal(t, "help", b.keywords["helpo"], "its command words")
	assert.Equal(t, b.text(English, "row.no_deadline"), b.text(l, "row.no_deadline"), "what it lacks reads in English")

	po, err := parsePO("eo.po", eo)
	require.NoError(t, err)
	problems := strings.Join(languageProblems(b.cats[0], shippedFile(t, source), b.cat(l), po), "\n")
	assert.Contains(t, problems, `eo.po: lacks "row.no_deadline"`)
	assert.NotContains(t, problems, `"status.open"`)
	assert.NotContains(t, problems, `"count.actions"`)
}

// TestMalformedFileFailsLoudly: a language file that cannot be read stops
// the load with the file and the line, and mustLoad panics with it.
func TestMalformedFileFailsLoudly(t *testing.T) {
	t.Parallel()
	en, err := locales.ReadFile("locales/en.po")
	require.NoError(t, err)
	for _, tc := range []struct{ name, file, want string }{
		{"unquoted", "msgid \"\"\nmsgstr \"Language: eo\\n\"\n\nmsgctxt \"a.b\"\nmsgid oops\nmsgstr \"\"\n", "eo.po:5: msgid"},
		{"wrong code", "msgid \"\"\nmsgstr \"Language: yy\\n\"\n", "eo.po: its header says Language: \"yy\""},
		{"plural forms", "msgid \"\"\nmsgstr \"Language: eo\\n\"\n\nmsgctxt \"language.name\"\nmsgid \"English\"\nmsgstr \"X\"\n\nmsgctxt \"count.actions\"\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"x\"\n", "has 1 forms"},
		{"no key", "msgid \"\"\nmsgstr \"Language: eo\\n\"\n\nmsgid \"Hello\"\nmsgstr \"X\"\n", "has no msgctxt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{"locales/en.po": {Data: en}, "locales/eo.po": {Data: []byte(tc.file)}}
			_, err := load(fsys)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.PanicsWithValue(t, "lang: "+err.Error(), func() { mustLoad(fsys) })
		})
	}
}

func TestAliasesDoNotCollide(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, l := range Shipped() {
		for alias, kw := range l.catalogue().aliases {
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
	assert.ErrorContains(t, err, "en, de, es, fr")
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
	// A catalogue call in a template, {{t .Lang "key"}} or (t $.Lang "key"),
	// and one whose key is not a literal (built at run time).
	tmplRE := regexp.MustCompile(`(?:\{\{-?\s*|\()(?:t|f|n) \$?\.?Lang "([a-z][a-z0-9_.]*)"`)
	tmplBuiltRE := regexp.MustCompile(`(?:\{\{-?\s*|\()(?:t|f|n) \$?\.?Lang [^"\s]`)
	known := func(k string) bool {
		_, s := lib.cats[0].strings[Key(k)]
		_, p := lib.cats[0].plurals[Key(k)]
		return s || p
	}
	// family is whether k is in the family of a known key: "actions.what.x"
	// is, beside "actions.what.open".
	families := map[string]bool{}
	for _, m := range []map[Key]string{lib.cats[0].strings} {
		for k := range m {
			if i := strings.LastIndexByte(string(k), '.'); i > 0 {
				families[string(k[:i+1])] = true
			}
		}
	}
	family := func(k string) bool {
		i := strings.LastIndexByte(k, '.')
		return i > 0 && families[k[:i+1]]
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
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.CompositeLit); ok {
					// A table of keys (map[string]lang.Key, a struct of
					// keys): its literals of a known key's family.
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Value
						}
						for _, e := range tableKeys(el) {
							k, err := strconv.Unquote(e.Value)
							// One dot may be anything ("meeting.id", a JSON
							// field); in a table typed with lang.Key, or
							// with two dots, it is a key.
							if err != nil || !keyRE.MatchString(k) || !family(k) || !strings.Contains(types.ExprString(lit.Type), "Key") && strings.Count(k, ".") < 2 {
								continue
							}
							used++
							assert.Truef(t, known(k), "%s uses key %q, which en.po lacks", path, k)
						}
					}
					return true
				}
				if msg := builtKey(n, known); msg != "" && !strings.HasPrefix(path, filepath.Join(root, "internal", "lang")) && !strings.HasSuffix(path, "_test.go") {
					t.Errorf("%s:%d: %s: write each key whole, as a literal (a table from the value to its key, as blocks/status.go's doneKeys), so TestKeysUsedExist and translators' tools see it", path, fset.Position(n.Pos()).Line, msg)
				}
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
				assert.Truef(t, known(k) || k == "missing.key", "%s uses key %q, which en.po lacks", path, k)
				return true
			})
		case strings.HasSuffix(path, ".tmpl") || strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".xml"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range tmplBuiltRE.FindAllString(string(b), -1) {
				t.Errorf("%s: %q…: a key that is not a literal; write each key whole in the template", path, m)
			}
			for _, m := range tmplRE.FindAllStringSubmatch(string(b), -1) {
				used++
				assert.Truef(t, known(m[1]), "%s uses key %q, which en.po lacks", path, m[1])
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, used)
}

// tableKeys are the string literals of a table's element: the element
// itself, or the fields of a struct literal in it.
func tableKeys(e ast.Expr) []*ast.BasicLit {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return []*ast.BasicLit{e}
		}
	case *ast.CompositeLit:
		var out []*ast.BasicLit
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if lit, ok := el.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				out = append(out, lit)
			}
		}
		return out
	}
	return nil
}

// builtKey says how n builds a message key at run time, or "": a
// conversion of a value that is not a literal to lang.Key, or a literal
// piece of keys ("status.done." or "_about") joined to something.
func builtKey(n ast.Node, known func(string) bool) string {
	piece := func(e ast.Expr) string {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return ""
		}
		s, _ := strconv.Unquote(lit.Value)
		if s == "" || !(strings.HasSuffix(s, ".") || strings.HasPrefix(s, "_") || strings.HasPrefix(s, ".")) {
			return ""
		}
		for k := range lib.cats[0].strings {
			if strings.HasPrefix(string(k), s) && (strings.HasSuffix(s, ".") || strings.HasSuffix(s, "_")) || strings.HasSuffix(string(k), s) && s[0] != s[len(s)-1] {
				return s
			}
		}
		for k := range lib.cats[0].plurals {
			if strings.HasPrefix(string(k), s) || strings.HasSuffix(string(k), s) {
				return s
			}
		}
		return ""
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Key" || len(n.Args) != 1 {
			return ""
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lang" {
			return ""
		}
		if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			return ""
		}
		return "lang.Key(…) of a value built at run time"
	case *ast.BinaryExpr:
		if n.Op != token.ADD {
			return ""
		}
		if p := cmp.Or(piece(n.X), piece(n.Y)); p != "" {
			return fmt.Sprintf("a key built from the piece %q", p)
		}
	case *ast.AssignStmt:
		if n.Tok == token.ADD_ASSIGN && len(n.Rhs) == 1 {
			if p := piece(n.Rhs[0]); p != "" {
				return fmt.Sprintf("a key built from the piece %q", p)
			}
		}
	}
	return ""
}
