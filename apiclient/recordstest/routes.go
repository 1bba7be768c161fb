package recordstest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// route is one endpoint of Records API v1.
type route struct {
	method string
	// pattern is the path after /api/v1; a "{id}" segment matches one
	// non-empty path segment.
	pattern string
	scope   Scope
	handler http.Handler
}

// routes lists every endpoint the server serves.
func routes(st *store, cfg *config) []route {
	if cfg.dialect != Plain || cfg.putAnswer != DialectDefault {
		return dialectRoutes(st, cfg)
	}
	return []route{
		{http.MethodGet, "/actions", ScopeActionsRead, handleListActions(st, cfg.actionsPageSize)},
		{http.MethodPut, "/actions/{id}", ScopeActionsWrite, handleUpdateAction(st)},
		{http.MethodGet, "/meetings", ScopeMeetingsRead, handleListMeetings(st, cfg.meetingsPageSize)},
		{http.MethodGet, "/meetings/{id}", ScopeMeetingsRead, handleGetMeeting(st)},
		{http.MethodGet, "/meetings/{id}/minutes", ScopeMeetingsRead, handleGetMinutes(st)},
	}
}

// match reports whether rel, an escaped path after /api/v1, matches the
// route's pattern, and returns the unescaped {id}. It splits the escaped
// path, not the decoded one, because IDs may contain "/": "/actions/A%2F1"
// is action "A/1", where http.ServeMux would clean or mis-split the path.
func (rt route) match(rel string) (id string, ok bool) {
	want := strings.Split(rt.pattern, "/")
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

// relPath returns the escaped path of r after base (the escaped path of
// /api/v1 with any prefix); ok is false when the path is not under base.
func relPath(base string, escapedPath string) (rel string, ok bool) {
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
func newAPI(base string, keys keySet, rts []route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := relPath(base, r.URL.EscapedPath())
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
			if rt.method != r.Method {
				allow = append(allow, rt.method)
				continue
			}
			if !slices.Contains(scopes, rt.scope) {
				writeError(w, http.StatusForbidden, "missing scope "+string(rt.scope))
				return
			}
			r.SetPathValue("id", id)
			rt.handler.ServeHTTP(w, r)
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
