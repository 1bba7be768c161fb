package bot_test

import (
	"github.com/recordsbot/recordsbot/internal/atomtest"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
)

// acceptLanguage is a request header asking for langs.
func acceptLanguage(langs string) http.Header {
	return http.Header{"Accept-Language": {langs}}
}

// The public pages answer in the reader's language: ?lang=
// first, then Accept-Language, then ORG_LANGUAGE (German here); <html
// lang> says which, and the answer varies by Accept-Language, with an
// ETag of its own, so no cache serves one reader's language to another.
func TestPublicPagesSpeakTheReadersLanguage(t *testing.T) {
	t.Parallel()
	// The records of a fixed day, so that the dates' month and weekdays
	// asserted below do not depend on when the test runs.
	h := newHarness(t, withDatasetOf(goldenDay), withConfig(func(c *bot.Config) { c.Language = mustLang(t, "de") }))

	es := h.fetchPage("", "/minutes", acceptLanguage("es-MX,es;q=0.9,en;q=0.5"))
	require.Equal(t, http.StatusOK, es.status, es.body)
	assert.Contains(t, es.body, `<html lang="es">`)
	assert.Contains(t, es.body, `<h1 id="archive-title">Actas</h1>`)
	assert.Contains(t, es.body, "Actas publicadas, de la más reciente a la más antigua")
	assert.Contains(t, es.body, ">Buscar</button>")
	assert.Contains(t, es.body, " de noviembre de 2026", "dates with Spanish month names")
	assert.Contains(t, es.body, "lunes, ", "and weekdays")
	assert.NotContains(t, es.body, "newest first")
	assert.Contains(t, es.header.Values("Vary"), "Accept-Language")

	en := h.fetchPage("", "/minutes", acceptLanguage("en-GB"))
	assert.Contains(t, en.body, `<html lang="en">`)
	assert.Contains(t, en.body, "Published minutes, newest first")
	assert.NotEqual(t, es.header.Get("ETag"), en.header.Get("ETag"), "each language has its own ETag")
	again := h.fetchPage("", "/minutes", http.Header{"Accept-Language": {"es"}, "If-None-Match": {en.header.Get("ETag")}})
	assert.Equal(t, http.StatusOK, again.status, "the English ETag does not validate the Spanish page")
	assert.Contains(t, again.body, `<html lang="es">`)

	// ?lang= wins over the header, and the page's links keep it.
	fr := h.fetchPage("", "/minutes?lang=fr", acceptLanguage("es"))
	assert.Contains(t, fr.body, `<html lang="fr">`)
	assert.Contains(t, fr.body, "Procès-verbaux publiés, du plus récent au plus ancien")
	assert.Contains(t, fr.body, ` novembre 2026`)
	assert.Regexp(t, `<a href="minutes/mtg_[0-9]+\?lang=fr">`, fr.body, "an entry's link keeps the language")
	assert.Contains(t, fr.body, `<input type="hidden" name="lang" value="fr">`, "so does the search box")

	// Nothing shipped accepted, or no header: ORG_LANGUAGE.
	for _, hd := range []http.Header{acceptLanguage("ja-JP,ja;q=0.9"), nil, acceptLanguage("*;q=0.1,,;;")} {
		de := h.fetchPage("", "/minutes?lang=xx", hd)
		assert.Contains(t, de.body, `<html lang="de">`, "Accept-Language %q", hd.Get("Accept-Language"))
		assert.Contains(t, de.body, "Veröffentlichte Protokolle, neueste zuerst")
	}

	// A minutes page, its facts and dates.
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	page := h.fetchPage("", pagetest.MinutesPath(m.ID), acceptLanguage("fr-CA"))
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, `<html lang="fr">`)
	assert.Contains(t, page.body, "<dt>Comité</dt>")
	assert.Contains(t, page.body, "<dd>Approuvé</dd>")
	assert.Contains(t, page.body, `<h2 id="minutes-title">Procès-verbal</h2>`)
	assert.Contains(t, page.header.Values("Vary"), "Accept-Language")
	dePage := h.fetchPage("", pagetest.MinutesPath(m.ID), acceptLanguage("de"))
	assert.Contains(t, dePage.body, "<dt>Ausschuss</dt>")
	assert.NotEqual(t, page.header.Get("ETag"), dePage.header.Get("ETag"))

	// A page that cannot be shown says so in the reader's language.
	missing := h.fetchPage("", pagetest.MinutesPath("mtg_nope"), acceptLanguage("es"))
	assert.Equal(t, http.StatusNotFound, missing.status)
	assert.Contains(t, missing.body, "Aquí no hay actas publicadas")
	assert.Contains(t, missing.header.Values("Vary"), "Accept-Language")

	// The feed's own words, and xml:lang.
	feed := h.fetchPage("", "/minutes/feed.atom", acceptLanguage("fr"))
	assert.Contains(t, feed.body, `xml:lang="fr"`)
	assert.Contains(t, html.UnescapeString(feed.body), "<title>Procès-verbaux des comités</title>")
	assert.Contains(t, feed.header.Values("Vary"), "Accept-Language")
	f := atomtest.Parse(t, feed.body)
	for _, e := range f.Entries {
		if e.Categories[0].Term == "draft" {
			assert.True(t, strings.HasPrefix(e.Title, "Projet : "), e.Title)
		}
	}
}

