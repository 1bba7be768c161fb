package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// text is a comparison as [-removed-] and {+added+} marks, paragraphs on
// lines.
func text(c Comparison) string {
	var lines []string
	for _, p := range c.Paragraphs {
		var b []string
		for _, r := range p.Runs {
			switch r.Kind {
			case Added:
				b = append(b, "{+"+r.Text+"+}")
			case Removed:
				b = append(b, "[-"+r.Text+"-]")
			default:
				b = append(b, r.Text)
			}
		}
		lines = append(lines, strings.Join(b, " "))
	}
	return strings.Join(lines, "\n")
}

func TestCompare(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, old, new, want string
		changes              int
	}{
		{"same", "A b.\n\nC d.", "A  b.\n\nC d.", "A b.\nC d.", 0},
		{"a word changed", "The levy was 3%.\n\nNext item.", "The levy was 4%.\n\nNext item.", "The levy was [-3%.-] {+4%.+}\nNext item.", 1},
		{"two places in one paragraph", "one two three four five", "one TWO three four FIVE", "one [-two-] {+TWO+} three four [-five-] {+FIVE+}", 2},
		{"a paragraph added", "First.\n\nLast.", "First.\n\nMiddle point.\n\nLast.", "First.\n{+Middle point.+}\nLast.", 1},
		{"a paragraph removed", "First.\n\nDraft note.\n\nLast.", "First.\n\nLast.", "First.\n[-Draft note.-]\nLast.", 1},
		{"lines when no blank line", "a\nb\nc", "a\nB\nc", "a\n[-b-] {+B+}\nc", 1},
		{"from nothing", "", "New text.", "{+New text.+}", 1},
	} {
		got := Compare(c.old, c.new)
		assert.Equal(t, c.want, text(got), c.name)
		assert.Equal(t, c.changes, got.Changes, c.name)
	}
}

// FuzzCompare: whatever the texts, the comparison keeps every word of
// both: the old text is its Same and Removed runs, the new its Same and
// Added runs.
func FuzzCompare(f *testing.F) {
	f.Add("The levy was 3%.\n\nNext.", "The levy was 4%.\n\nNext.\n\nMore.")
	f.Add("", "x")
	f.Add("a\nb", "b\na")
	f.Fuzz(func(t *testing.T, old, new string) {
		c := Compare(old, new)
		var o, n []string
		for _, p := range c.Paragraphs {
			for _, r := range p.Runs {
				if r.Kind != Added {
					o = append(o, strings.Fields(r.Text)...)
				}
				if r.Kind != Removed {
					n = append(n, strings.Fields(r.Text)...)
				}
			}
		}
		words := func(s string) []string {
			var out []string
			for _, p := range paragraphs(s) {
				out = append(out, strings.Fields(p)...)
			}
			return out
		}
		if strings.Join(o, " ") != strings.Join(words(old), " ") || strings.Join(n, " ") != strings.Join(words(new), " ") {
			t.Fatalf("Compare(%q, %q) lost words: %q / %q", old, new, o, n)
		}
		if strings.Join(words(old), " ") != strings.Join(words(new), " ") && c.Changes == 0 {
			t.Fatalf("Compare(%q, %q): no change counted", old, new)
		}
	})
}
