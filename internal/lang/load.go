package lang

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// locales are the shipped languages, one gettext PO file each
// (locales/<code>.po): the files translators' tools open. English,
// en.po, is the source: its msgids are the text.
//
//go:embed locales/*.po
var locales embed.FS

// lib is every shipped language, read from locales once, when the program
// starts. The files are part of the binary, so a malformed one is a bug
// of the build: it panics at start-up, and every test of every package
// that writes words fails with the file and the line.
var lib = mustLoad(locales)

func mustLoad(fsys fs.FS) *library {
	l, err := load(fsys)
	if err != nil {
		panic("lang: " + err.Error())
	}
	return l
}

// library is a set of languages and what is made once from them.
type library struct {
	// cats are the languages, English first (the source and the default),
	// then by code; a Lang is an index into it.
	cats []*catalogue
	// tags, printers and slackDateTimes are per language, in cats' order.
	tags           []language.Tag
	printers       []*message.Printer
	slackDateTimes []string
	matcher        language.Matcher
	// keywords maps every alias, folded, to its English keyword.
	keywords map[string]string
	// pseudo is the pseudo-language, made the first time a test asks.
	pseudo func() *catalogue
}

// catalogue is one language's messages.
type catalogue struct {
	// code is the language's BCP 47 base code, "fr", from the file's
	// Language header (and its name).
	code string
	// name is the language's own name for itself: "Français" (the
	// language.name message).
	name string
	// aliases maps a command word in this language to the English keyword
	// it stands for ("en-retard" → "overdue"), from the command.<keyword>
	// messages.
	aliases map[string]string
	// names are the names of languages, by code, in this language:
	// "français" in French, "French" in English (the
	// follow.language.<code> messages).
	names map[string]string
	// strings are the plain messages, plurals those chosen by count. A
	// message left untranslated (an empty or fuzzy msgstr) is absent, so
	// it reads in English.
	strings map[Key]string
	plurals map[Key]Plural
	// forms are the CLDR plural forms the language uses, in the order of
	// its msgstr[n]: zero, one, two, few, many, other.
	forms []plural.Form
}

// Plural is one message in each CLDR plural form a language uses. Other is
// always there; which others are depends on the language (English and
// German: One; French: One, which covers 0 and 1). A form the language does
// not use is empty.
type Plural struct {
	Zero, One, Two, Few, Many, Other string
}

// form returns the message for f, falling back to Other.
func (p Plural) form(f plural.Form) string {
	if s := p.get(f); s != "" {
		return s
	}
	return p.Other
}

// get is the message for f as written, "" when there is none.
func (p Plural) get(f plural.Form) string {
	switch f {
	case plural.Zero:
		return p.Zero
	case plural.One:
		return p.One
	case plural.Two:
		return p.Two
	case plural.Few:
		return p.Few
	case plural.Many:
		return p.Many
	}
	return p.Other
}

// set puts s as the message for f.
func (p *Plural) set(f plural.Form, s string) {
	switch f {
	case plural.Zero:
		p.Zero = s
	case plural.One:
		p.One = s
	case plural.Two:
		p.Two = s
	case plural.Few:
		p.Few = s
	case plural.Many:
		p.Many = s
	default:
		p.Other = s
	}
}

// Keys of the messages that are not sentences but describe the language.
const (
	nameKey       = "language.name"
	commandPrefix = "command."
	namesPrefix   = "follow.language."
)

// source is the language whose file holds the text in its msgids.
const source = "en"

