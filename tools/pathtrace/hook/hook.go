// Package hook is what the code tools/pathtrace instruments calls: every
// function of an instrumented package starts with Enter(its package).
// Between Step(name) and Step("") each Enter walks its goroutine's stack
// (runtime.Callers; the frames of a call site are resolved once and kept)
// and counts a return to a package already left: a call entering package P
// from a frame of another package Q while a frame of P is further down the
// same goroutine's stack (the request doubles back, P → Q → P). Only the
// frames of instrumented packages count (the standard library, other
// modules, fakes and test files are looked through), so a P → sort → P
// callback is no return. A goroutine starts with an empty stack: a
// goroutine started on the path does not see the frames of the one that
// started it.
//
// Outside a step Enter is one atomic load. The package uses only the
// standard library, and is copied into the tree it instruments, so it
// builds in any commit of the module.
package hook

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Pkg is an instrumented package. Each one has a variable holding its
// Package, set when the program initialises.
type Pkg struct {
	path string
}

var (
	registry sync.Map // import path → *Pkg
	sites    sync.Map // return PC → []frame
	current  atomic.Pointer[step]
	steps    struct {
		sync.Mutex
		done []*step
	}
)

// Package registers an instrumented package by its import path.
func Package(path string) *Pkg {
	p, _ := registry.LoadOrStore(path, &Pkg{path: path})
	return p.(*Pkg)
}

// frame is one logical frame (inlined calls expanded) of an instrumented
// package; frames of other code have a nil pkg.
type frame struct {
	pkg *Pkg
	fn  string
}

// step is the tally of one measured step.
type step struct {
	name  string
	calls atomic.Int64
	mu    sync.Mutex
	pairs map[[2]*Pkg]*tally
}

// tally counts one (P ← Q) pair and keeps its first chain of functions.
type tally struct {
	n       int
	example string
}

// Step ends the current step, if any, and starts counting under name; ""
// only ends it.
func Step(name string) {
	var next *step
	if name != "" {
		next = &step{name: name, pairs: map[[2]*Pkg]*tally{}}
	}
	if prev := current.Swap(next); prev != nil {
		steps.Lock()
		steps.done = append(steps.done, prev)
		steps.Unlock()
	}
}

// Enter is called first by every instrumented function, with its package.
//
//go:noinline
func Enter(p *Pkg) {
	s := current.Load()
	if s == nil || p == nil {
		return
	}
	s.calls.Add(1)
	var pcs [256]uintptr
	// 2: runtime.Callers and Enter; pcs[0] is the instrumented function.
	n := runtime.Callers(2, pcs[:])
	var chain [64]frame
	frames := chain[:0]
	for _, pc := range pcs[:n] {
		for _, f := range resolve(pc) {
			if f.pkg != nil {
				frames = append(frames, f)
			}
		}
	}
	if q, ok := doubledBack(p, frames); ok {
		s.count(p, q, frames)
	}
}

// doubledBack reports whether entering frames[0] (of package p) is a
// return to p: the frame below it is of another package q, and a frame of
// p is further down.
func doubledBack(p *Pkg, frames []frame) (*Pkg, bool) {
	if len(frames) < 3 || frames[0].pkg != p || frames[1].pkg == p {
		return nil, false
	}
	for _, f := range frames[2:] {
		if f.pkg == p {
			return frames[1].pkg, true
		}
	}
	return nil, false
}

func (s *step) count(p, q *Pkg, frames []frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.pairs[[2]*Pkg{p, q}]
	if t == nil {
		t = &tally{example: example(p, frames)}
		s.pairs[[2]*Pkg{p, q}] = t
	}
	t.n++
}

// example is the chain from the earlier frame of p up to the one entered,
// outermost first.
func example(p *Pkg, frames []frame) string {
	last := 2
	for i := 2; i < len(frames); i++ {
		if frames[i].pkg == p {
			last = i
			break
		}
	}
	names := make([]string, 0, last+1)
	for i := last; i >= 0; i-- {
		names = append(names, frames[i].fn)
	}
	return strings.Join(names, " > ")
}

// resolve expands a return PC into its logical frames, innermost first,
// once per call site.
func resolve(pc uintptr) []frame {
	if fs, ok := sites.Load(pc); ok {
		return fs.([]frame)
	}
	var fs []frame
	it := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := it.Next()
		fs = append(fs, frameOf(f))
		if !more {
			break
		}
	}
	sites.Store(pc, fs)
	return fs
}

func frameOf(f runtime.Frame) frame {
	if strings.HasSuffix(f.File, "_test.go") {
		return frame{fn: f.Function}
	}
	path, fn := splitFunction(f.Function)
	p, ok := registry.Load(path)
	if !ok {
		return frame{fn: f.Function}
	}
	return frame{pkg: p.(*Pkg), fn: shortName(path) + "." + fn}
}

// splitFunction splits a runtime function name such as
// "example.com/m/bot.(*Server).serve.func1" into the import path and the
// rest.
func splitFunction(name string) (path, fn string) {
	head := name
	if i := strings.IndexByte(head, '['); i >= 0 {
		head = head[:i]
	}
	slash := strings.LastIndexByte(head, '/')
	dot := strings.IndexByte(head[slash+1:], '.')
	if dot < 0 {
		return name, ""
	}
	cut := slash + 1 + dot
	return name[:cut], name[cut+1:]
}

func shortName(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// WriteReport ends the current step and writes every step's figures to
// file, one line each, tab-separated:
//
//	step <name> <calls> <returns>
//	pair <name> <P> <Q> <count> <example chain>
//
// P and Q are import paths; pairs are sorted by count, highest first.
func WriteReport(file string) error {
	Step("")
	out, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("pathtrace report: %w", err)
	}
	w := bufio.NewWriter(out)
	steps.Lock()
	done := append([]*step(nil), steps.done...)
	steps.Unlock()
	for _, s := range done {
		s.write(w)
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return fmt.Errorf("pathtrace report: %w", err)
	}
	return out.Close()
}

func (s *step) write(w *bufio.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type row struct {
		p, q string
		t    *tally
	}
	rows := make([]row, 0, len(s.pairs))
	returns := 0
	for k, t := range s.pairs {
		rows = append(rows, row{k[0].path, k[1].path, t})
		returns += t.n
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].t.n != rows[j].t.n {
			return rows[i].t.n > rows[j].t.n
		}
		return rows[i].p+" "+rows[i].q < rows[j].p+" "+rows[j].q
	})
	fmt.Fprintf(w, "step\t%s\t%d\t%d\n", s.name, s.calls.Load(), returns)
	for _, r := range rows {
		fmt.Fprintf(w, "pair\t%s\t%s\t%s\t%d\t%s\n", s.name, r.p, r.q, r.t.n, r.t.example)
	}
}
