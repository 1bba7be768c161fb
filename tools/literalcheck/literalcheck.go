// Package literalcheck finds English that would reach a person outside the
// language catalogue (package internal/lang): string literals in
// the code of the packages that write to Slack or to a public page, and
// the text of the page templates. It is a vet-style check run by `go
// test ./tools/literalcheck` (and so by `go test ./...` and .ci/run).
//
// A literal is reported when it reads as words for people: after Slack's
// syntax is set aside (emoji codes, <…> sequences, entities, {placeholders},
// `code`), two ASCII words in a row separated by a space, or one capitalised
// word ("Start"). Identifiers, keys, URLs, IDs and single lowercase words
// (command keywords, statuses) are not. Literals whose meaning is not a
// person's reading are skipped by where they are: log lines (log/slog),
// errors (fmt.Errorf, errors.New: translated once, at the edge, by a
// catalogue key), panics, struct tags, imports, the arguments of catalogue
// calls (keys and placeholder names), comparisons and switch cases
// (keywords people type). What is left and still not words is allowed by
// an entry of Allowed, with its reason.
package literalcheck

import (
	"fmt"
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
)

// Finding is one literal that reads as English for people.
type Finding struct {
	Pos  token.Position
	Func string // the enclosing function, "" at package level
	Text string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %q", filepath.ToSlash(f.Pos.Filename), f.Pos.Line, f.Text)
}

// Dirs are the packages that write what people read in Slack or on a
// public page, relative to the repository root; subdirectories are
// included, tests and testdata are not. The demo is not among them: its
// console's own words are a developer's terminal, and what the bot says
// in it is drawn by blocks and bot, which are.
var Dirs = []string{"blocks", "bot", "calendar", "remind", "watch"}

// skipCalls are the functions and methods whose string arguments are not
// read by people in Slack or on a page: logs, errors, panics, the
// catalogue's own lookups (keys and placeholder names), and the text
// recordsbot writes for operators (doctor, the console).
var skipCalls = map[string]bool{
	// log/slog and loggers
	"Debug": true, "Info": true, "Warn": true, "Error": true, "Log": true, "LogAttrs": true, "With": true, "WithGroup": true,
	"DebugContext": true, "InfoContext": true, "WarnContext": true, "ErrorContext": true,
	"String": true, "Int": true, "Any": true, "Bool": true, "Duration": true, "Time": true, "Group": true, "Int64": true,
	// errors
	"Errorf": true, "New": true, "panic": true, "Fatalf": true, "Fatal": true,
	// the bot's error edge: say(ctx, "what failed", err) logs the
	// operation's name and answers with a catalogue message
	"say": true, "recoverTask": true,
	// the catalogue
	"T": true, "F": true, "N": true, "WriteF": true, "Aliases": true, "Keyword": true,
	// HTTP plumbing: header names and values, methods, routes
	"Set": true, "Add": true, "Get": true, "Del": true, "Header": true, "HandleFunc": true, "Handle": true, "Method": true,
	"MustParse": true, "MustCompile": true, "Compile": true,
}

var (
	// twoWords is two ASCII words in a row, as a phrase has them.
	twoWords = regexp.MustCompile(`[A-Za-z][A-Za-z'’]+[,.;:!?)]*\s+[(]?[A-Za-z][A-Za-z'’]+`)
	// capitalised is one capitalised word alone: a label ("Start").
	capitalised = regexp.MustCompile(`^[A-Z][a-z]{2,}[.!?:]?$`)
)

// Words reports whether s, a literal's value, reads as words for people.
func Words(s string) bool {
	s = strip(s)
	return twoWords.MatchString(s) || capitalised.MatchString(strings.TrimSpace(s))
}

// strip blanks out Slack's and the catalogue's syntax: emoji codes, <…>
// sequences (but a link's label is kept), entities, {placeholders}, code
// spans and URLs.
func strip(s string) string {
	for _, re := range stripped {
		s = re.ReplaceAllString(s, " ")
	}
	return s
}

