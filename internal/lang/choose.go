package lang

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// Parse reads a language code as ORG_LANGUAGE and "/minutes follow … language
// fr" give it: a shipped language's code or a tag whose base is one ("fr",
// "fr-CA", "FR"). Anything else is an error naming the shipped codes.
func Parse(code string) (Lang, error) {
	if l, ok := lib.base(code); ok {
		return l, nil
	}
	return English, fmt.Errorf("unknown language %q (shipped: %s)", code, Codes())
}

// Codes lists the shipped languages' codes, "en, de, es, fr".
func Codes() string {
	codes := make([]string, len(lib.cats))
	for i, c := range lib.cats {
		codes[i] = c.code
	}
	return strings.Join(codes, ", ")
}

// ForLocale is the language of a Slack locale ("fr-FR", "de-DE", "es-LA",
// "en-GB", from users.info with include_locale) when recordsbot ships it,
// else fallback (ORG_LANGUAGE). An empty locale (Slack did not say) is
// fallback too.
func ForLocale(locale string, fallback Lang) Lang {
	if l, ok := lib.base(locale); ok {
		return l
	}
	return fallback
}

// base is the language of b whose code is the base of tag.
func (b *library) base(tag string) (Lang, bool) {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return English, false
	}
	// Slack writes locales with '-' ("fr-FR"); POSIX ones use '_'.
	code, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	for i, c := range b.cats {
		if strings.EqualFold(c.code, code) {
			return Lang(i), true
		}
	}
	return English, false
}

// Negotiate is the language of a public page or feed: query (a ?lang=
// parameter) when it names a shipped language, else the best shipped match
// of the Accept-Language header by golang.org/x/text's matcher, else
// fallback (ORG_LANGUAGE) when nothing the reader accepts is shipped.
func Negotiate(query, acceptLanguage string, fallback Lang) Lang {
	return lib.negotiate(query, acceptLanguage, fallback)
}

// negotiate is Negotiate among b's languages.
func (b *library) negotiate(query, acceptLanguage string, fallback Lang) Lang {
	if l, ok := b.base(query); ok {
		return l
	}
	if strings.TrimSpace(acceptLanguage) == "" {
		return fallback
	}
	accepted, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(accepted) == 0 {
		return fallback
	}
	_, i, conf := b.matcher.Match(accepted...)
	if conf == language.No {
		return fallback
	}
	return Lang(i)
}
