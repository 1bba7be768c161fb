// Package lang is recordsbot's one catalogue of the words people read, in
// every language it ships, and the rules that choose a language and format
// numbers, plurals and dates in it.
//
// Every user-facing sentence the bot writes to Slack or a public page is a
// [Key] looked up here: [Lang.T] for plain text, [Lang.F] for text with
// named placeholders, [Lang.N] for text whose words depend on a count (the
// plural form chosen by CLDR's rules for that language, from
// golang.org/x/text). A language is one gettext PO file,
// locales/<code>.po, embedded in the binary and read once at start-up:
// each message's msgctxt is its key, msgid the English text and msgstr
// the translation, so translators' tools open them as they are.
// catalogue_test.go checks that every key is in every language with the
// same placeholders and every plural form CLDR asks for.
// docs/languages.md says how to add a string or a language.
//
// Nothing here does I/O, so package blocks can use it freely; templates use
// [FuncMap] or the methods of the [Lang] in their data. Logs and doctor stay
// English and do not use this package.
package lang

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/number"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Key names one message of the catalogue, "surface.what" ("row.due",
// "actions.empty"): its msgctxt in locales/<code>.po. Keys are written
// whole, as string literals, at the call site or in a table from a value
// to its key, never built at run time; TestKeysUsedExist finds every
// literal key in the code and checks that English has it.
type Key string

// Lang is a language recordsbot ships. The zero value is English.
type Lang uint8

// English is the zero Lang, the language of the code and of the tests.
const English Lang = 0

// Pseudo is a pseudo-language for tests only: every English message
// accented and bracketed ("⟦Ðüé {date}⟧"), so a test that renders a
// surface in it can find English that escaped the catalogue. It is never
// chosen by Parse, ForLocale or Negotiate.
const Pseudo Lang = 255

// Shipped returns the languages recordsbot ships, English first, then by
// code.
func Shipped() []Lang {
	out := make([]Lang, len(lib.cats))
	for i := range lib.cats {
		out[i] = Lang(i)
	}
	return out
}

// catalogue is l's messages; an unknown l reads English.
func (l Lang) catalogue() *catalogue { return lib.cat(l) }

// cat is l's messages in b; an unknown l reads English.
func (b *library) cat(l Lang) *catalogue {
	if l == Pseudo {
		return b.pseudo()
	}
	if int(l) < len(b.cats) {
		return b.cats[l]
	}
	return b.cats[0]
}

// Code is l's BCP 47 code: "en", "fr". Pseudo's is "en-XA".
func (l Lang) Code() string { return l.catalogue().code }

// Name is l's name in itself: "English", "Français".
func (l Lang) Name() string { return l.catalogue().name }

// NameIn is l's name in the language r, as it reads inside r's sentences:
// "French" in English, "français" in French. A language r has no word for
// (one added since r was translated) reads as its own name.
func (l Lang) NameIn(r Lang) string {
	if s, ok := r.catalogue().names[l.Code()]; ok {
		return s
	}
	if s, ok := lib.cats[0].names[l.Code()]; ok && r != Pseudo {
		return s
	}
	return l.Name()
}

// String is l's code.
func (l Lang) String() string { return l.Code() }

// Tag is l as a golang.org/x/text language tag.
func (l Lang) Tag() language.Tag {
	if l == Pseudo {
		return language.English
	}
	return lib.tags[l.valid()]
}

// valid is l, or English when l is not shipped.
func (l Lang) valid() Lang {
	if int(l) < len(lib.cats) {
		return l
	}
	return English
}

// T is the plain message k in l. A key l lacks reads in English, and a key
// English lacks reads as the key itself, so a mistake shows rather than
// blanking a sentence (the catalogue tests keep both from shipping).
func (l Lang) T(k Key) string { return lib.text(l, k) }

// text is T in b.
func (b *library) text(l Lang, k Key) string {
	if s, ok := b.cat(l).strings[k]; ok {
		return s
	}
	if s, ok := b.cats[0].strings[k]; ok {
		return s
	}
	return string(k)
}

// F is the message k in l with its placeholders filled: args are pairs of
// a placeholder's name and its value, F("row.due", "date", d). Values are
// put in as they are (escaping is the caller's, once); a placeholder
// without a value is left as written.
func (l Lang) F(k Key, args ...string) string {
	return fill(l.T(k), args)
}

