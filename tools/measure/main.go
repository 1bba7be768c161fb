// Command measure prints the figures of the code's structure for the Go
// module in -dir (a checkout of any commit; see docs/house/measure.sh,
// which checks one out and runs this on it):
//
//   - upward imports: a domain package (actions, audit, calendar, minutes,
//     follows, apiclient, store) that imports a Slack package (blocks,
//     internal/slackapi, slack-go) directly or through its dependencies;
//     bot importing watch; a package under internal/ importing bot (in its
//     tests too: the test rigs);
//   - bot reading records around the domain services: non-test files of
//     bot (not its sub-packages) importing apiclient for more than types
//     (a call of an apiclient function or of a *apiclient.Client method);
//   - functions over 80 lines, data tables left out (a function most of
//     whose lines are one composite literal: a catalogue, a dataset);
//   - functions taking a bool parameter, and taking two or more;
//   - ignored errors: an error result assigned to _ , outside fakes (test
//     files and the packages named *test or *fake) and outside Close and Rollback,
//     whose errors are dropped on purpose;
//   - lines of non-test Go (tools/ left out), the part of them linked into
//     cmd/recordsbot (its packages in go list -deps), and of the fakes
//     (the packages named *test or *fake, and internal/orgsim,
//     internal/sampleorg and internal/testworld, the organisation they
//     serve) how many are linked.
//
// Only the module's own non-test files are counted, but for the rigs'
// imports. It type-checks from the export data `go list -export` builds,
// so it needs nothing beyond the standard library. The duplicates pairs
// are counted by measure.sh (the duplicates tool reads files as text).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// pkg is what `go list -json` says of a package, the fields used here.
type pkg struct {
	ImportPath   string
	Dir          string
	Name         string
	GoFiles      []string
	Export       string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
	Standard     bool
	Module       *struct{ Path string }
}

// domains are the packages that must know nothing of Slack.
var domains = []string{"actions", "audit", "calendar", "minutes", "follows", "apiclient", "store"}

func main() {
	dir := flag.String("dir", ".", "the module's root")
	verbose := flag.Bool("v", false, "list what each figure counts")
	flag.Parse()
	if err := run(*dir, *verbose, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func run(dir string, verbose bool, out io.Writer) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	pkgs, module, err := list(dir)
	if err != nil {
		return err
	}
	own := func(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }
	rel := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "/") }
	byPath := map[string]*pkg{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	slackPkg := func(p string) bool {
		r := rel(p)
		return strings.HasPrefix(p, "github.com/slack-go/") || own(p) && (r == "blocks" || strings.HasPrefix(r, "blocks/") || r == "internal/slackapi" || strings.HasPrefix(r, "internal/slackapi/"))
	}
	under := func(r, top string) bool { return r == top || strings.HasPrefix(r, top+"/") }

	var upward, toSlack []string
	for _, p := range pkgs {
		if !own(p.ImportPath) {
			continue
		}
		r := rel(p.ImportPath)
		for _, d := range domains {
			if !under(r, d) {
				continue
			}
			var via []string
			for _, dep := range p.Deps {
				if slackPkg(dep) && !strings.Contains(dep, "/slack-go/slack/") {
					via = append(via, rel(dep))
				}
			}
			if len(via) > 0 {
				toSlack = append(toSlack, r+" (on "+strings.Join(via, ", ")+")")
			}
			for _, imp := range p.Imports {
				if slackPkg(imp) {
					upward = append(upward, r+" → "+rel(imp))
				}
			}
		}
		if under(r, "bot") {
			for _, imp := range p.Imports {
				if under(rel(imp), "watch") && own(imp) {
					upward = append(upward, r+" → "+rel(imp))
				}
			}
		}
		if under(r, "internal") {
			seen := map[string]bool{}
			for _, imp := range append(append(append([]string{}, p.Imports...), p.TestImports...), p.XTestImports...) {
				if own(imp) && under(rel(imp), "bot") && !seen[imp] {
					seen[imp] = true
					upward = append(upward, r+" → "+rel(imp))
				}
			}
		}
	}

	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := byPath[path]
		if !ok || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.Export)
	})
	var long, bool1, bool2, ignored, botRecords, jobRecords []string
	for _, p := range pkgs {
		if !own(p.ImportPath) || len(p.GoFiles) == 0 {
			continue
		}
		r := rel(p.ImportPath)
		if under(r, "tools") {
			continue // this program, and any like it
		}
		fake := strings.HasSuffix(p.Name, "test") || strings.HasSuffix(r, "test") || strings.HasSuffix(p.Name, "fake")
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files = append(files, af)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp.(types.ImporterFrom), Error: func(error) {}}
		tp, _ := conf.Check(p.ImportPath, fset, files, info) // errors: what could be checked is counted
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				where := fmt.Sprintf("%s %s", position(fset, fd.Pos(), dir), funcName(fd))
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				if lines > 80 && !dataTable(fset, fd) {
					long = append(long, fmt.Sprintf("%s (%d lines)", where, lines))
				}
				switch n := boolParams(fd); {
				case n >= 2:
					bool2 = append(bool2, where)
					fallthrough
				case n == 1:
					bool1 = append(bool1, where)
				}
			}
			if !fake {
				ignored = append(ignored, ignoredErrors(fset, f, info, dir)...)
			}
			if r == "remind" || r == "watch" || r == "calendar" {
				jobRecords = append(jobRecords, recordsInterfaces(fset, f, dir)...)
			}
			if r == "bot" {
				botRecords = append(botRecords, recordsReads(fset, f, info, clientMethods(tp, module), module, dir)...)
			}
		}
	}
	dup := func(s []string) []string { sort.Strings(s); return s }
	toSlack = uniq(dup(toSlack))
	figures := []struct {
		name  string
		items []string
	}{
		{"upward imports (domain → Slack, bot → watch, internal → bot)", uniq(dup(upward))},
		{"domain packages depending on a Slack package (go list -deps)", toSlack},
		{"bot reading records around the domain services (apiclient calls in bot)", dup(botRecords)},
		{"remind, watch and calendar reading records around the domain services (their own interface over the records client)", dup(jobRecords)},
		{"functions over 80 lines, data tables left out", dup(long)},
		{"functions taking a bool parameter", dup(bool1)},
		{"functions taking two or more bool parameters", dup(bool2)},
		{"ignored errors outside fakes and Close/Rollback", dup(ignored)},
	}
	for _, f := range figures {
		fmt.Fprintf(out, "%4d  %s\n", len(f.items), f.name)
		if verbose {
			for _, it := range f.items {
				fmt.Fprintf(out, "        %s\n", it)
			}
		}
	}
	return lineFigures(pkgs, own, rel, verbose, out)
}

