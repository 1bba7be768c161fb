package lang

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writePO is f as a PO file, the way parsePO reads it back.
func writePO(f *poFile) string {
	var b strings.Builder
	b.WriteString("msgid \"\"\nmsgstr \"\"\n")
	keys := make([]string, 0, len(f.header))
	for k := range f.header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(quotePO(k+": "+f.header[k]+"\n") + "\n")
	}
	for _, e := range f.entries {
		b.WriteString("\n")
		if e.fuzzy {
			b.WriteString("#, fuzzy\n")
		}
		if e.hasCtx {
			fmt.Fprintf(&b, "msgctxt %s\n", quotePO(e.ctx))
		}
		fmt.Fprintf(&b, "msgid %s\n", quotePO(e.id))
		if !e.plural {
			fmt.Fprintf(&b, "msgstr %s\n", quotePO(e.str[0]))
			continue
		}
		fmt.Fprintf(&b, "msgid_plural %s\n", quotePO(e.idPlural))
		for i, s := range e.str {
			fmt.Fprintf(&b, "msgstr[%d] %s\n", i, quotePO(s))
		}
	}
	return b.String()
}

func TestParsePO(t *testing.T) {
	t.Parallel()
	po, err := parsePO("x.po", []byte(`# a comment
msgid ""
msgstr ""
"Language: fr\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

#. for translators
#: somewhere.go:1
#, fuzzy, c-format
msgctxt "row.due"
msgid "Due "
"{date}"
msgstr "Échéance {date}"
msgctxt "count.actions"
msgid "{n} action"
msgid_plural "{n} actions"
msgstr[0] "{n} action"
msgstr[1] "{n} actions\t\"x\"\\"

#~ msgctxt "old"
#~ msgid "Gone"
#~ msgstr "Parti"
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"Language": "fr", "Plural-Forms": "nplurals=2; plural=(n > 1);"}, po.header)
	require.Len(t, po.entries, 2)
	assert.Equal(t, poEntry{ctx: "row.due", id: "Due {date}", str: []string{"Échéance {date}"}, hasCtx: true, fuzzy: true, line: 10}, po.entries[0])
	assert.Equal(t, poEntry{ctx: "count.actions", id: "{n} action", idPlural: "{n} actions", str: []string{"{n} action", "{n} actions\t\"x\"\\"}, hasCtx: true, plural: true, line: 14}, po.entries[1])

	for _, tc := range []struct{ name, in, want string }{
		{"no header", "msgctxt \"a\"\nmsgid \"b\"\nmsgstr \"c\"\n", "no header"},
		{"twice", "msgid \"\"\nmsgstr \"\"\n\nmsgctxt \"a\"\nmsgid \"b\"\nmsgstr \"\"\n\nmsgctxt \"a\"\nmsgid \"b\"\nmsgstr \"\"\n", "x.po:8: message \"a\" defined again (first at line 4)"},
		{"no msgstr", "msgid \"\"\nmsgstr \"\"\n\nmsgid \"b\"\n", "x.po:4: message without msgstr"},
		{"escape", "msgid \"\"\nmsgstr \"\\q\"\n", `x.po:2: msgstr: unknown escape \q`},
		{"forms out of order", "msgid \"\"\nmsgstr \"\"\n\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[1] \"c\"\n", "x.po:6: msgstr[1] out of place"},
		{"stray string", "\"a\"\n", "x.po:1: a string outside"},
		{"not utf-8", "msgid \"\xff\"\n", "x.po: not UTF-8"},
		{"keyword", "msgid \"\"\nmsgstr \"\"\nmsgwhat \"a\"\n", "x.po:3: unknown keyword \"msgwhat\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parsePO("x.po", []byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// FuzzParsePO: parsePO never panics, and what it reads, written back,
// reads the same.
func FuzzParsePO(f *testing.F) {
	// The start of each shipped file: its header and a few messages of
	// each shape (whole files make every run slow).
	files, _ := fs.Glob(locales, "locales/*.po")
	for _, name := range files {
		data, _ := fs.ReadFile(locales, name)
		f.Add(data[:min(len(data), 1500)])
	}
	f.Add([]byte("msgid \"\"\nmsgstr \"Language: fr\\n\"\n\nmsgctxt \"a\"\nmsgid \"b\"\nmsgid_plural \"c\"\nmsgstr[0] \"d\"\nmsgstr[1] \"e\\t\\\"\"\n"))
	f.Add([]byte("#, fuzzy\nmsgctxt \"\"\nmsgid \"\"\nmsgstr \"\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		po, err := parsePO("f.po", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.po") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		again, err := parsePO("f.po", []byte(writePO(po)))
		if err != nil {
			t.Fatalf("written back, it does not parse: %v\n%s", err, writePO(po))
		}
		if len(again.entries) != len(po.entries) {
			t.Fatalf("%d entries, then %d", len(po.entries), len(again.entries))
		}
		for i := range po.entries {
			a, b := po.entries[i], again.entries[i]
			a.line, b.line = 0, 0
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("entry %d: %+v, then %+v", i, a, b)
			}
		}
		assert.Equal(t, po.header, again.header)
	})
}

// TestGettextReadsTheFiles: GNU gettext's own checker (msgfmt -c) accepts
// every language file as it is, plural forms and header included: the
// files are what translators' tools open. Skipped where gettext is not
// installed.
func TestGettextReadsTheFiles(t *testing.T) {
	t.Parallel()
	msgfmt, err := exec.LookPath("msgfmt")
	if err != nil {
		t.Skip("msgfmt (GNU gettext) is not installed")
	}
	files, err := filepath.Glob(filepath.Join("locales", "*.po"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range append(files, filepath.Join("testdata", "eo.po")) {
		out, err := exec.CommandContext(t.Context(), msgfmt, "-c", "-o", os.DevNull, f).CombinedOutput()
		assert.NoError(t, err, "msgfmt -c %s:\n%s", f, out)
	}
	// The files are as msgmerge writes them, so updating a translation
	// from en.po (docs/languages.md) changes only what English changed.
	msgmerge, err := exec.LookPath("msgmerge")
	if err != nil {
		return
	}
	en := filepath.Join("locales", "en.po")
	for _, f := range files {
		merged := filepath.Join(t.TempDir(), filepath.Base(f))
		out, err := exec.CommandContext(t.Context(), msgmerge, "-q", "-N", "--no-wrap", "-o", merged, f, en).CombinedOutput()
		require.NoError(t, err, "msgmerge %s:\n%s", f, out)
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		got, err := os.ReadFile(merged)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "msgmerge -N --no-wrap %s en.po changes it: write it as msgmerge does (or run that and commit its output)", f)
	}
}
