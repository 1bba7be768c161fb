package minutes

import (
	"strings"
	"unicode"

	"github.com/recordsbot/recordsbot/store"
)

// committeePrefix narrows a search to a committee: committee:finance, or
// committee:"parks board".
const committeePrefix = "committee:"

// ParseQuery reads what a person typed into a search: words, each of which
// must occur (stemmed); "a phrase" in double quotes (straight or curly),
// whose words must occur in that order, a quote left open running to the
// end; -word or -"a phrase", which must not occur; and committee:<name>
// (or committee:"two words"), a prefix of the committee's name in any
// case, the last one typed winning. Nothing else is syntax: NEAR(, *, a
// hyphen inside a word, OR, parentheses and the rest are text, and the
// store matches them only as the words in them. ParseQuery never fails;
// text with no word in it gives an empty query.
func ParseQuery(typed string) store.MinutesQuery {
	var q store.MinutesQuery
	rs := []rune(typed)
	for i := 0; i < len(rs); {
		switch {
		case unicode.IsSpace(rs[i]):
			i++
		case rs[i] == '-' && i+1 < len(rs) && isQuote(rs[i+1]):
			phrase, next := quoted(rs, i+2)
			addNot(&q, phrase)
			i = next
		case rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]):
			j := i + 1
			for j < len(rs) && !unicode.IsSpace(rs[j]) && !isQuote(rs[j]) {
				j++
			}
			addNot(&q, string(rs[i+1:j]))
			i = j
		case isQuote(rs[i]):
			phrase, next := quoted(rs, i+1)
			addTerm(&q, phrase)
			i = next
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && !isQuote(rs[j]) {
				j++
			}
			word := string(rs[i:j])
			if len(word) >= len(committeePrefix) && strings.EqualFold(word[:len(committeePrefix)], committeePrefix) {
				name := word[len(committeePrefix):]
				if name == "" && j < len(rs) && isQuote(rs[j]) {
					name, j = quoted(rs, j+1)
				}
				if name = strings.TrimSpace(name); name != "" {
					q.Committee = name
				}
				i = j
				continue
			}
			addTerm(&q, word)
			i = j
		}
	}
	return q
}

// quoted returns the text from rs[start] to the next quote (or the end)
// and the index after that quote.
func quoted(rs []rune, start int) (string, int) {
	j := start
	for j < len(rs) && !isQuote(rs[j]) {
		j++
	}
	return string(rs[start:j]), min(j+1, len(rs))
}

// addTerm adds text as a word, or as a phrase when it holds several words.
// Text with no letter or digit is left out.
func addTerm(q *store.MinutesQuery, text string) {
	fields := strings.Fields(text)
	if strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
		return
	}
	if len(fields) == 1 {
		q.Words = append(q.Words, fields[0])
		return
	}
	q.Phrases = append(q.Phrases, strings.Join(fields, " "))
}

// addNot adds text as an exclusion, when it holds a letter or digit.
func addNot(q *store.MinutesQuery, text string) {
	if strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
		return
	}
	q.Not = append(q.Not, strings.Join(strings.Fields(text), " "))
}

// isQuote reports whether r opens or closes a phrase: the straight double
// quote and the curly ones Slack's clients and phones type.
func isQuote(r rune) bool { return r == '"' || r == '“' || r == '”' || r == '„' }

// QueryEmpty reports whether q would find nothing because it asks for
// nothing: no word, no phrase, no committee.
func QueryEmpty(q store.MinutesQuery) bool {
	return len(q.Words) == 0 && len(q.Phrases) == 0 && q.Committee == ""
}

// QuoteQuery is a search as typed, in quotes, for a heading ("Minutes
// mentioning …", in Slack and on the public archive): a search that is
// one phrase in double quotes of its own ("a phrase", or one left open)
// is shown in those alone, not as “"a phrase"”. It does not escape.
func QuoteQuery(typed string) string {
	t := strings.TrimSpace(typed)
	if n := strings.Count(t, `"`); strings.HasPrefix(t, `"`) && (n == 1 || n == 2 && strings.HasSuffix(t, `"`)) {
		return t
	}
	return "“" + typed + "”"
}
