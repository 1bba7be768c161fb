// Package diff compares two versions of minutes as a reader would: by
// paragraph, and within a changed paragraph by word. It works on plain
// text (body.PlainText: the one reading of minutes in every dialect), so
// HTML, Markdown and plain minutes compare alike, and a change of markup
// alone is no change.
package diff

import (
	"strings"
)

// Kind is what happened to a run of text.
type Kind int

// The kinds of run.
const (
	Same Kind = iota
	Added
	Removed
)

// Run is a run of words that stayed, came or went.
type Run struct {
	Kind Kind
	Text string
}

// Paragraph is one paragraph of the comparison: its runs in order. A
// paragraph that stayed whole is one Same run; Changed tells the others.
type Paragraph struct {
	Runs    []Run
	Changed bool
}

// Comparison is old and new side by side, by paragraph.
type Comparison struct {
	Paragraphs []Paragraph
	// Changes counts the places that changed: each stretch of words added
	// or removed (or both, a replacement) is one change, wherever it is.
	Changes int
}

// maxCells bounds the word table of one paragraph pair (its words
// multiplied): a longer pair is compared as a whole, removed then added,
// so no minutes can make a comparison slow.
const maxCells = 1 << 20

// Compare compares old with new.
func Compare(old, new string) Comparison {
	op, np := paragraphs(old), paragraphs(new)
	var c Comparison
	var gone, came []string
	flush := func() {
		c.pair(gone, came)
		gone, came = nil, nil
	}
	for _, e := range lcs(op, np) {
		switch e.kind {
		case Same:
			flush()
			c.Paragraphs = append(c.Paragraphs, Paragraph{Runs: []Run{{Same, e.text}}})
		case Removed:
			gone = append(gone, e.text)
		case Added:
			came = append(came, e.text)
		}
	}
	flush()
	return c
}

// pair adds the paragraphs removed and added between two that stayed:
// paired in order and compared word by word, the rest whole.
func (c *Comparison) pair(gone, came []string) {
	for i := 0; i < max(len(gone), len(came)); i++ {
		var o, n string
		if i < len(gone) {
			o = gone[i]
		}
		if i < len(came) {
			n = came[i]
		}
		p := Paragraph{Changed: true}
		inChange := false
		for _, e := range lcs(strings.Fields(o), strings.Fields(n)) {
			if e.kind == Same {
				inChange = false
			} else if !inChange {
				c.Changes++
				inChange = true
			}
			p.Runs = appendRun(p.Runs, e.kind, e.text)
		}
		c.Paragraphs = append(c.Paragraphs, p)
	}
}

// appendRun adds a word to runs, joining it to the last run of its kind.
func appendRun(runs []Run, k Kind, word string) []Run {
	if n := len(runs); n > 0 && runs[n-1].Kind == k {
		runs[n-1].Text += " " + word
		return runs
	}
	return append(runs, Run{k, word})
}

// paragraphs splits text at blank lines (or, for text with none, at line
// breaks), each paragraph's spacing made single.
func paragraphs(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	sep := "\n\n"
	if !strings.Contains(text, sep) {
		sep = "\n"
	}
	var out []string
	for _, p := range strings.Split(text, sep) {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

type edit struct {
	kind Kind
	text string
}

// lcs is the edit script from a to b by their longest common
// subsequence: removals before additions at each place. Past maxCells it
// is a plain replacement.
func lcs(a, b []string) []edit {
	// Common ends first: most edits touch a little of a long text.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for _, s := range a[:pre] {
		out = append(out, edit{Same, s})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	out = append(out, middle(ma, mb)...)
	for _, s := range a[len(a)-suf:] {
		out = append(out, edit{Same, s})
	}
	return out
}

// middle is lcs of what lies between the common ends.
func middle(a, b []string) []edit {
	var out []edit
	if len(a)*len(b) > maxCells || len(a) == 0 || len(b) == 0 {
		for _, s := range a {
			out = append(out, edit{Removed, s})
		}
		for _, s := range b {
			out = append(out, edit{Added, s})
		}
		return out
	}
	// t[i][j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, edit{Same, a[i]})
			i, j = i+1, j+1
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			out = append(out, edit{Removed, a[i]})
			i++
		default:
			out = append(out, edit{Added, b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, edit{Removed, a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, edit{Added, b[j]})
	}
	return out
}