// Every public page links the accessibility statement from its footer;
// the statement is in the reader's language, names WCAG 2.2 AA, how it is
// checked and how to report a problem (ACCESSIBILITY_CONTACT).
func TestAccessibilityStatement(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *bot.Config) { c.A11yContact = "access@example.org" }))
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	for path, want := range map[string]string{
		"/minutes": `<a href="accessibility">`, "/minutes?q=budget": `<a href="accessibility">`,
		pagetest.MinutesPath(m.ID): `<a href="../accessibility">`, pagetest.MinutesPath("mtg_nope"): `<a href="../accessibility">`,
	} {
		r := h.fetchPage("", path, nil)
		footer := pagetest.Between(t, r.body, `<footer class="site-footer">`, "</footer>")
		assert.Contains(t, footer, want+"Accessibility</a>", "%s links the statement", path)
	}
	for _, l := range lang.Shipped() {
		r := h.fetchPage("", "/accessibility", acceptLanguage(l.Code()))
		require.Equal(t, http.StatusOK, r.status, r.body)
		pagetest.AssertHeaders(t, r.header)
		pagetest.AssertNoActiveContent(t, r.body)
		assert.Contains(t, r.body, `<html lang="`+l.Code()+`">`)
		assert.Contains(t, r.body, "<h1 id=\"statement-title\">"+html.EscapeString(l.T("page.a11y.title"))+"</h1>")
		assert.Contains(t, r.body, "WCAG) 2.2", l.Code())
		assert.Contains(t, r.body, "axe-core", l.Code())
		assert.Contains(t, r.body, `<a href="mailto:access@example.org">access@example.org</a>`, l.Code())
		assert.Equal(t, http.StatusOK, h.fetchPage(http.MethodHead, "/accessibility", nil).status)
	}
	plain := newHarness(t)
	r := plain.fetchPage("", "/accessibility", nil)
	assert.Contains(t, r.body, "please tell the organisation that publishes these minutes", "without a contact")
	off := newHarness(t, withMinutes(func(c *minutes.Config) { c.Public = false }))
	assertNotFoundPage(t, off.fetchPage("", "/accessibility", nil))
}

func mustLang(t *testing.T, code string) lang.Lang {
	t.Helper()
	l, err := lang.Parse(code)
	require.NoError(t, err)
	return l
}

// The calendar feeds' own words are in the reader's language too: a
// public feed negotiates as the pages do (and varies by Accept-Language),
// a private feed is in its owner's Slack locale, as a calendar application
// sends no Accept-Language of theirs. Record text (titles, committees)
// and every event's UID and SEQUENCE stay as they are.
func TestCalendarFeedsSpeakTheReadersLanguage(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	h := newHarness(t, withCalendar(st, nil))
	en := h.fetchPage("", "/calendar.ics", nil)
	require.Equal(t, http.StatusOK, en.status, en.body)
	assert.Contains(t, en.body, "X-WR-CALNAME:Riverside Trust: Meetings")
	fr := h.fetchPage("", "/calendar.ics", acceptLanguage("fr-FR,fr;q=0.9"))
	assert.Contains(t, fr.body, "X-WR-CALNAME:Riverside Trust : Réunions")
	assert.Contains(t, fr.header.Values("Vary"), "Accept-Language")
	assert.NotEqual(t, en.header.Get("ETag"), fr.header.Get("ETag"))
	frEvents, enEvents := eventsByUID(t, fr.body), eventsByUID(t, en.body)
	require.NotEmpty(t, frEvents)
	for uid, e := range enEvents {
		require.Contains(t, frEvents, uid, "the same events in every language")
		assert.Equal(t, e["summary"], frEvents[uid]["summary"], "a meeting's title is the record's")
		assert.Equal(t, e["sequence"], frEvents[uid]["sequence"], "a language is no change of the event")
	}
	de := h.fetchPage("", "/calendar/Finance.ics?lang=de", acceptLanguage("fr"))
	assert.Contains(t, de.body, "Sitzungen: Finance")
	assert.Contains(t, h.fetchPage("", "/calendar/nope.ics", acceptLanguage("es")).body, "Este calendario no existe.")

	alice := h.person("alice")
	alice.Locale = "de-DE"
	h.addUser(alice)
	link, err := h.calendar.EnsurePrivateURL(t.Context(), alice.ID)
	require.NoError(t, err)
	private := h.fetchPage("", strings.TrimPrefix(link, testMinutesConfig().PublicURL), acceptLanguage("es"))
	require.Equal(t, http.StatusOK, private.status, private.body)
	assert.Contains(t, private.body, "X-WR-CALNAME:Riverside Trust: Meine Fristen", "the owner's language, not the client's")
	assert.Contains(t, private.body, "SUMMARY:Fällig: ")
	assert.NotContains(t, private.body, "SUMMARY:Due: ")
}
