package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestRewriteKeepsEveryLine(t *testing.T) {
	src := `// Package p is a sample.
package p

import "sort"

// Sorted sorts.
func Sorted(xs []int) []int {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs
}

type T struct{}

func (T) M() {}

//go:nosplit
func fast() int { return 1 }

func external()
`
	out, err := rewrite("p.go", []byte(src), "example.com/m/tools/pathtrace/hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
	}
	got := strings.Split(string(out), "\n")
	want := strings.Split(src, "\n")
	if len(got) != len(want) {
		t.Fatalf("rewrite moved lines: %d lines, want %d\n%s", len(got), len(want), out)
	}
	for i, line := range got {
		entered := strings.Count(line, enter)
		wantEntered := 0
		switch {
		case strings.HasPrefix(want[i], "func Sorted"), strings.HasPrefix(want[i], "func (T) M"):
			wantEntered = 1
		case strings.Contains(want[i], "sort.Slice"):
			wantEntered = 1 // the function literal
		}
		if entered != wantEntered {
			t.Errorf("line %d %q: %d calls of the hook, want %d", i+1, line, entered, wantEntered)
		}
	}
	if !strings.HasPrefix(got[1], `package p; import __pathtrace "example.com/m/tools/pathtrace/hook"`) {
		t.Errorf("package line %q does not import the hook", got[1])
	}
}

// TestCountsReturnsToAPackageLeft instruments a small module and runs it:
// a → b → a is one return; a → sort → a, a → bfake (a fake, not
// instrumented) → a and a goroutine b starts are none.
func TestCountsReturnsToAPackageLeft(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		t.Skipf("no go command: %v", err)
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"main.go": `package main

import (
	"os"

	"example.com/m/a"
	"example.com/m/tools/pathtrace/hook"
)

func main() {
	a.Run() // not counted: outside a step
	hook.Step("s")
	a.Run()
	if err := hook.WriteReport(os.Args[1]); err != nil {
		panic(err)
	}
}
`,
		"a/a.go": `package a

import (
	"sort"

	"example.com/m/b"
	"example.com/m/b/bfake"
)

func Run() {
	b.Call(back)
	bfake.Call(back)
	xs := []int{3, 1, 2}
	sort.Slice(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
	b.Go(back)
}

func back() {}

func less(x, y int) bool { return x < y }
`,
		"b/b.go": `package b

import "sync"

func Call(f func()) { f() }

func Go(f func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
	wg.Wait()
}
`,
		"b/bfake/bfake.go": `package bfake

func Call(f func()) { f() }
`,
	}
	for name, text := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := instrument(root)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("instrumented %d packages, want 3 (main, a, b)", n)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b/bfake/bfake.go")); bytes.Contains(b, []byte(enter)) {
		t.Errorf("the fake was instrumented:\n%s", b)
	}
	report := filepath.Join(root, "report.txt")
	cmd := exec.Command(goBin, "run", ".", report)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("report:\n%s\nwant one step and one pair", b)
	}
	if f := strings.Split(lines[0], "\t"); f[0] != "step" || f[1] != "s" || f[3] != "1" {
		t.Errorf("step line %q, want step s with 1 return", lines[0])
	}
	want := "pair\ts\texample.com/m/a\texample.com/m/b\t1\ta.Run > b.Call > a.back"
	if lines[1] != want {
		t.Errorf("pair line\n%q, want\n%q", lines[1], want)
	}
}