// list runs go list on the module in dir, building export data.
func list(dir string) ([]*pkg, string, error) {
	modOut, err := exec.Command("go", "-C", dir, "list", "-m").Output()
	if err != nil {
		return nil, "", fmt.Errorf("go list -m: %w", err)
	}
	module := strings.TrimSpace(string(modOut))
	cmd := exec.Command("go", "-C", dir, "list", "-e", "-deps", "-export", "-test=false", "-json=ImportPath,Dir,Name,GoFiles,Export,Imports,TestImports,XTestImports,Deps,Standard,Module", "./...")
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, "", fmt.Errorf("go list: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var pkgs []*pkg
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, "", fmt.Errorf("decode go list: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, module, nil
}

func position(fset *token.FileSet, pos token.Pos, dir string) string {
	p := fset.Position(pos)
	name, err := filepath.Rel(dir, p.Filename)
	if err != nil {
		name = p.Filename
	}
	return fmt.Sprintf("%s:%d", name, p.Line)
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// dataTable reports whether most of fd's lines are composite literals: a
// catalogue or a dataset written as code, whose length is its data.
func dataTable(fset *token.FileSet, fd *ast.FuncDecl) bool {
	covered := 0
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		covered += fset.Position(cl.End()).Line - fset.Position(cl.Pos()).Line + 1
		return false
	})
	total := fset.Position(fd.Body.End()).Line - fset.Position(fd.Body.Pos()).Line + 1
	return covered*2 > total
}

// boolParams counts fd's parameters of type bool.
func boolParams(fd *ast.FuncDecl) int {
	n := 0
	for _, f := range fd.Type.Params.List {
		if id, ok := f.Type.(*ast.Ident); ok && id.Name == "bool" {
			if len(f.Names) == 0 {
				n++
			}
			n += len(f.Names)
		}
	}
	return n
}

var errorType = types.Universe.Lookup("error").Type()

// ignoredErrors lists the assignments in f that give an error to _, but
// for the errors of Close and Rollback.
func ignoredErrors(fset *token.FileSet, f *ast.File, info *types.Info, dir string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		var results []types.Type
		switch {
		case len(as.Rhs) == 1 && len(as.Lhs) > 1:
			if tup, ok := info.Types[as.Rhs[0]].Type.(*types.Tuple); ok {
				for i := range tup.Len() {
					results = append(results, tup.At(i).Type())
				}
			}
		case len(as.Rhs) == len(as.Lhs):
			for _, r := range as.Rhs {
				results = append(results, info.Types[r].Type)
			}
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name != "_" || i >= len(results) || results[i] == nil || !types.Identical(results[i], errorType) {
				continue
			}
			rhs := as.Rhs[0]
			if len(as.Rhs) == len(as.Lhs) {
				rhs = as.Rhs[i]
			}
			if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Close" || sel.Sel.Name == "Rollback") {
					continue
				}
			}
			out = append(out, position(fset, as.Pos(), dir))
		}
		return true
	})
	return out
}

