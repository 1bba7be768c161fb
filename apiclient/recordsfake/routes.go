package recordsfake

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Route is one endpoint of Records API v1.
type Route struct {
	Method string
	// Pattern is the path after /api/v1; a "{id}" segment matches one
	// non-empty path segment, which the handler reads as
	// r.PathValue("id").
	Pattern string
	Scope   Scope
	Handler http.Handler
}

// plainRoutes lists every endpoint the server serves in its own form.
func plainRoutes(st *store, sizes PageSizes) []Route {
	return []Route{
		{http.MethodGet, "/actions", ScopeActionsRead, handleListActions(st, sizes.Actions)},
		{http.MethodPut, "/actions/{id}", ScopeActionsWrite, handleUpdateAction(st)},
		{http.MethodGet, "/meetings", ScopeMeetingsRead, handleListMeetings(st, sizes.Meetings)},
		{http.MethodGet, "/meetings/{id}", ScopeMeetingsRead, handleGetMeeting(st)},
		{http.MethodGet, "/meetings/{id}/minutes", ScopeMeetingsRead, handleGetMinutes(st)},
	}
}

// match reports whether rel, an escaped path after /api/v1, matches the
// route's pattern, and returns the unescaped {id}. It splits the escaped
// path, not the decoded one, because IDs may contain "/": "/actions/A%2F1"
// is action "A/1", where http.ServeMux would clean or mis-split the path.
func (rt Route) match(rel string) (id string, ok bool) {
	want := strings.Split(rt.Pattern, "/")
	got := strings.Split(rel, "/")
	if len(got) != len(want) {
		return "", false
	}
	for i, seg := range want {
		if seg != "{id}" {
			if got[i] != seg {
				return "", false
			}
			continue
		}
		v, err := url.PathUnescape(got[i])
		if err != nil || v == "" {
			return "", false
		}
		id = v
	}
	return id, true
}

// RelPath returns the escaped path after base (the escaped path of
// /api/v1 with any prefix, [Surround.Base]); ok is false when the path is
// not under base.
func RelPath(base string, escapedPath string) (rel string, ok bool) {
	rel, ok = strings.CutPrefix(escapedPath, base)
	if !ok || (rel != "" && rel[0] != '/') {
		return "", false
	}
	return rel, true
}

// newAPI serves the routes under base. Checks run in the order a real
// gateway applies them: the key (401) before the endpoint (404, 405), and
// the endpoint before its scope (403), so an anonymous caller learns
// nothing about which paths exist.
func newAPI(base string, keys keySet, rts []Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := RelPath(base, r.URL.EscapedPath())
		if !ok {
			writeError(w, http.StatusNotFound, "no such endpoint")
			return
		}
		scopes, ok, msg := keys.authenticate(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="records"`)
			writeError(w, http.StatusUnauthorized, msg)
			return
		}
		var allow []string
		for _, rt := range rts {
			id, ok := rt.match(rel)
			if !ok {
				continue
			}
			if rt.Method != r.Method {
				allow = append(allow, rt.Method)
				continue
			}
			if !slices.Contains(scopes, rt.Scope) {
				writeError(w, http.StatusForbidden, "missing scope "+string(rt.Scope))
				return
			}
			r.SetPathValue("id", id)
			rt.Handler.ServeHTTP(w, r)
			return
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed")
			return
		}
		writeError(w, http.StatusNotFound, "no such endpoint")
	})
}
