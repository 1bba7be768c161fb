// Package publicweb holds the HTTP rules every public route shares (the
// minutes pages, their archive and feed, the calendar feeds, the guard's
// refusals), so that each is decided once:
//
//   - which language a reader reads (Language);
//   - how long a browser or shared cache may keep an answer (Shared,
//     Private, Revalidate, NoStore), tied to how long the bot's own cache
//     keeps what the answer shows: a cache downstream never holds an
//     answer longer than the bot would;
//   - the headers every public answer carries (SetShared): no sniffing of
//     its type, and no Referer sent when a reader follows a link from it;
//   - how the bytes are sent (Serve, WriteWhole): ETag and Last-Modified
//     with 304s, HEAD, and always the whole body. Range is not answered
//     and not advertised: net/http's multi-range answers let a 1.9 kB page
//     grow to 144 kB (GO-2026-6609), and http.ServeContent would say
//     Accept-Ranges: bytes.
package publicweb

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Cache-Control values that depend on no cache of the bot's.
const (
	// Revalidate: a cache may keep the answer but must ask the bot before
	// each reuse (a 304 when the ETag still matches). For what may change
	// at any moment and must then stop being shown (a published draft),
	// and for not-found answers, so that what appears later is seen at
	// once.
	Revalidate = "no-cache"
	// NoStore: an answer that describes a moment (records down, budget
	// spent) is not kept at all.
	NoStore = "no-store"
	// Versioned is for content whose address changes with it (the
	// stylesheet's ?v=): kept a day.
	Versioned = "public, max-age=86400"
)

// Shared is the Cache-Control of a public answer built from what the bot
// itself keeps for ttl: any cache may keep it as long, and no longer.
func Shared(ttl time.Duration) string { return "public, max-age=" + seconds(ttl) }

// Private is Shared for one person's own answer (a private calendar): only
// their own client may keep it.
func Private(ttl time.Duration) string { return "private, max-age=" + seconds(ttl) }

func seconds(d time.Duration) string { return strconv.Itoa(max(0, int(d/time.Second))) }

// Language is the language of r's reader: ?lang= when it names a shipped
// language, else the best of Accept-Language, else org (ORG_LANGUAGE);
// lang.Negotiate decides. chosen is the language's code when ?lang= chose
// it (a page keeps it in its links), "" otherwise. Every answer in the
// reader's language says Vary: Accept-Language (SetVary).
func Language(r *http.Request, org lang.Lang) (l lang.Lang, chosen string) {
	return LanguageOf(r.URL.Query(), r, org)
}

// LanguageOf is Language for a caller that has parsed r's query already
// (q), so it is not parsed twice.
func LanguageOf(q url.Values, r *http.Request, org lang.Lang) (l lang.Lang, chosen string) {
	asked := q.Get("lang")
	l = lang.Negotiate(asked, r.Header.Get("Accept-Language"), org)
	if asked != "" {
		if p, err := lang.Parse(asked); err == nil && p == l {
			chosen = l.Code()
		}
	}
	return l, chosen
}

// SetShared sets the headers every public answer carries, a page or a
// feed: X-Content-Type-Options, so a browser never reads a feed or a page
// as another type than it says, and Referrer-Policy: no-referrer, so a
// page's address (a private feed's is its key) never leaves in a Referer
// when a reader follows a link. What is particular to pages (their CSP,
// framing) is theirs to add.
func SetShared(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// SetVary says that h's answer depends on the reader's Accept-Language
// (Language), so no cache hands one reader's language to another.
func SetVary(h http.Header) { h.Set("Vary", "Accept-Language") }

// Serve writes body with its entity tag and, when known, the time it last
// changed: 304 for a matching If-None-Match (or, without one, an
// If-Modified-Since not before modified), the headers alone for HEAD, the
// whole body otherwise. Content-Type and Cache-Control are the caller's.
func Serve(w http.ResponseWriter, r *http.Request, body []byte, tag string, modified time.Time) {
	h := w.Header()
	h.Set("ETag", tag)
	if !modified.IsZero() {
		h.Set("Last-Modified", modified.UTC().Format(http.TimeFormat))
	}
	if notModified(r, tag, modified) {
		h.Del("Content-Type")
		h.Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	WriteWhole(w, r, http.StatusOK, body)
}

// WriteWhole sends body, whole, with status; a HEAD request gets the
// headers alone.
func WriteWhole(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body) // the reader went away; nothing to do
	}
}

// notModified applies RFC 9110's rules for GET and HEAD: If-None-Match
// (weak comparison) when present, else If-Modified-Since.
func notModified(r *http.Request, tag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for t := range strings.SplitSeq(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == tag {
				return true
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || modified.IsZero() {
		return false
	}
	since, err := http.ParseTime(ims)
	return err == nil && !modified.Truncate(time.Second).After(since)
}
