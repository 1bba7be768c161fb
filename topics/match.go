package topics

import (
	"strings"
	"unicode/utf8"
)

// Text is a text read once for matching against many watches: its folded
// words, and the set of their first letters that Screen looks for.
type Text struct {
	words    []string
	stems    map[string]bool
	prefixes map[string]bool
}

// NewText reads s for matching.
func NewText(s string) *Text {
	t := &Text{words: tokens(s), stems: map[string]bool{}, prefixes: map[string]bool{}}
	for _, w := range t.words {
		t.stems[stem(w)] = true
		for n := 1; n <= screenRunes && n <= utf8.RuneCountInString(w); n++ {
			t.prefixes[prefix(w, n)] = true
		}
	}
	return t
}

// screenRunes is how many first letters Screen compares.
const screenRunes = 3

// Screen reports whether q may match t: each of its words and each word of
// its phrases starts as some word of t does. Two words the index stems
// alike share their first letters but perhaps the last of the stem
// ("levy" and "levies" stem to "levi"), so a word is compared on at most
// its first screenRunes letters and never on its last: Screen never
// rejects what the index would match, and rejects most of what it would
// not, with no query. The exclusions are the index's to apply.
func Screen(q Query, t *Text) bool {
	for _, p := range q.screen {
		if !t.prefixes[p] {
			return false
		}
	}
	return true
}

// MatchText reports whether q matches t on its own, for text that is not
// indexed (an agenda item's title and description): every word occurs,
// every phrase's words occur in order, no exclusion occurs, comparing
// words folded (case, accents) and stemmed lightly (stem).
func MatchText(q Query, t *Text) bool {
	for _, w := range q.Words {
		if !t.hasPhrase(w) {
			return false
		}
	}
	for _, p := range q.Phrases {
		if !t.hasPhrase(p) {
			return false
		}
	}
	for _, n := range q.Not {
		if t.hasPhrase(n) {
			return false
		}
	}
	return true
}

// hasPhrase reports whether the words of p occur in t one after another
// (a single word: anywhere).
func (t *Text) hasPhrase(p string) bool {
	want := tokens(p)
	if len(want) == 0 {
		return true
	}
	for i := range want {
		want[i] = stem(want[i])
	}
	if len(want) == 1 {
		return t.stems[want[0]]
	}
	for i := 0; i+len(want) <= len(t.words); i++ {
		ok := true
		for j, w := range want {
			if stem(t.words[i+j]) != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// stem sets aside the English endings that most often part two forms of
// one word: plurals ("levies", "buses", "items") and -ing, -ed. It is
// lighter than the index's Porter stemmer on purpose: agenda items are
// short titles, where a false match costs a needless message.
func stem(w string) string {
	n := utf8.RuneCountInString(w)
	cut := func(suffix, with string) (string, bool) {
		if n-utf8.RuneCountInString(suffix) >= 3 && strings.HasSuffix(w, suffix) {
			return strings.TrimSuffix(w, suffix) + with, true
		}
		return w, false
	}
	for _, r := range []struct{ suffix, with string }{{"ies", "y"}, {"sses", "ss"}, {"ses", "s"}, {"ing", ""}, {"ed", ""}} {
		if s, ok := cut(r.suffix, r.with); ok {
			return s
		}
	}
	if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && n > 3 {
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// prefix is the first n runes of w.
func prefix(w string, n int) string {
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(w[i:])
		i += size
	}
	return w[:i]
}
