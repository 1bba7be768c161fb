package blocks

import (
	"cmp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// ActionSearchMore is the "More" button of minutes search results; its
// value is SearchMoreValue: the next offset, "|", and the query as typed.
const ActionSearchMore = "search:more"

// SearchPart is a run of a search snippet's plain text; Match marks the
// words the search matched.
type SearchPart struct {
	Text  string
	Match bool
}

// SearchResult is one minutes search result, record text as plain text.
type SearchResult struct {
	MeetingID   string
	Title       string
	Committee   string
	Date        time.Time
	DateHasTime bool
	Draft       bool
	// URL is where the minutes can be read in full; "" for nowhere.
	URL     string
	Snippet []SearchPart
}

// SearchView is a page of minutes search results.
type SearchView struct {
	Lang lang.Lang // the reader's language
	// Query is what the person typed, carried by More.
	Query string
	// Quoted is Query as the heading shows it back, in quotes
	// (minutes.QuoteQuery, the rule the public archive uses too); not
	// escaped. Empty shows as nothing between the words around it.
	Quoted string
	// ByDate says the results are newest first (a committee alone, no
	// words); otherwise best match first, newest first among equals
	// (store.SearchMinutes), and the heading says which.
	ByDate  bool
	Results []SearchResult
	// Offset is the position of the first result (0 on the first page).
	Offset int
	// More is set when results follow; the "More" button then asks for
	// them.
	More bool
}

// searchQueryMax bounds the query carried in the More button's value.
const searchQueryMax = 500

// SearchMoreValue is the More button's value for results from offset on.
func SearchMoreValue(offset int, query string) string {
	return strconv.Itoa(offset) + "|" + truncate(query, searchQueryMax)
}

// ParseSearchMoreValue reads a More button's value; ok is false for a
// value SearchMoreValue did not write.
func ParseSearchMoreValue(v string) (offset int, query string, ok bool) {
	n, q, found := strings.Cut(v, "|")
	offset, err := strconv.Atoi(n)
	if !found || err != nil || offset < 0 {
		return 0, "", false
	}
	return offset, q, true
}

// SearchResults builds the answer to a minutes search: a line saying what
// was searched for, then per result its title in bold, "committee · date"
// (drafts marked), the snippet as a quote with the matched words in bold
// (the text escaped once, then the marks added), and the buttons "Read"
// (a link, when URL is a safe http(s) URL) and "Share in channel"
// (ActionMinutesShare, value the meeting ID); a "More" button
// (ActionSearchMore) when v.More. With no results: "No minutes mention
// “…”." The query is shown as typed (EscapeTyped), in quotes.
func SearchResults(v SearchView) Message {
	if len(v.Results) == 0 {
		return Notice(searchNone(v))
	}
	return Message{Text: v.Lang.F("search.fallback", "query", EscapeTyped(oneLine(truncate(v.Query, 200)))), Blocks: searchBlocks(v, readAndShareButtons)}
}

// searchNone is the answer to a search that found nothing (more).
func searchNone(v SearchView) string {
	q := quoteQuery(v)
	if v.Offset > 0 {
		return v.Lang.F("search.none_more", "query", q)
	}
	return v.Lang.F("search.none", "query", q)
}

// quoteQuery is what was searched for, in quotes (v.Quoted), one line,
// bounded, escaped.
func quoteQuery(v SearchView) string {
	return EscapeTyped(oneLine(truncate(v.Quoted, 200)))
}

// searchBlocks is a page of results with at least one: the line saying
// what was searched for, each result with its buttons, and More.
func searchBlocks(v SearchView, buttonsOf resultButtons) []slack.Block {
	// The query in quotes rather than bold: what was typed may hold
	// asterisks of its own.
	lg := v.Lang
	head := lg.F("search.head.best", "query", quoteQuery(v))
	if v.ByDate {
		head = lg.F("search.head.newest", "query", quoteQuery(v))
	}
	if v.Offset > 0 {
		head += " " + lg.F("search.from", "first", lg.Int(v.Offset+1))
	}
	out := []slack.Block{contextLine(head)}
	for _, r := range v.Results {
		out = append(out, searchResultBlocks(lg, r, buttonsOf)...)
	}
	if v.More {
		out = append(out, slack.NewActionBlock("", button(ActionSearchMore, SearchMoreValue(v.Offset+len(v.Results), v.Query), lg.T("search.more"))))
	}
	return out
}

// resultButtons are the buttons under a search result: a message offers
// readAndShareButtons, the search modal readResultButton alone.
type resultButtons func(lang.Lang, SearchResult) []slack.BlockElement

// readResultButton is Read, a link, when r.URL is a safe URL.
func readResultButton(lg lang.Lang, r SearchResult) []slack.BlockElement {
	if !safeURL(r.URL, MaxURL) {
		return nil
	}
	b := button(ActionOpenLink, "", lg.T("home.read"))
	b.URL = r.URL
	return []slack.BlockElement{b}
}

// readAndShareButtons is readResultButton and then Share in channel
// (ActionMinutesShare, valued with the meeting ID) when r has an ID that
// fits a button value.
func readAndShareButtons(lg lang.Lang, r SearchResult) []slack.BlockElement {
	buttons := readResultButton(lg, r)
	if r.MeetingID != "" && len(r.MeetingID) <= MaxButtonValue {
		buttons = append(buttons, button(ActionMinutesShare, r.MeetingID, lg.T("minutes.share")))
	}
	return buttons
}

// searchResultBlocks is a result's section and its buttons.
func searchResultBlocks(lg lang.Lang, r SearchResult, buttonsOf resultButtons) []slack.Block {
	lines := []string{"*" + cmp.Or(inline(r.Title, 150), lg.T("minutes.untitled")) + "*"}
	var meta []string
	if c := inline(r.Committee, 80); c != "" {
		meta = append(meta, c)
	}
	if d := Date(lg, r.Date, r.DateHasTime); d != "" {
		meta = append(meta, d)
	}
	if r.Draft {
		meta = append(meta, lg.T("home.draft"))
	}
	if len(meta) > 0 {
		lines = append(lines, strings.Join(meta, " · "))
	}
	if s := Snippet(r.Snippet, 600); s != "" {
		lines = append(lines, "> "+s)
	}
	out := []slack.Block{section(strings.Join(lines, "\n"))}
	if buttons := buttonsOf(lg, r); len(buttons) > 0 {
		out = append(out, slack.NewActionBlock("", buttons...))
	}
	return out
}

// Snippet is a search snippet as mrkdwn on one line of at most max
// characters. Each part's record text is converted as all minutes text
// is (literalText: escaped exactly once, Markdown the record spells out
// kept from reading as Markdown), with the characters mrkdwn styles with
// replaced by look-alikes (unstyled), so that the only style in a
// snippet is ours: the matched parts in *bold*, spaces kept outside the
// marks, which Slack needs to see them as bold. A longer snippet is cut
// between words and ends in "…".
func Snippet(parts []SearchPart, max int) string {
	var b strings.Builder
	used := 0
	for _, p := range parts {
		text := strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return ' '
			}
			return r
		}, p.Text)
		if text == "" {
			continue
		}
		if used+runes(text) > max {
			// A matched part is shown whole or not at all; other text up to
			// a word, with room for " …".
			if cut := cutAtWord(text, max-used-2); cut != "" && !p.Match {
				b.WriteString(literalText(unstyled(cut)) + " " + ellipsis)
			} else if b.Len() > 0 && used+2 <= max {
				if !strings.HasSuffix(b.String(), " ") {
					b.WriteString(" ")
				}
				b.WriteString(ellipsis)
			}
			break
		}
		used += runes(text)
		if !p.Match {
			b.WriteString(literalText(unstyled(text)))
			continue
		}
		core := strings.TrimFunc(text, unicode.IsSpace)
		lead := text[:strings.Index(text, core)]
		trail := text[len(lead)+len(core):]
		if core == "" {
			b.WriteString(text)
			continue
		}
		b.WriteString(lead + "*" + literalText(unstyled(core)) + "*" + trail)
	}
	// Only record text can start the snippet with "#": a matched part
	// starts with a space or "*".
	return notHeading(b.String())
}