// N is the plural message k in l for the count n, with "{n}" the count
// formatted for l (Int) and the other placeholders filled from args as in F.
func (l Lang) N(k Key, n int, args ...string) string {
	s := lib.plural(l, k, n)
	if !strings.Contains(s, "{") {
		return s
	}
	return fillN(s, l.Int(n), args)
}

// plural is the form of the plural message k in l for the count n, as
// written, in b; a key l lacks reads in English, and one English lacks as
// the key itself.
func (b *library) plural(l Lang, k Key, n int) string {
	msg, ok := b.cat(l).plurals[k]
	if !ok {
		if msg, ok = b.cats[0].plurals[k]; !ok {
			return string(k)
		}
	}
	return msg.form(b.form(l, n))
}

// form is the CLDR plural form of the integer n in l.
func (l Lang) form(n int) plural.Form { return lib.form(l, n) }

// form is Lang.form in b.
func (b *library) form(l Lang, n int) plural.Form {
	if n < 0 {
		n = -n
	}
	tag := language.English
	if l != Pseudo && int(l) < len(b.tags) {
		tag = b.tags[l]
	}
	// MatchPlural takes operands modulo 10,000,000 (its documentation).
	return plural.Cardinal.MatchPlural(tag, n%10000000, 0, 0, 0, 0)
}

// Int is n written the way l writes numbers: 1,234 in English, 1 234 in
// French, 1.234 in German.
func (l Lang) Int(n int) string {
	if n > -1000 && n < 1000 {
		return strconv.Itoa(n) // no grouping below a thousand, in any language
	}
	return lib.printers[l.valid()].Sprint(number.Decimal(n))
}

// fill replaces each {name} in s by the value paired with name in args.
func fill(s string, args []string) string {
	if len(args) == 0 || !strings.Contains(s, "{") {
		return s
	}
	return fillN(s, "", args)
}

// WriteF writes F(k, args...) to b, without building the string first:
// for the builders that draw every row of a list in one buffer.
func (l Lang) WriteF(b *strings.Builder, k Key, args ...string) {
	writeFill(b, l.T(k), "", args)
}

// fillN is fill with "{n}" standing for count when count is not "".
func fillN(s, count string, args []string) string {
	var b strings.Builder
	b.Grow(len(s) + 32)
	writeFill(&b, s, count, args)
	return b.String()
}

// writeFill writes s to b with its placeholders filled.
func writeFill(b *strings.Builder, s, count string, args []string) {
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			break
		}
		name := s[open+1 : open+end]
		val, ok := arg(name, count, args)
		if !ok {
			b.WriteString(s[:open+end+1])
			s = s[open+end+1:]
			continue
		}
		b.WriteString(s[:open])
		b.WriteString(val)
		s = s[open+end+1:]
	}
	b.WriteString(s)
}

// arg is the value of the placeholder name.
func arg(name, count string, args []string) (string, bool) {
	if name == "n" && count != "" {
		return count, true
	}
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == name {
			return args[i+1], true
		}
	}
	return "", false
}

// Keyword is the English command keyword word stands for: word itself when
// it is one, or the keyword a shipped language's alias names ("en-retard"
// → "overdue"), matched without regard to case or accents ("reunion" is
// "réunion", "UEBERFAELLIG" is not but "uberfallig" is "überfällig"):
// people type commands fast, often on keyboards without the accents.
// Aliases of every language are understood whatever the reader's
// language, so a command typed from a colleague's note works for
// everyone.
func Keyword(word string) string {
	if kw, ok := lib.keywords[fold(word)]; ok {
		return kw
	}
	return word
}

// fold is s lower-cased without its accents, for matching command words.
// An ASCII word costs nothing (most words are keywords typed in English).
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	// A chain of transformers keeps state, so each call makes its own;
	// only a word with a non-ASCII letter gets here.
	unaccent := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(unaccent, s)
	if err != nil {
		return strings.ToLower(s)
	}
	return strings.ToLower(out)
}

// Aliases returns l's command aliases for the English keyword kw, sorted
// (for help).
func (l Lang) Aliases(kw string) []string {
	var out []string
	for alias, k := range l.catalogue().aliases {
		if k == kw {
			out = append(out, alias)
		}
	}
	slices.Sort(out)
	return out
}

// HasAliases reports whether l has command words of its own (help then
// says the English ones work too).
func (l Lang) HasAliases() bool { return len(l.catalogue().aliases) > 0 }
