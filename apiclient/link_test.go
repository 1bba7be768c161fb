package apiclient

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseLinkHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []link
	}{
		{name: "github style", in: `<https://api.x/a?page=2>; rel="next", <https://api.x/a?page=5>; rel="last"`,
			want: []link{{URI: "https://api.x/a?page=2", Rel: "next"}, {URI: "https://api.x/a?page=5", Rel: "last"}}},
		{name: "bare rel", in: `</a?page=2>;rel=next`, want: []link{{URI: "/a?page=2", Rel: "next"}}},
		{name: "several relation types", in: `<b>; rel="prefetch next"`, want: []link{{URI: "b", Rel: "prefetch next"}}},
		{name: "quoted comma and semicolon", in: `<a>; title="x, y; z"; rel="next", <b>; rel=prev`,
			want: []link{{URI: "a", Rel: "next"}, {URI: "b", Rel: "prev"}}},
		{name: "escaped quote", in: `<a>; title="say \"hi\", ok"; rel=next`, want: []link{{URI: "a", Rel: "next"}}},
		{name: "comma inside uri", in: `<a?x=1,2>; rel=next`, want: []link{{URI: "a?x=1,2", Rel: "next"}}},
		{name: "first rel wins", in: `<a>; rel=prev; rel=next`, want: []link{{URI: "a", Rel: "prev"}}},
		{name: "no rel", in: `<a>; title=x`, want: []link{{URI: "a"}}},
		{name: "garbage skipped", in: `garbage, <a>; rel=next`, want: []link{{URI: "a", Rel: "next"}}},
		{name: "unterminated uri", in: `<a; rel=next`, want: nil},
		{name: "unterminated quote", in: `<a>; rel="next`, want: []link{{URI: "a", Rel: "next"}}},
		{name: "spaces", in: "  < a >  ;  rel = \"next\"  ,  ", want: []link{{URI: "a", Rel: "next"}}},
		{name: "empty", in: ``, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, parseLinkHeader(tt.in))
		})
	}
}

func TestNextLink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     []string
		want   string
		wantOK bool
	}{
		{name: "second field", in: []string{`<a>; rel=first`, `<b>; rel="NEXT"`}, want: "b", wantOK: true},
		{name: "first next wins", in: []string{`<a>; rel=next, <b>; rel=next`}, want: "a", wantOK: true},
		{name: "next-archive is not next", in: []string{`<a>; rel=next-archive`}},
		{name: "empty uri ignored", in: []string{`<>; rel=next`}},
		{name: "none", in: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := nextLink(tt.in)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}
