// Command pathtrace instruments, in place, the Go module in -dir (a
// throw-away checkout: docs/house/measure.sh --paths makes one) so that a
// run can count the returns to a package already left: calls that enter a
// package P from another package while P is further down the same
// goroutine's stack (P → Q → P).
//
// It copies package hook (this directory's hook/hook.go) into the module
// at tools/pathtrace/hook, and in every non-test file of the module's own
// packages it inserts, right after the opening brace of each function and
// function literal, a call of hook.Enter with the file's package, plus an
// import on the package clause's line: no line moves, so coverage
// profiles and stack traces keep their line numbers. Left out: tools/,
// and the fakes and test-only packages (a path element ending in "test" or
// "fake", testworld, orgsim, sampleorg, testlog, golden), which model the
// platform rather than the bot. Functions marked //go:nosplit are left
// as they are.
//
// A rig then brackets the measured request with hook.Step(name) and
// hook.Step("") and writes the figures with hook.WriteReport (see
// docs/house/pathtrace_test.go.txt).
//
//	go run ./tools/pathtrace -dir /tmp/checkout
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

//go:embed hook/hook.go
var hookSource []byte

// hookDir is where the hook goes in the instrumented module.
const hookDir = "tools/pathtrace/hook"

// leftOut matches the module-relative directories not instrumented.
var leftOut = regexp.MustCompile(`(^|/)(tools|testdata|vendor|[a-z0-9]*test|[a-z0-9]*fake|testworld|orgsim|sampleorg|testlog|golden)(/|$)`)

func main() {
	dir := flag.String("dir", "", "root of the module to instrument in place")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: pathtrace -dir <module root>")
		os.Exit(2)
	}
	n, err := instrument(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pathtrace:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "pathtrace: instrumented %d packages\n", n)
}

// instrument rewrites the module in root and returns how many packages it
// instrumented.
func instrument(root string) (int, error) {
	module, err := modulePath(root)
	if err != nil {
		return 0, err
	}
	hookPath := module + "/" + hookDir
	if err := os.MkdirAll(filepath.Join(root, hookDir), 0o755); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(root, hookDir, "hook.go"), hookSource, 0o644); err != nil {
		return 0, err
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || leftOut.MatchString(rel)) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		dirs = append(dirs, rel)
		return nil
	})
	if err != nil {
		return 0, err
	}
	sort.Strings(dirs)
	count := 0
	for _, rel := range dirs {
		done, err := instrumentDir(root, rel, module, hookPath)
		if err != nil {
			return count, err
		}
		if done {
			count++
		}
	}
	return count, nil
}

func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod names no module", root)
}

// instrumentDir instruments the package in root/rel, if there is one.
func instrumentDir(root, rel, module, hookPath string) (bool, error) {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		if _, ok := err.(*build.NoGoError); ok {
			return false, nil
		}
		return false, fmt.Errorf("%s: %w", rel, err)
	}
	importPath := module
	if rel != "." {
		importPath += "/" + rel
	}
	for _, name := range pkg.GoFiles {
		file := filepath.Join(dir, name)
		src, err := os.ReadFile(file)
		if err != nil {
			return false, err
		}
		out, err := rewrite(file, src, hookPath)
		if err != nil {
			return false, err
		}
		if err := os.WriteFile(file, out, 0o644); err != nil {
			return false, err
		}
	}
	reg := fmt.Sprintf("package %s\n\nimport __pathtrace %q\n\nvar __pathtracePkg = __pathtrace.Package(%q)\n",
		pkg.Name, hookPath, importPath)
	return true, os.WriteFile(filepath.Join(dir, "zz_pathtrace.go"), []byte(reg), 0o644)
}

// enter is what goes after each function's opening brace.
const enter = "__pathtrace.Enter(__pathtracePkg);"

// rewrite returns src with each function body starting with a call of the
// hook, and the hook imported on the package clause's line. Only text is
// inserted, never a newline.
func rewrite(name string, src []byte, hookPath string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	ast.Inspect(f, func(n ast.Node) bool {
		switch fn := n.(type) {
		case *ast.FuncDecl:
			if fn.Body != nil && !nosplit(fn) {
				ins = append(ins, insert{fset.Position(fn.Body.Lbrace).Offset + 1, enter})
			}
		case *ast.FuncLit:
			ins = append(ins, insert{fset.Position(fn.Body.Lbrace).Offset + 1, enter})
		}
		return true
	})
	if len(ins) == 0 {
		return src, nil
	}
	ins = append(ins, insert{fset.Position(f.Name.End()).Offset, fmt.Sprintf("; import __pathtrace %q", hookPath)})
	sort.Slice(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	var out strings.Builder
	last := 0
	for _, in := range ins {
		out.Write(src[last:in.at])
		out.WriteString(in.text)
		last = in.at
	}
	out.Write(src[last:])
	return []byte(out.String()), nil
}

// nosplit reports whether fn is marked //go:nosplit: a call would overrun
// its stack limit.
func nosplit(fn *ast.FuncDecl) bool {
	if fn.Doc == nil {
		return false
	}
	for _, c := range fn.Doc.List {
		if strings.HasPrefix(c.Text, "//go:nosplit") {
			return true
		}
	}
	return false
}
