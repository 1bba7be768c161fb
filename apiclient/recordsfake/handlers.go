package recordsfake

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// handleListActions serves GET /actions[?status=][&cursor=]: a page of
// actions in {"data": [...], "next_cursor": "..."}, next_cursor being
// absent on the last page.
func handleListActions(st *store, pageSize int) http.Handler {
	type page struct {
		Data       []actionJSON `json:"data"`
		NextCursor string       `json:"next_cursor,omitempty"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		status := q.Get("status")
		if !CheckStatus(w, status) {
			return
		}
		after, err := decodeCursor(q.Get("cursor"))
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid cursor")
			return
		}
		rows, more, known := st.listActions(status, after, pageSize)
		if !known {
			writeError(w, http.StatusBadRequest, "invalid cursor: the action it points at is gone")
			return
		}
		out := page{Data: make([]actionJSON, len(rows))}
		for i, row := range rows {
			out.Data[i] = renderAction(row)
		}
		if more {
			out.NextCursor = encodeCursor(rows[len(rows)-1].ID)
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// cursorPrefix marks the cursors this server issues, so that a value a
// client made up is refused rather than taken for an action ID.
const cursorPrefix = "after:"

// encodeCursor makes the opaque cursor for the page after action id.
func encodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + id))
}

// decodeCursor returns the action ID a cursor continues after; "" for
// none.
func decodeCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", fmt.Errorf("decode cursor: %w", err)
	}
	id, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if !ok || id == "" {
		return "", errors.New("decode cursor: not a cursor of this server")
	}
	return id, nil
}

// maxUpdateBody caps the body of PUT /actions/{id}; the real body is a few
// bytes.
const maxUpdateBody = 64 << 10

// handleUpdateAction serves PUT /actions/{id} with {"status": "..."} and
// answers the updated row as {"data": {...}}.
func handleUpdateAction(st *store) http.Handler {
	type response struct {
		Data actionJSON `json:"data"`
	}
	return handleUpdateActionWith(st, func(w http.ResponseWriter, _ *http.Request, row actionRow) {
		writeJSON(w, http.StatusOK, response{Data: renderAction(row)})
	})
}

// handleUpdateActionWith serves PUT /actions/{id} with {"status": "..."},
// answering the updated row with answer.
func handleUpdateActionWith(st *store, answer func(w http.ResponseWriter, r *http.Request, row actionRow)) http.Handler {
	type request struct {
		Status *string `json:"status"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			writeError(w, http.StatusBadRequest, "Content-Type must be application/json")
			return
		}
		// The body is strictly what the interface document describes: one
		// object with one field. Being strict here makes a client that
		// sends anything else fail its tests rather than production.
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxUpdateBody))
		dec.DisallowUnknownFields()
		var req request
		if err := dec.Decode(&req); err != nil {
			writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
			return
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			writeError(w, http.StatusBadRequest, "invalid JSON body: data after the object")
			return
		}
		switch {
		case req.Status == nil:
			writeError(w, http.StatusBadRequest, "status is required")
			return
		case !validActionStatus(*req.Status):
			writeError(w, http.StatusBadRequest, fmt.Sprintf("invalid status %q: want one of %s", *req.Status, actionStatusList))
			return
		}
		id := r.PathValue("id")
		row, ok := st.updateActionStatus(id, *req.Status)
		if !ok {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no action %q", id))
			return
		}
		answer(w, r, row)
	})
}

// handleListMeetings serves GET /meetings[?page=N]: {"meetings": [...]},
// newest first, with a Link header (RFC 8288) giving the absolute URL of
// the next page and, after the first, of the previous one.
func handleListMeetings(st *store, pageSize int) http.Handler {
	type page struct {
		Meetings []meetingJSON `json:"meetings"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1
		if p := r.URL.Query().Get("page"); p != "" {
			var err error
			if n, err = strconv.Atoi(p); err != nil || n < 1 {
				writeError(w, http.StatusBadRequest, fmt.Sprintf("invalid page %q: want a whole number from 1", p))
				return
			}
		}
		ms, more := st.listMeetings(n, pageSize)
		out := page{Meetings: make([]meetingJSON, len(ms))}
		for i, m := range ms {
			out.Meetings[i] = renderMeeting(m)
		}
		var links []string
		if more {
			links = append(links, fmt.Sprintf(`<%s>; rel="next"`, pageURL(r, n+1)))
		}
		if n > 1 {
			links = append(links, fmt.Sprintf(`<%s>; rel="prev"`, pageURL(r, n-1)))
		}
		if len(links) > 0 {
			w.Header().Set("Link", strings.Join(links, ", "))
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// pageURL is the absolute URL of page n of the listing r asked for: same
// scheme, host, path and other query parameters.
func pageURL(r *http.Request, n int) string {
	q := r.URL.Query()
	q.Set("page", strconv.Itoa(n))
	u := url.URL{
		Scheme:   "http",
		Host:     r.Host,
		Path:     r.URL.Path,
		RawPath:  r.URL.RawPath,
		RawQuery: q.Encode(),
	}
	if r.TLS != nil {
		u.Scheme = "https"
	}
	return u.String()
}

// handleGetMeeting serves GET /meetings/{id}, {id} being a meeting's ID or
// its reference in any case: {"data": {..., "agenda": [...]}}.
func handleGetMeeting(st *store) http.Handler {
	type response struct {
		Data meetingDetailJSON `json:"data"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, ok := pathRecord(w, r, st.meeting, noMeeting); ok {
			writeJSON(w, http.StatusOK, response{Data: renderMeetingDetail(m)})
		}
	})
}

// handleGetMinutes serves GET /meetings/{id}/minutes: {"minutes": {...}}
// when the meeting's minutes are approved or a published draft, and 404
// otherwise, without saying whether unpublished minutes exist.
func handleGetMinutes(st *store) http.Handler {
	type response struct {
		Minutes minutesJSON `json:"minutes"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, ok := pathRecord(w, r, st.visibleMinutes, noMinutes); ok {
			writeJSON(w, http.StatusOK, response{Minutes: renderMinutes(m)})
		}
	})
}

// The 404s of GET /meetings/{id} and GET /meetings/{id}/minutes. Minutes
// not published and a meeting that does not exist have the same words, so
// the answer does not say whether unpublished minutes exist.
const (
	noMeeting = "no meeting %q"
	noMinutes = "no published minutes for meeting %q"
)

// pathRecord is what find finds of the path's {id} (a meeting's ID or its
// reference, in any case); when there is none it answers 404 with
// notFound, its %q the id, and reports false.
func pathRecord[T any](w http.ResponseWriter, r *http.Request, find func(idOrRef string) (T, bool), notFound string) (T, bool) {
	id := r.PathValue("id")
	v, ok := find(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf(notFound, id))
	}
	return v, ok
}
