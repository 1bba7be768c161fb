package bot_test

import (
	"encoding/xml"
	"errors"
	"flag"
	"html"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/golden"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/lang/langtest"
	"github.com/recordsbot/recordsbot/internal/pagetest"
)

// The pseudo-language check of the public pages
// (docs/languages.md): with ORG_LANGUAGE the test-only lang.Pseudo and no
// Accept-Language, every page, the Atom feed and the calendars' human text
// must hold no English outside the catalogue, the dataset's record text
// and Slack or HTML syntax. A word a template or handler wrote itself
// shows up here.
func TestPublicPagesInThePseudoLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withCalendar(nil, nil), withConfig(func(c *bot.Config) { c.Language = lang.Pseudo }),
		func(s harnessSetup) { s.calendar.cfg.Language = lang.Pseudo }) // ORG_LANGUAGE, as serve wires it
	known := recordWords(h.data)
	known.Add("xylophonezzz nobodyzzz") // what the reader typed, quoted back
	known.Add("Riverside Trust")        // ORG_NAME (withCalendar)
	approved, _ := h.demoMinutes(pagetest.PlainApproved)
	draft, _ := h.demoMinutes(func(m recordstest.Minutes) bool { return m.Status == "published_draft" })
	word := strings.Fields(approved.Title)[0]

	pages := []string{
		"/minutes",
		"/minutes?q=" + url.QueryEscape(word),
		"/minutes?q=xylophonezzz",
		"/minutes?committee=" + url.QueryEscape(approved.Committee),
		"/minutes?committee=nobodyzzz",
		pagetest.MinutesPath(approved.ID),
		pagetest.MinutesPath(draft.ID),
		pagetest.MinutesPath("mtg_nope"),
		"/accessibility",
	}
	for _, path := range pages {
		t.Run("page "+path, func(t *testing.T) {
			t.Parallel()
			p := h.fetchPage("", path, nil)
			require.Contains(t, p.body, `lang="en-XA"`, "the page is in the pseudo-language")
			escapes, err := langtest.HTML(p.body, known)
			require.NoError(t, err)
			for _, e := range langtest.ByText(escapes) {
				t.Errorf("%s in the pseudo-language: English escaped the catalogue at %s", path, e)
			}
		})
	}

	t.Run("feed", func(t *testing.T) {
		t.Parallel()
		p := h.fetchPage("", "/minutes/feed.atom", nil)
		require.Equal(t, http.StatusOK, p.status)
		for _, e := range atomEscapes(t, p.body, known) {
			t.Errorf("the Atom feed in the pseudo-language: English escaped the catalogue at %s", e)
		}
	})

	for _, path := range []string{"/calendar.ics", "/calendar/" + url.PathEscape(strings.ToLower(approved.Committee)) + ".ics"} {
		t.Run("calendar "+path, func(t *testing.T) {
			t.Parallel()
			p := h.fetchPage("", path, nil)
			require.Equal(t, http.StatusOK, p.status, p.body)
			for _, e := range icsEscapes(p.body, known) {
				t.Errorf("%s in the pseudo-language: English escaped the catalogue at %s", path, e)
			}
		})
	}
}

// recordWords are the words of every string in the dataset: its record
// text, shown as the records hold it in every language.
func recordWords(data recordstest.Dataset) langtest.Known {
	known := langtest.Known{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			known.Add(v.String())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(k)
				walk(v.MapIndex(k))
			}
		}
	}
	walk(reflect.ValueOf(data))
	return known
}

// atomEscapes reads the human text of an Atom feed: titles, subtitles,
// summaries, content (HTML when its type says so) and names.
func atomEscapes(t *testing.T, body string, known langtest.Known) []langtest.Escape {
	t.Helper()
	read := map[string]bool{"title": true, "subtitle": true, "summary": true, "content": true, "name": true, "rights": true}
	dec := xml.NewDecoder(strings.NewReader(body))
	var out []langtest.Escape
	var stack []xml.StartElement
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 || !read[stack[len(stack)-1].Name.Local] {
				continue
			}
			el := stack[len(stack)-1]
			text := string(tok)
			if attr(el, "type") == "html" {
				es, err := langtest.HTML(text, known)
				require.NoError(t, err)
				out = append(out, es...)
				continue
			}
			out = append(out, langtest.Text("<"+el.Name.Local+">", text, known)...)
		}
	}
	return langtest.ByText(out)
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// icsEscapes reads the human text of an iCalendar file (RFC 5545): its
// lines unfolded, the text of SUMMARY, DESCRIPTION, LOCATION and the
// calendar's name and description, unescaped.
func icsEscapes(body string, known langtest.Known) []langtest.Escape {
	unfolded := strings.ReplaceAll(strings.ReplaceAll(body, "\r\n ", ""), "\r\n\t", "")
	var out []langtest.Escape
	for _, line := range strings.Split(unfolded, "\r\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, ";")
		switch name {
		case "SUMMARY", "DESCRIPTION", "LOCATION", "X-WR-CALNAME", "X-WR-CALDESC", "NAME", "COMMENT":
		default:
			continue
		}
		value = strings.NewReplacer(`\n`, "\n", `\N`, "\n", `\,`, ",", `\;`, ";", `\\`, `\`).Replace(value)
		out = append(out, langtest.Text(name, value, known)...)
	}
	return langtest.ByText(out)
}

// The pseudo-language check finds a literal in a page: "Published" written
// in a template instead of {{t .Lang "…"}} would fail it.
func TestPseudoPageCheckCatchesALiteral(t *testing.T) {
	t.Parallel()
	page := `<html lang="en-XA"><body><h1>` + lang.Pseudo.T("minutes.untitled") + `</h1><p>Published on ` + lang.Pseudo.LongDate(time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)) + `</p></body></html>`
	escapes, err := langtest.HTML(page, nil)
	require.NoError(t, err)
	require.Len(t, escapes, 2)
	assert.Equal(t, "Published", escapes[0].Word)
	assert.Equal(t, "on", escapes[1].Word)
}

// The archive page, the main public surface: in English as a golden file
// (testdata/archive_en.golden.html), checked in the pseudo-language above,
// and in each other shipped language as a smoke test: the page says its
// language and reads in it (its words are the catalogue's, checked by
// internal/lang, so a wording change touches one golden).
func TestArchivePageGolden(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDatasetOf(goldenDay))
	for _, l := range lang.Shipped() {
		t.Run(l.Code(), func(t *testing.T) {
			t.Parallel()
			p := h.fetchPage("", "/minutes?lang="+l.Code(), nil)
			require.Equal(t, http.StatusOK, p.status)
			require.Contains(t, p.body, `<html lang="`+l.Code()+`">`)
			if l != lang.English {
				assert.Contains(t, p.body, html.EscapeString(l.T("page.archive.search_label")))
				assert.NotContains(t, p.body, html.EscapeString(lang.English.T("page.archive.search_label")))
				return
			}
			// The next page's cursor is sealed with the server's own key
			// and clock: the same page, another string each run.
			body := regexp.MustCompile(`after=[^&"]+`).ReplaceAllString(p.body, "after=CURSOR")
			golden.AssertText(t, "archive_"+l.Code()+".golden.html", body, updating())
		})
	}
}

// updating is the -update flag, which package bot's own tests define
// (response_golden_test.go) in the test binary this package shares.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}
