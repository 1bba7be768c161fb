package hook

import "testing"

func TestDoubledBack(t *testing.T) {
	a, b, c := &Pkg{path: "m/a"}, &Pkg{path: "m/b"}, &Pkg{path: "m/c"}
	stack := func(ps ...*Pkg) []frame {
		fs := make([]frame, len(ps))
		for i, p := range ps {
			fs[i] = frame{pkg: p}
		}
		return fs
	}
	for _, tc := range []struct {
		name   string
		frames []frame // innermost first
		back   *Pkg
	}{
		{"a → b → a", stack(a, b, a), b},
		{"a → b → c → a", stack(a, c, b, a), c},
		{"a → a", stack(a, a), nil},
		{"a → b → a → a: counted when a was entered from b", stack(a, a, b, a), nil},
		{"b → a", stack(a, b), nil},
		{"a → b → c", stack(c, b, a), nil},
	} {
		q, ok := doubledBack(tc.frames[0].pkg, tc.frames)
		if ok != (tc.back != nil) || q != tc.back {
			t.Errorf("%s: doubledBack = %v, %v; want %v", tc.name, q, ok, tc.back)
		}
	}
}

func TestSplitFunction(t *testing.T) {
	for name, want := range map[string][2]string{
		"example.com/m/bot.(*Server).serve.func1":         {"example.com/m/bot", "(*Server).serve.func1"},
		"example.com/m/internal/cache.(*TTL[...]).Update": {"example.com/m/internal/cache", "(*TTL[...]).Update"},
		"example.com/m/a.Map[go.shape.int]":               {"example.com/m/a", "Map[go.shape.int]"},
		"main.main":                                       {"main", "main"},
	} {
		path, fn := splitFunction(name)
		if path != want[0] || fn != want[1] {
			t.Errorf("splitFunction(%q) = %q, %q; want %q, %q", name, path, fn, want[0], want[1])
		}
	}
}
