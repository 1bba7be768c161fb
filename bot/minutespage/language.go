package minutespage

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// A page's language: ?lang= when it names a shipped language, else the
// best of the reader's Accept-Language, else ORG_LANGUAGE
// (Options.Language); publicweb.Language decides, as for every public
// route. Every answer therefore says
// Vary: Accept-Language, and its ETag is the hash of the bytes, which
// differ between languages, so no cache hands one reader's language to
// another. A language chosen by ?lang= is kept in the page's own links
// (and its forms), so a reader who picked one stays in it.

// view is what one request's page is rendered for.
type view struct {
	Lang lang.Lang
	// Keep is ?lang= as the reader chose it ("fr"), kept in links; ""
	// when the language came from Accept-Language or ORG_LANGUAGE.
	Keep string
	// query is the request's own query, for the language links.
	query url.Values
}

// view negotiates r's language (publicweb.Language).
func (s *Site) view(r *http.Request) view {
	q := r.URL.Query()
	l, chosen := publicweb.LanguageOf(q, r, s.opts.Language)
	return view{Lang: l, Keep: chosen, query: q}
}

// href is h with the chosen language kept.
func (v view) href(h string) string { return keepLang(v.Keep, h) }

// keepLang is h with lang=code added to its query; h itself when code is
// "".
func keepLang(code, h string) string {
	if code == "" {
		return h
	}
	sep := "?"
	if strings.Contains(h, "?") {
		sep = "&"
	}
	return h + sep + "lang=" + url.QueryEscape(code)
}

// langLink is one entry of a page's language menu.
type langLink struct {
	Code, Name, Href string
	Current          bool
}

// languages are the page's language menu: each shipped language, its own
// name, and this page's address with ?lang= set to it (the rest of the
// query kept, relative to the page).
func (v view) languages() []langLink {
	var out []langLink
	for _, l := range lang.Shipped() {
		q := url.Values{}
		for k, vs := range v.query {
			q[k] = vs
		}
		q.Set("lang", l.Code())
		out = append(out, langLink{Code: l.Code(), Name: l.Name(), Href: "?" + q.Encode(), Current: l == v.Lang})
	}
	return out
}

// funcs are the templates' functions: the catalogue (lang.FuncMap), and
// what a sentence around a piece of markup needs.
var funcs = func() template.FuncMap {
	fm := lang.FuncMap()
	// around splits a message at its {name} placeholder, for a sentence
	// whose placeholder is markup (a <time>, a link): the template writes
	// the text before, the markup, then the text after, each escaped.
	fm["around"] = func(msg, name string) [2]string {
		before, after, _ := strings.Cut(msg, "{"+name+"}")
		return [2]string{before, after}
	}
	fm["keep"] = keepLang
	// committeeHref is the archive of one committee, relative to the
	// archive's base.
	fm["committeeHref"] = func(keep, committee string) string {
		// %20 for a space, as a browser writes it, rather than Encode's +.
		return keepLang(keep, "minutes?committee="+strings.ReplaceAll(url.QueryEscape(committee), "+", "%20"))
	}
	return fm
}()
