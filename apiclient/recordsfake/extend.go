package recordsfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// What tests add to the server (package recordstest: injected faults, the
// request journal, other REST dialects, ETags) is built on the options
// and types below, so that `recordsbot demo` and `sandbox` link the
// records service and nothing only tests switch on.

// PageSizes are how many records make a page of each list.
type PageSizes struct{ Meetings, Actions int }

// WithRoutes replaces the server's own endpoints with those routes
// returns, given the server's records and page sizes: the same records in
// another REST convention. Keys, scopes, 401, 403, 404 and 405 stay the
// server's (see the package documentation).
func WithRoutes(routes func(Records, PageSizes) []Route) Option {
	return func(c *config) { c.routes = routes }
}

// Surround is what a handler wrapped around the API knows of the server.
type Surround struct {
	// Base is the escaped path of /api/v1 after any [WithPathPrefix].
	Base string
	// Authorized reports whether a request carries a key the server
	// accepts, whatever its scopes.
	Authorized func(*http.Request) bool
	// Done is closed when the server closes, so that a wait a wrapper
	// holds a request in ends and Close need not wait for it.
	Done <-chan struct{}
}

// WithMiddleware wraps the API in wrap; of several, the first given is
// innermost.
func WithMiddleware(wrap func(api http.Handler, s Surround) http.Handler) Option {
	return func(c *config) { c.wraps = append(c.wraps, wrap) }
}

// Records is the server's records as routes given to [WithRoutes] serve
// them. Each record comes in the server's own wire form as a map, for a
// route to reshape.
type Records struct{ st *store }

// ActionsAt returns up to limit actions with the given status (any when
// empty) from position offset of the filtered listing, and how many match
// in all: the paging of row APIs, which address pages by offset.
func (r Records) ActionsAt(status string, offset, limit int) (rows []map[string]any, total int) {
	rs, total := r.st.actionsAt(status, offset, limit)
	rows = make([]map[string]any, len(rs))
	for i, row := range rs {
		rows[i] = toMap(renderAction(row))
	}
	return rows, total
}

// MeetingsAt returns up to limit meetings from position offset, newest
// first, and how many there are in all.
func (r Records) MeetingsAt(offset, limit int) (rows []map[string]any, total int) {
	ms, total := r.st.meetingsAt(offset, limit)
	rows = make([]map[string]any, len(ms))
	for i, m := range ms {
		rows[i] = toMap(renderMeeting(m))
	}
	return rows, total
}

// Meeting returns the meeting, with its agenda, that req's {id} names (its
// ID or reference, in any case); when there is none it answers 404 as the
// server does and reports false.
func (r Records) Meeting(w http.ResponseWriter, req *http.Request) (map[string]any, bool) {
	m, ok := pathRecord(w, req, r.st.meeting, noMeeting)
	if !ok {
		return nil, false
	}
	return toMap(renderMeetingDetail(m)), true
}

// Minutes returns the published minutes of the meeting req's {id} names,
// and that meeting's ID; otherwise it answers 404 as the server does and
// reports false.
func (r Records) Minutes(w http.ResponseWriter, req *http.Request) (rec map[string]any, meetingID string, ok bool) {
	m, ok := pathRecord(w, req, r.st.visibleMinutes, noMinutes)
	if !ok {
		return nil, "", false
	}
	return toMap(renderMinutes(m)), m.MeetingID, true
}

// UpdateAction serves PUT /actions/{id} as the server does, checking the
// body as strictly, and answers the updated action with answer.
func (r Records) UpdateAction(answer func(w http.ResponseWriter, req *http.Request, rec map[string]any)) http.Handler {
	return handleUpdateActionWith(r.st, func(w http.ResponseWriter, req *http.Request, row actionRow) {
		answer(w, req, toMap(renderAction(row)))
	})
}

// Routes returns the server's own endpoints.
func (r Records) Routes(sizes PageSizes) []Route { return plainRoutes(r.st, sizes) }

// CheckStatus answers 400 as the server does, and reports false, when
// status is set and not an action status of Records API v1.
func CheckStatus(w http.ResponseWriter, status string) bool {
	if status != "" && !validActionStatus(status) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown status %q: want one of %s", status, actionStatusList))
		return false
	}
	return true
}

// WriteJSON answers status with v as JSON, as the server writes its
// bodies.
func WriteJSON(w http.ResponseWriter, status int, v any) { writeJSON(w, status, v) }

// WriteError answers status with the server's error body.
func WriteError(w http.ResponseWriter, status int, message string) {
	writeError(w, status, message)
}

// toMap turns a wire struct into a map, so a route can reshape it.
func toMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the wire structs hold strings and numbers only
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		panic(err)
	}
	return m
}
