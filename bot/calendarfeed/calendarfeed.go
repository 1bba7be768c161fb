// Package calendarfeed serves recordsbot's iCalendar feeds over HTTP:
//
//	GET /calendar.ics                  every committee's meetings (PUBLIC_CALENDAR)
//	GET /calendar/{committee}.ics      one committee's, by name or unique prefix
//	GET /calendar/meeting/{id}.ics     one meeting ("Add to calendar")
//	GET /calendar/u/{token}.ics        a person's own deadlines (private)
//
// What the feeds hold is package calendar's; this package turns its
// answers into HTTP: text/calendar, ETag and Last-Modified with 304s,
// caching a calendar application can poll hourly against, HEAD, and 404
// for anything that is not a feed, by the rules every public route
// shares (bot/publicweb). The per-client limit and the records
// budget are the public routes' (bot's publicGuard), applied around these
// handlers; every committee, meeting and token a reader names is admitted
// by the public gate (internal/publicgate) before anything is read.
package calendarfeed

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/bot/publicweb"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/ical"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/publicgate"
)

// maxParamLen bounds a committee name or meeting ID looked up; anything
// longer is no name the records use.
const maxParamLen = 256

// Handlers serves the feeds of svc.
type Handlers struct {
	svc  *calendar.Service
	gate *publicgate.Gate
	log  *slog.Logger
	// public and private are the feeds' Cache-Control values, written
	// once.
	public, private string
}

// New returns the feeds' handlers; gate admits every committee, meeting
// and token a reader names before anything is read for it (the public
// routes' one gate, shared with the minutes pages). A nil log discards.
// It panics without gate: a wiring mistake.
func New(svc *calendar.Service, gate *publicgate.Gate, log *slog.Logger) *Handlers {
	if gate == nil {
		panic("calendarfeed.New: a gate is required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handlers{svc: svc, gate: gate, log: log,
		public: publicweb.Shared(svc.CacheTTL()), private: publicweb.Private(svc.CacheTTL())}
}

// language is the language of a public feed's own words (its name, its
// events' descriptions), chosen as every public route chooses it
// (publicweb.Language). The answer then varies by Accept-Language (serve
// says so).
func (h *Handlers) language(r *http.Request) lang.Lang {
	l, _ := publicweb.Language(r, h.svc.Language())
	return l
}

// Cache-Control of the feeds: a shared cache or the client may keep a
// public feed as long as the bot keeps it built (calendar.CacheTTL); a
// client polling hourly is then answered from the bot's memory or with a
// 304 at no records call. A private feed is the person's own: no shared
// cache may keep it.
func (h *Handlers) cachePublic() string  { return h.public }
func (h *Handlers) cachePrivate() string { return h.private }

// All serves GET /calendar.ics.
func (h *Handlers) All() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := h.svc.All(r.Context(), h.language(r))
		h.serve(w, r, f, err, h.cachePublic(), "calendar.ics")
	}
}

// Committee serves GET /calendar/{file}, file being "{committee}.ics".
func (h *Handlers) Committee() http.HandlerFunc {
	return h.icsFile(h.cachePublic(), "", func(r *http.Request, name string) (calendar.Feed, error) {
		if !h.svc.Public() {
			return calendar.Feed{}, calendar.ErrNotFound
		}
		lookup, err := h.gate.FeedCommittee(r.Context(), name)
		if err != nil {
			return calendar.Feed{}, calendar.ErrNotFound
		}
		f, _, err := h.svc.Committee(lookup.Context(), name, h.language(r))
		if errors.Is(err, calendar.ErrNotFound) {
			lookup.Missed()
		}
		return f, err
	})
}

// Meeting serves GET /calendar/meeting/{file}, file being "{id}.ics".
func (h *Handlers) Meeting() http.HandlerFunc {
	return h.icsFile(h.cachePublic(), "meeting.ics", func(r *http.Request, id string) (calendar.Feed, error) {
		if !h.svc.Public() {
			return calendar.Feed{}, calendar.ErrNotFound
		}
		lookup, err := h.gate.FeedMeeting(r.Context(), id)
		if err != nil {
			return calendar.Feed{}, calendar.ErrNotFound
		}
		f, err := h.svc.Meeting(lookup.Context(), id, h.language(r))
		if errors.Is(err, calendar.ErrNotFound) {
			lookup.Missed()
		}
		return f, err
	})
}

// Private serves GET /calendar/u/{file}, file being "{token}.ics".
func (h *Handlers) Private() http.HandlerFunc {
	return h.icsFile(h.cachePrivate(), "", func(r *http.Request, tok string) (calendar.Feed, error) {
		if h.gate.Token(r.Context(), tok) != nil {
			return calendar.Feed{}, calendar.ErrNotFound
		}
		return h.svc.Deadlines(r.Context(), tok)
	})
}

// icsFile serves the feed read returns for the route's {file}, name being
// file without its ".ics" (icsParam); a file that is no such name is a
// 404.
func (h *Handlers) icsFile(cacheControl, filename string, read func(r *http.Request, name string) (calendar.Feed, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name, ok := icsParam(r, "file")
		if !ok {
			h.serve(w, r, calendar.Feed{}, calendar.ErrNotFound, "", "")
			return
		}
		f, err := read(r, name)
		h.serve(w, r, f, err, cacheControl, filename)
	}
}

// icsParam is the route's {name} without its ".ics", unescaped once (see
// minutespage's meetingIDParam: chi matches the escaped path when it
// differs from the decoded one).
func icsParam(r *http.Request, name string) (string, bool) {
	v := chi.URLParam(r, name)
	if r.URL.RawPath != "" {
		var err error
		if v, err = url.PathUnescape(v); err != nil {
			return "", false
		}
	}
	v, ok := strings.CutSuffix(v, ".ics")
	return v, ok && v != "" && len(v) <= maxParamLen
}

// serve answers with f, or with what err means.
func (h *Handlers) serve(w http.ResponseWriter, r *http.Request, f calendar.Feed, err error, cacheControl, filename string) {
	hd := w.Header()
	// A private feed's address is its key: it must not leave in a Referer.
	publicweb.SetShared(hd)
	// A public feed's words are in the reader's language (h.language);
	// a private feed's in its owner's, but its errors in the reader's.
	publicweb.SetVary(hd)
	ctx := r.Context()
	l := h.language(r)
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		// Revalidated, so a feed switched on is seen at once.
		hd.Set("Cache-Control", publicweb.Revalidate)
		http.Error(w, l.T("ical.not_found"), http.StatusNotFound)
		return
	case errors.Is(err, apiclient.ErrOverBudget):
		// The public routes' share of records calls is used up; debug
		// only, as a flood would flood the log too.
		h.log.DebugContext(ctx, "calendar: public budget used up")
		hd.Set("Cache-Control", publicweb.NoStore)
		hd.Set("Retry-After", "5")
		http.Error(w, l.T("ical.busy"), http.StatusServiceUnavailable)
		return
	case err != nil:
		h.log.WarnContext(ctx, "calendar: feed unavailable", "error", err)
		hd.Set("Cache-Control", publicweb.NoStore)
		hd.Set("Retry-After", "60")
		http.Error(w, l.T("ical.down"), http.StatusServiceUnavailable)
		return
	}
	hd.Set("Content-Type", ical.MediaType)
	hd.Set("Cache-Control", cacheControl)
	if filename != "" {
		hd.Set("Content-Disposition", `inline; filename="`+filename+`"`)
	}
	// 304s, HEAD, and the whole feed whatever Range asks: a feed is small.
	publicweb.Serve(w, r, f.Body, f.ETag, f.Modified)
}
