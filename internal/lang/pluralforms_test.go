package lang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parsePluralForms reads a PO header's Plural-Forms field,
// "nplurals=2; plural=(n > 1);", into the count and the expression.
func parsePluralForms(s string) (int, string, error) {
	var nplurals = -1
	var expr string
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "nplurals":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return 0, "", fmt.Errorf("nplurals %q is not a count", v)
			}
			nplurals = n
		case "plural":
			expr = strings.TrimSpace(v)
		}
	}
	if nplurals < 0 || expr == "" {
		return 0, "", errors.New("want nplurals and plural")
	}
	if _, err := evalPlural(expr, 0); err != nil {
		return 0, "", err
	}
	return nplurals, expr, nil
}

// evalPlural is the value of a Plural-Forms expression, C's operators on
// the count n, as gettext evaluates it.
func evalPlural(expr string, n int) (int, error) {
	e := &pluralExpr{s: expr, n: n}
	v := e.ternary()
	e.space()
	if e.err == nil && e.i < len(e.s) {
		e.err = fmt.Errorf("unexpected %q in %q", e.s[e.i:], expr)
	}
	return v, e.err
}

type pluralExpr struct {
	s   string
	i   int
	n   int
	err error
}

func (e *pluralExpr) space() {
	for e.i < len(e.s) && (e.s[e.i] == ' ' || e.s[e.i] == '\t') {
		e.i++
	}
}

// eat consumes op when it comes next (and is not the start of a longer one).
func (e *pluralExpr) eat(op string) bool {
	e.space()
	if !strings.HasPrefix(e.s[e.i:], op) {
		return false
	}
	if rest := e.s[e.i+len(op):]; len(op) == 1 && rest != "" && strings.ContainsRune("=&|", rune(rest[0])) && strings.ContainsRune("<>!=&|", rune(op[0])) {
		return false
	}
	e.i += len(op)
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (e *pluralExpr) ternary() int {
	c := e.or()
	if e.eat("?") {
		a := e.ternary()
		if !e.eat(":") && e.err == nil {
			e.err = fmt.Errorf("want : in %q", e.s)
		}
		b := e.ternary()
		if c != 0 {
			return a
		}
		return b
	}
	return c
}

func (e *pluralExpr) or() int {
	v := e.and()
	for e.eat("||") {
		r := e.and()
		v = b2i(v != 0 || r != 0)
	}
	return v
}

func (e *pluralExpr) and() int {
	v := e.eq()
	for e.eat("&&") {
		r := e.eq()
		v = b2i(v != 0 && r != 0)
	}
	return v
}

func (e *pluralExpr) eq() int {
	v := e.rel()
	for {
		switch {
		case e.eat("=="):
			v = b2i(v == e.rel())
		case e.eat("!="):
			v = b2i(v != e.rel())
		default:
			return v
		}
	}
}

func (e *pluralExpr) rel() int {
	v := e.add()
	for {
		switch {
		case e.eat("<="):
			v = b2i(v <= e.add())
		case e.eat(">="):
			v = b2i(v >= e.add())
		case e.eat("<"):
			v = b2i(v < e.add())
		case e.eat(">"):
			v = b2i(v > e.add())
		default:
			return v
		}
	}
}

func (e *pluralExpr) add() int {
	v := e.mul()
	for {
		switch {
		case e.eat("+"):
			v += e.mul()
		case e.eat("-"):
			v -= e.mul()
		default:
			return v
		}
	}
}

func (e *pluralExpr) mul() int {
	v := e.unary()
	for {
		switch {
		case e.eat("*"):
			v *= e.unary()
		case e.eat("/"), e.eat("%"):
			op := e.s[e.i-1]
			r := e.unary()
			if r == 0 {
				if e.err == nil {
					e.err = fmt.Errorf("division by zero in %q", e.s)
				}
				return 0
			}
			if op == '/' {
				v /= r
			} else {
				v %= r
			}
		default:
			return v
		}
	}
}

func (e *pluralExpr) unary() int {
	if e.eat("!") {
		return b2i(e.unary() == 0)
	}
	e.space()
	switch {
	case e.err != nil:
		return 0
	case e.eat("("):
		v := e.ternary()
		if !e.eat(")") && e.err == nil {
			e.err = fmt.Errorf("want ) in %q", e.s)
		}
		return v
	case e.i < len(e.s) && e.s[e.i] == 'n':
		e.i++
		return e.n
	case e.i < len(e.s) && e.s[e.i] >= '0' && e.s[e.i] <= '9':
		j := e.i
		for j < len(e.s) && e.s[j] >= '0' && e.s[j] <= '9' {
			j++
		}
		v, _ := strconv.Atoi(e.s[e.i:j])
		e.i = j
		return v
	}
	e.err = fmt.Errorf("want n, a number or ( at %q in %q", e.s[e.i:], e.s)
	return 0
}

func TestEvalPlural(t *testing.T) {
	t.Parallel()
	// Polish, gettext's manual's own example of three forms.
	pl := "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
	for n, want := range map[int]int{1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 22: 1, 25: 2, 0: 2} {
		got, err := evalPlural(pl, n)
		assert.NoError(t, err)
		assert.Equal(t, want, got, "n=%d", n)
	}
	got, _ := evalPlural("(n > 1)", 1)
	assert.Equal(t, 0, got)
	got, _ = evalPlural("n != 1", 0)
	assert.Equal(t, 1, got)
	_, err := evalPlural("(n > ", 1)
	assert.Error(t, err)
	_, _, err = parsePluralForms("nplurals=2;")
	assert.Error(t, err)
}