// cutAtWord is the longest start of s of at most max characters that ends
// at the end of a word, trailing spaces dropped; "" when not even the first
// word fits.
func cutAtWord(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if runes(s) <= max {
		return strings.TrimRightFunc(s, unicode.IsSpace)
	}
	cut := prefixRunes(s, max)
	if next, _ := utf8.DecodeRuneInString(s[len(cut):]); !unicode.IsSpace(next) {
		i := strings.LastIndexFunc(cut, unicode.IsSpace)
		if i < 0 {
			return ""
		}
		cut = cut[:i]
	}
	return strings.TrimRightFunc(cut, unicode.IsSpace)
}

// unstyled replaces in record text the characters mrkdwn reads as style
// marks with characters that look alike and mean nothing to Slack: every
// * (∗, U+2217), ~ (∼, U+223C) and ` (ˋ, U+02CB), and a _ at the edge of a
// word (ˍ, U+02CD), where it could open or close italics; an underscore
// inside a word (file_name) cannot, and stays. Otherwise a record's
// "*Note*" would be bold beside the matched words, or a record's lone *
// would pair with our marks.
func unstyled(s string) string {
	if !strings.ContainsAny(s, "*~`_") {
		return s
	}
	rs := []rune(s)
	word := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsNumber(rs[i]))
	}
	for i, r := range rs {
		switch r {
		case '*':
			rs[i] = '∗'
		case '~':
			rs[i] = '∼'
		case '`':
			rs[i] = 'ˋ'
		case '_':
			if !word(i-1) || !word(i+1) {
				rs[i] = 'ˍ'
			}
		}
	}
	return string(rs)
}