// clientMethods are the names of the methods of apiclient's Client, as
// tp (a package importing apiclient) sees them.
func clientMethods(tp *types.Package, module string) map[string]bool {
	names := map[string]bool{}
	if tp == nil {
		return names
	}
	for _, ip := range tp.Imports() {
		if ip.Path() != module+"/apiclient" {
			continue
		}
		if obj := ip.Scope().Lookup("Client"); obj != nil {
			ms := types.NewMethodSet(types.NewPointer(obj.Type()))
			for i := range ms.Len() {
				names[ms.At(i).Obj().Name()] = true
			}
		}
	}
	return names
}

// recordsReads lists the calls in f of an apiclient function, of a method
// of apiclient's Client, or of one of its methods through an interface
// the package declares: records read around the domain services.
func recordsReads(fset *token.FileSet, f *ast.File, info *types.Info, methods map[string]bool, module, dir string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil {
			return true
		}
		sig, _ := fn.Type().(*types.Signature)
		if sig == nil {
			return true
		}
		if fn.Pkg().Path() != module+"/apiclient" {
			if recv := sig.Recv(); recv != nil && types.IsInterface(recv.Type()) && fn.Pkg().Path() == module+"/bot" && methods[fn.Name()] {
				out = append(out, position(fset, call.Pos(), dir)+" "+fn.Name())
			}
			return true
		}
		if recv := sig.Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if named, ok := t.(*types.Named); !ok || named.Obj().Name() != "Client" {
				return true
			}
		} else if !strings.HasPrefix(fn.Name(), "New") {
			return true
		}
		out = append(out, position(fset, call.Pos(), dir)+" "+fn.Name())
		return true
	})
	return out
}

func uniq(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// lineFigures prints the lines of the module's non-test Go, those linked
// into cmd/recordsbot, and the fakes' lines, linked and not; -v lists the
// linked fakes. Lines are physical lines, comments included.
func lineFigures(pkgs []*pkg, own func(string) bool, rel func(string) string, verbose bool, out io.Writer) error {
	linked := map[string]bool{}
	for _, p := range pkgs {
		if own(p.ImportPath) && rel(p.ImportPath) == "cmd/recordsbot" {
			linked[p.ImportPath] = true
			for _, d := range p.Deps {
				linked[d] = true
			}
		}
	}
	fake := func(r string) bool {
		return strings.HasSuffix(r, "test") || strings.HasSuffix(r, "fake") || r == "internal/orgsim" || r == "internal/sampleorg" || r == "internal/testworld"
	}
	var all, bin, fakes, fakesBin int
	var linkedFakes []string
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		if !own(p.ImportPath) || r == "tools" || strings.HasPrefix(r, "tools/") {
			continue
		}
		n := 0
		for _, f := range p.GoFiles {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return err
			}
			n += strings.Count(string(b), "\n")
		}
		all += n
		if linked[p.ImportPath] {
			bin += n
		}
		if fake(r) {
			fakes += n
			if linked[p.ImportPath] {
				fakesBin += n
				linkedFakes = append(linkedFakes, fmt.Sprintf("%s (%d)", r, n))
			}
		}
	}
	sort.Strings(linkedFakes)
	fmt.Fprintf(out, "%6d  lines of non-test Go (tools/ left out)\n", all)
	fmt.Fprintf(out, "%6d  of them linked into cmd/recordsbot (go list -deps)\n", bin)
	fmt.Fprintf(out, "%6d  lines of fakes (packages named *test or *fake, internal/orgsim, internal/sampleorg, internal/testworld), %d of them linked into cmd/recordsbot\n", fakes, fakesBin)
	if verbose {
		for _, f := range linkedFakes {
			fmt.Fprintf(out, "        %s\n", f)
		}
	}
	return nil
}

// recordsMethods are the records client's reads and writes.
var recordsMethods = map[string]bool{"ListActions": true, "UpdateActionStatus": true, "ListMeetings": true, "GetMeeting": true, "GetMinutes": true}

// recordsInterfaces lists the interface types in f that declare one of
// the records client's methods: a package reading the records service on
// its own rather than through the actions and minutes domains.
func recordsInterfaces(fset *token.FileSet, f *ast.File, dir string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		it, ok := ts.Type.(*ast.InterfaceType)
		if !ok {
			return true
		}
		for _, m := range it.Methods.List {
			for _, name := range m.Names {
				if recordsMethods[name.Name] {
					out = append(out, fmt.Sprintf("%s %s.%s", position(fset, ts.Pos(), dir), ts.Name.Name, name.Name))
				}
			}
		}
		return true
	})
	return out
}