// load reads every locales/*.po of fsys into a library: the file's name is
// its language's code. Errors name the file and the line.
func load(fsys fs.FS) (*library, error) {
	names, err := fs.Glob(fsys, "locales/*.po")
	if err != nil {
		return nil, err
	}
	lib := &library{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		c, err := readCatalogue(path.Base(name), data)
		if err != nil {
			return nil, err
		}
		lib.cats = append(lib.cats, c)
	}
	slices.SortFunc(lib.cats, func(a, b *catalogue) int {
		if (a.code == source) != (b.code == source) {
			if a.code == source {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.code, b.code)
	})
	if len(lib.cats) == 0 || lib.cats[0].code != source {
		return nil, fmt.Errorf("locales/%s.po is missing: English is the source of every message", source)
	}
	lib.keywords = map[string]string{}
	for _, c := range lib.cats {
		tag := language.MustParse(c.code)
		lib.tags = append(lib.tags, tag)
		lib.printers = append(lib.printers, message.NewPrinter(tag))
		at := c.strings["date.at"]
		if at == "" {
			at = lib.cats[0].strings["date.at"]
		}
		lib.slackDateTimes = append(lib.slackDateTimes, fill(at, []string{"date", "{date_short_pretty}", "time", "{time}"}))
		for alias, kw := range c.aliases {
			lib.keywords[fold(alias)] = kw
		}
	}
	lib.matcher = language.NewMatcher(lib.tags)
	en := lib.cats[0]
	lib.pseudo = sync.OnceValue(func() *catalogue {
		c := &catalogue{code: "en-XA", name: "Pseudo", names: map[string]string{}, strings: map[Key]string{}, plurals: map[Key]Plural{}, forms: en.forms}
		for k, s := range en.strings {
			c.strings[k] = Pseudolocalize(s)
		}
		for code, s := range en.names {
			c.names[code] = Pseudolocalize(s)
		}
		for k, p := range en.plurals {
			c.plurals[k] = Plural{One: Pseudolocalize(p.One), Other: Pseudolocalize(p.Other)}
		}
		return c
	})
	return lib, nil
}

// readCatalogue builds one language from its PO file, name "<code>.po".
func readCatalogue(name string, data []byte) (*catalogue, error) {
	po, err := parsePO(name, data)
	if err != nil {
		return nil, err
	}
	code := po.header["Language"]
	if code+".po" != name {
		return nil, fmt.Errorf("%s: its header says Language: %q; the file of a language is named <code>.po after it", name, code)
	}
	tag, err := language.Parse(code)
	if err != nil || tag.String() != code {
		return nil, fmt.Errorf("%s: Language %q is not a BCP 47 base code (fr, de, pt-BR)", name, code)
	}
	c := &catalogue{code: code, aliases: map[string]string{}, names: map[string]string{}, strings: map[Key]string{}, plurals: map[Key]Plural{}, forms: cldrForms(tag)}
	isSource := code == source
	for _, e := range po.entries {
		if !e.hasCtx || e.ctx == "" {
			return nil, fmt.Errorf("%s:%d: message %q has no msgctxt: every message is named by its key there", name, e.line, e.id)
		}
		k := Key(e.ctx)
		if e.plural {
			if len(e.str) != len(c.forms) {
				return nil, fmt.Errorf("%s:%d: %s has %d forms; %s has %d (%s), in that order", name, e.line, k, len(e.str), code, len(c.forms), formNames(c.forms))
			}
			var p Plural
			switch {
			case isSource:
				if len(c.forms) != 2 {
					return nil, fmt.Errorf("%s: English has two plural forms", name)
				}
				p.One, p.Other = e.id, e.idPlural
			case e.fuzzy || slices.Contains(e.str, ""):
				continue // untranslated: reads in English
			default:
				for i, f := range c.forms {
					p.set(f, e.str[i])
				}
			}
			c.plurals[k] = p
			continue
		}
		s := e.str[0]
		if isSource {
			s = e.id
		} else if e.fuzzy || s == "" {
			continue
		}
		switch {
		case k == nameKey:
			c.name = s
		case strings.HasPrefix(string(k), namesPrefix):
			c.names[strings.TrimPrefix(string(k), namesPrefix)] = s
		case strings.HasPrefix(string(k), commandPrefix):
			kw := strings.TrimPrefix(string(k), commandPrefix)
			for _, alias := range strings.Fields(s) {
				if alias != kw {
					c.aliases[alias] = kw
				}
			}
		}
		c.strings[k] = s
	}
	if c.name == "" {
		return nil, fmt.Errorf("%s: no %s message (the language's name in itself)", name, nameKey)
	}
	return c, nil
}

// cldrForms are the plural forms CLDR gives the integers in tag
// (recordsbot counts things; it never shows a fraction), found by asking
// golang.org/x/text for enough integers to meet every rule's modulus, in
// the order of a PO file's msgstr[n]: zero, one, two, few, many, other.
func cldrForms(tag language.Tag) []plural.Form {
	seen := map[plural.Form]bool{}
	for n := 0; n <= 2000; n++ {
		seen[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)] = true
	}
	for _, n := range []int{10000, 100000, 1000000, 2000000} {
		seen[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)] = true
	}
	var out []plural.Form
	for _, f := range []plural.Form{plural.Zero, plural.One, plural.Two, plural.Few, plural.Many, plural.Other} {
		if seen[f] {
			out = append(out, f)
		}
	}
	return out
}

// formNames are forms as CLDR names them: "one, other".
func formNames(forms []plural.Form) string {
	names := map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many", plural.Other: "other"}
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = names[f]
	}
	return strings.Join(out, ", ")
}
