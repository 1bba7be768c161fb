package jsonappend

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	cases := []string{
		"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnl\nret\rbs\bff\f",
		"\x00\x01\x1f\x7f", "caf\u00e9 \U0001F389", "line\u2028para\u2029", "bad \xff\xfe utf8 \xe2\x82",
		"*Overdue* · Due <!date^1773057600^{date_short_pretty}|Mar 9, 2026>",
	}
	for b := range 256 {
		cases = append(cases, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if assert.NoError(t, err) {
			assert.Equal(t, replacementsAlike(string(want)), replacementsAlike(string(String(nil, s))), "String(%q)", s)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "<&>", "\u2028", "\xff", "\"\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := String([]byte("prefix"), s); replacementsAlike(string(got)) != replacementsAlike("prefix"+string(want)) {
			t.Fatalf("String(%q) = %s, encoding/json %s", s, got[len("prefix"):], want)
		}
	})
}

// replacementsAlike writes every U+FFFD of s as the escape \ufffd. Go
// releases disagree on how encoding/json writes invalid UTF-8: go1.26
// escapes it (\ufffd), go1.27 writes the replacement character itself.
// Both decode to the same string, so the comparison with encoding/json
// ignores that one difference and no other.
func replacementsAlike(s string) string { return strings.ReplaceAll(s, "\uFFFD", `\ufffd`) }

func TestMember(t *testing.T) {
	t.Parallel()
	got := Member([]byte("{"), "a")
	got = append(got, '1')
	got = Member(got, "b")
	got = append(got, "[]"...)
	assert.Equal(t, `{"a":1,"b":[]`, string(got))
}
