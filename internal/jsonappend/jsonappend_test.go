package jsonappend

import (
	"encoding/json"
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
			assert.Equal(t, string(want), string(String(nil, s)), "String(%q)", s)
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
		if got := String([]byte("prefix"), s); string(got) != "prefix"+string(want) {
			t.Fatalf("String(%q) = %s, encoding/json %s", s, got[len("prefix"):], want)
		}
	})
}

func TestMember(t *testing.T) {
	t.Parallel()
	got := Member([]byte("{"), "a")
	got = append(got, '1')
	got = Member(got, "b")
	got = append(got, "[]"...)
	assert.Equal(t, `{"a":1,"b":[]`, string(got))
}