var stripped = []*regexp.Regexp{
	regexp.MustCompile("`[^`]*`"),
	regexp.MustCompile(`:[a-z0-9_+-]+:`),
	regexp.MustCompile(`<[^|>]*>`),
	regexp.MustCompile(`<[^|>]*\|`),
	regexp.MustCompile(`&[a-z]+;`),
	regexp.MustCompile(`\{[a-z_.]+\}`),
	regexp.MustCompile(`(https?|webcal)://\S+`),
	regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`),
}

// Check parses the Go files (tests excluded) under dirs of root and
// returns the literals that read as words for people. Test files and the
// test-only packages beside the code (a directory named *test, such as
// bot/bottest or remind/remindtest: rigs and datasets only tests import)
// are left out: no person reads them.
func Check(root string, dirs []string) ([]Finding, error) {
	var out []Finding
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasSuffix(d.Name(), "test") && path != filepath.Join(root, dir) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("parse %s: %w", path, err)
			}
			rel, _ := filepath.Rel(root, path)
			out = append(out, checkFile(fset, rel, file)...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkFile returns the findings of one file.
func checkFile(fset *token.FileSet, rel string, file *ast.File) []Finding {
	var out []Finding
	skip := map[*ast.BasicLit]bool{}
	var fn string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			if n.Tag != nil {
				skip[n.Tag] = true
			}
		case *ast.CallExpr:
			if skipCalls[callName(n.Fun)] {
				return false
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				return false
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				ast.Inspect(e, func(m ast.Node) bool {
					if lit, ok := m.(*ast.BasicLit); ok {
						skip[lit] = true
					}
					return true
				})
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING || skip[n] {
				return false
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil || !Words(s) {
				return false
			}
			pos := fset.Position(n.Pos())
			pos.Filename = rel
			out = append(out, Finding{Pos: pos, Func: fn, Text: s})
		}
		return true
	}
	for _, d := range file.Decls {
		fn = ""
		if f, ok := d.(*ast.FuncDecl); ok {
			fn = f.Name.Name
			if f.Recv != nil && len(f.Recv.List) == 1 {
				fn = recvName(f.Recv.List[0].Type) + "." + fn
			}
		}
		ast.Inspect(d, visit)
	}
	return out
}

// callName is the name a call is made by: "Errorf" for fmt.Errorf,
// "Info" for logger.Info.
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr:
		return callName(f.X)
	}
	return ""
}

func recvName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	}
	return ""
}

// Templates returns the text of the HTML templates under dir (relative to
// root) that reads as words for people outside {{…}} actions: a page's
// words come from the catalogue through {{t .Lang "key"}}.
func Templates(root, dir string) ([]Finding, error) {
	var out []Finding
	files, err := filepath.Glob(filepath.Join(root, dir, "*.html"))
	if err != nil {
		return nil, err
	}
	action := regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	comment := regexp.MustCompile(`(?s)<!--.*?-->|<(script|style)\b.*?</(script|style)>`)
	tag := regexp.MustCompile(`<[^>]*>`)
	attr := regexp.MustCompile(`\b(title|alt|aria-label|placeholder|content)="([^"]*)"`)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, f)
		// Actions and comments may span lines: blank them, keeping the
		// line breaks so that line numbers stay right.
		text := action.ReplaceAllStringFunc(string(raw), keepNewlines)
		text = comment.ReplaceAllStringFunc(text, keepNewlines)
		for i, line := range strings.Split(text, "\n") {
			noActions := line
			var texts []string
			for _, m := range attr.FindAllStringSubmatch(noActions, -1) {
				texts = append(texts, m[2])
			}
			texts = append(texts, tag.ReplaceAllString(noActions, " "))
			for _, s := range texts {
				if Words(s) {
					out = append(out, Finding{Pos: token.Position{Filename: rel, Line: i + 1}, Text: strings.TrimSpace(s)})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Finding) int { return strings.Compare(a.String(), b.String()) })
	return out, nil
}

// keepNewlines is s blanked but for its line breaks.
func keepNewlines(s string) string {
	return strings.Repeat("\n", strings.Count(s, "\n")) + " "
}

// GoCatalogues finds words kept in a Go map instead of the catalogue's
// files (internal/lang/locales/<code>.po, which translators' tools open):
// a map literal from lang.Key to text or to lang.Plural, a
// lang.Catalogue literal, or a file internal/lang/<code>.go named after a
// shipped language. It walks every non-test Go file under root; it needs
// no package to compile, so it explains a catalogue file that came back
// in a merge even while that file breaks the build.
func GoCatalogues(root string) ([]Finding, error) {
	var out []Finding
	locales, err := filepath.Glob(filepath.Join(root, "internal", "lang", "locales", "*.po"))
	if err != nil {
		return nil, err
	}
	langFiles := map[string]bool{}
	for _, po := range locales {
		code := strings.TrimSuffix(filepath.Base(po), ".po")
		langFiles[filepath.Join("internal", "lang", code+".go")] = true
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if langFiles[rel] {
			out = append(out, Finding{Pos: token.Position{Filename: rel, Line: 1}, Text: "a language's catalogue as a Go file"})
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || lit.Type == nil || len(lit.Elts) == 0 {
				return true // an empty map is a table being built, not words
			}
			if what := goCatalogueType(lit.Type); what != "" {
				pos := fset.Position(lit.Pos())
				pos.Filename = rel
				out = append(out, Finding{Pos: pos, Text: what})
				return false
			}
			return true
		})
		return nil
	})
	return out, err
}

// goCatalogueType names the catalogue shape of a literal's type, or "".
func goCatalogueType(t ast.Expr) string {
	name := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && x.Name == "lang" {
				return e.Sel.Name
			}
		}
		return ""
	}
	if m, ok := t.(*ast.MapType); ok && name(m.Key) == "Key" {
		if v, ok := m.Value.(*ast.Ident); ok && v.Name == "string" {
			return "a map from lang.Key to text"
		}
		if name(m.Value) == "Plural" {
			return "a map from lang.Key to lang.Plural"
		}
	}
	if name(t) == "Catalogue" {
		return "a lang.Catalogue literal"
	}
	return ""
}
