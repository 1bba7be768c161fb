package recordsfake

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"
)

// DefaultKey is the API key every server accepts with all scopes, unless
// [WithKeys] replaces the key set.
const DefaultKey = "test-key"

// DefaultSandboxKeys is the default key set in the textual form [ParseKeys]
// reads: [DefaultKey] with every scope. It suits a command-line flag default
// for `recordsbot sandbox`.
const DefaultSandboxKeys = "test-key=actions:read+actions:write+meetings:read"

// Scope is a permission an API key carries. Each endpoint requires one.
type Scope string

// The scopes of Records API v1.
const (
	// ScopeActionsRead is needed to list actions.
	ScopeActionsRead Scope = "actions:read"
	// ScopeActionsWrite is needed to update an action's status. It does not
	// imply ScopeActionsRead: the interface document leaves that open, and
	// the stricter reading catches clients that rely on it.
	ScopeActionsWrite Scope = "actions:write"
	// ScopeMeetingsRead is needed for meetings, agendas and minutes.
	ScopeMeetingsRead Scope = "meetings:read"
)

// AllScopes returns every scope of Records API v1, in a stable order.
func AllScopes() []Scope {
	return []Scope{ScopeActionsRead, ScopeActionsWrite, ScopeMeetingsRead}
}

// valid reports whether s is a scope of Records API v1.
func (s Scope) valid() bool { return slices.Contains(AllScopes(), s) }

// ParseKeys parses a key set written as "KEY=SCOPE+SCOPE,KEY2=SCOPE", the
// form `recordsbot sandbox` takes on its command line. Whitespace around
// keys, scopes and separators is ignored, as are empty entries (such as a
// trailing comma). "KEY=" gives a key with no scope at all, which is
// authenticated but refused by every endpoint (useful to see 403s).
//
// It returns an error naming the offending part for an entry without "=",
// an empty key, a key containing whitespace, a key given twice, an unknown
// or empty scope, or a string with no key at all.
func ParseKeys(s string) (map[string][]Scope, error) {
	keys := make(map[string][]Scope)
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		key, scopeList, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, fmt.Errorf("parse keys: entry %q has no \"=\"", entry)
		}
		key = strings.TrimSpace(key)
		switch {
		case key == "":
			return nil, fmt.Errorf("parse keys: entry %q has an empty key", entry)
		case strings.ContainsFunc(key, unicode.IsSpace):
			// A bearer token cannot contain whitespace; such a key could
			// never be sent.
			return nil, fmt.Errorf("parse keys: key %q contains whitespace", key)
		}
		if _, dup := keys[key]; dup {
			return nil, fmt.Errorf("parse keys: key %q given twice", key)
		}
		scopes := []Scope{}
		if scopeList = strings.TrimSpace(scopeList); scopeList != "" {
			for name := range strings.SplitSeq(scopeList, "+") {
				sc := Scope(strings.TrimSpace(name))
				if sc == "" {
					return nil, fmt.Errorf("parse keys: empty scope for key %q", key)
				}
				if !sc.valid() {
					return nil, fmt.Errorf("parse keys: unknown scope %q for key %q", sc, key)
				}
				if !slices.Contains(scopes, sc) {
					scopes = append(scopes, sc)
				}
			}
		}
		keys[key] = scopes
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("parse keys: no key in %q", s)
	}
	return keys, nil
}

// keySet maps an API key to its scopes. It is never modified after the
// server is built, so it needs no lock.
type keySet map[string][]Scope

// authenticate returns the scopes of the bearer key r carries; ok is false
// when the request has no bearer key or the key is unknown. The message
// says which, for the 401 body.
func (k keySet) authenticate(r *http.Request) (scopes []Scope, ok bool, message string) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, false, "missing Authorization header"
	}
	scheme, key, _ := strings.Cut(h, " ")
	// The auth scheme is case-insensitive (RFC 9110, section 11.1).
	if !strings.EqualFold(scheme, "Bearer") {
		return nil, false, "Authorization header is not a bearer token"
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return nil, false, "empty bearer token"
	}
	scopes, ok = k[key]
	if !ok {
		return nil, false, "invalid API key"
	}
	return scopes, true, ""
}

// authorized reports whether r carries a key k accepts, whatever its
// scopes.
func (k keySet) authorized(r *http.Request) bool {
	_, ok, _ := k.authenticate(r)
	return ok
}
