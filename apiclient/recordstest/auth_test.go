package recordstest

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    map[string][]Scope
		wantErr string
	}{
		{
			name: "default sandbox keys",
			in:   DefaultSandboxKeys,
			want: map[string][]Scope{DefaultKey: AllScopes()},
		},
		{
			name: "several keys",
			in:   "k1=actions:read+actions:write,k2=meetings:read",
			want: map[string][]Scope{"k1": {ScopeActionsRead, ScopeActionsWrite}, "k2": {ScopeMeetingsRead}},
		},
		{
			name: "whitespace everywhere",
			in:   "  k1 = actions:read + meetings:read ,\n\tk2=actions:write  ",
			want: map[string][]Scope{"k1": {ScopeActionsRead, ScopeMeetingsRead}, "k2": {ScopeActionsWrite}},
		},
		{
			name: "empty entries",
			in:   ",k1=actions:read,,",
			want: map[string][]Scope{"k1": {ScopeActionsRead}},
		},
		{
			name: "key without scopes",
			in:   "k1=, k2 = ",
			want: map[string][]Scope{"k1": {}, "k2": {}},
		},
		{
			name: "duplicate scope",
			in:   "k1=actions:read+actions:read",
			want: map[string][]Scope{"k1": {ScopeActionsRead}},
		},
		{
			name: "key with punctuation",
			in:   "a.b-c_d+e/f~=actions:read",
			want: map[string][]Scope{"a.b-c_d+e/f~": {ScopeActionsRead}},
		},
		{name: "two equals", in: "k1==actions:read", wantErr: `parse keys: unknown scope "=actions:read" for key "k1"`},
		{name: "empty", in: "", wantErr: `parse keys: no key in ""`},
		{name: "only separators", in: " , ,", wantErr: `parse keys: no key in " , ,"`},
		{name: "no equals", in: "k1", wantErr: `parse keys: entry "k1" has no "="`},
		{name: "empty key", in: "=actions:read", wantErr: `parse keys: entry "=actions:read" has an empty key`},
		{name: "blank key", in: "  =actions:read", wantErr: `parse keys: entry "=actions:read" has an empty key`},
		{name: "key with space", in: "my key=actions:read", wantErr: `parse keys: key "my key" contains whitespace`},
		{name: "unknown scope", in: "k1=actions:read+actions:delete", wantErr: `parse keys: unknown scope "actions:delete" for key "k1"`},
		{name: "scope in wrong case", in: "k1=Actions:Read", wantErr: `parse keys: unknown scope "Actions:Read" for key "k1"`},
		{name: "empty scope", in: "k1=actions:read+", wantErr: `parse keys: empty scope for key "k1"`},
		{name: "duplicate key", in: "k1=actions:read,k1=meetings:read", wantErr: `parse keys: key "k1" given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseKeys(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParsedKeysServe(t *testing.T) {
	t.Parallel()
	keys, err := ParseKeys("reader=actions:read, nobody=")
	require.NoError(t, err)
	srv := newFixtureServer(t, WithKeys(keys))
	assert.Equal(t, 200, send(t, "GET", srv.URL+"/actions", "reader", "").status)
	assert.Equal(t, 403, send(t, "GET", srv.URL+"/actions", "nobody", "").status)
	assert.Equal(t, 401, send(t, "GET", srv.URL+"/actions", DefaultKey, "").status)

	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	assert.True(t, reqs[1].Authorized, "a key without the scope is still a valid key")
	assert.Equal(t, 403, reqs[1].Status)
	assert.False(t, reqs[2].Authorized)
}

// formatKeys writes keys in the form ParseKeys reads, keys sorted.
func formatKeys(keys map[string][]Scope) string {
	var entries []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		var scopes []string
		for _, s := range keys[k] {
			scopes = append(scopes, string(s))
		}
		entries = append(entries, k+"="+strings.Join(scopes, "+"))
	}
	return strings.Join(entries, ",")
}

func FuzzParseKeys(f *testing.F) {
	for _, seed := range []string{
		DefaultSandboxKeys,
		"k1=actions:read+actions:write,k2=meetings:read",
		"  k1 = actions:read + meetings:read ,\n\tk2=actions:write  ",
		",k1=actions:read,,",
		"k1=",
		"=actions:read",
		"k1",
		"k1=actions:delete",
		"k1=actions:read+",
		"k1=a,k1=b",
		"ключ=meetings:read",
		"a=b=c",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := ParseKeys(s)
		if err != nil {
			assert.Nil(t, keys)
			assert.True(t, strings.HasPrefix(err.Error(), "parse keys: "), "error %q", err)
			return
		}
		require.NotEmpty(t, keys)
		for k, scopes := range keys {
			assert.NotEmpty(t, k)
			assert.False(t, strings.ContainsFunc(k, unicode.IsSpace), "key %q has whitespace", k)
			assert.NotContains(t, k, ",")
			assert.NotContains(t, k, "=")
			for _, sc := range scopes {
				assert.Contains(t, AllScopes(), sc)
			}
			assert.Len(t, scopes, len(slices.Compact(slices.Sorted(slices.Values(scopes)))), "duplicate scope")
		}
		// What parses, formats and parses again to the same set.
		again, err := ParseKeys(formatKeys(keys))
		require.NoError(t, err)
		assert.Equal(t, keys, again)
	})
}
