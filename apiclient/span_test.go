package apiclient

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestElementSpans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want []string
	}{
		{name: "empty", body: `[]`, want: nil},
		{name: "empty with space", body: "[ \n ]", want: nil},
		{name: "scalars", body: `[1, -2.5e3,true,null, "x"]`, want: []string{`1`, `-2.5e3`, `true`, `null`, `"x"`}},
		{name: "escaped quote before a bracket", body: `[{"a":"x\"}"},{"b":1}]`, want: []string{`{"a":"x\"}"}`, `{"b":1}`}},
		{name: "escaped backslash before the quote", body: `[{"a":"x\\"},{"b":"]"}]`, want: []string{`{"a":"x\\"}`, `{"b":"]"}`}},
		{name: "nested", body: "[ {\"a\":[1,{\"b\":[]}]} ,\n[[],{}] ]", want: []string{`{"a":[1,{"b":[]}]}`, `[[],{}]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spans, err := elementSpans([]byte(tt.body), 0, nil)
			require.NoError(t, err)
			var got []string
			for _, s := range spans {
				got = append(got, tt.body[s.start:s.end])
			}
			assert.Equal(t, tt.want, got)
		})
	}
	for _, bad := range []string{``, `{}`, `[`, `[1,`, `["x]`, `[{"a":1]`, `[1 2]`} {
		_, err := elementSpans([]byte(bad), 0, nil)
		assert.Error(t, err, "body %q", bad)
	}
}

func TestMemberSpan(t *testing.T) {
	t.Parallel()
	body := ` {"a\"}" : "}", "data" : [ {"id":1} ] , "z":{}} `
	sp, err := memberSpan([]byte(body), 1)
	require.NoError(t, err)
	assert.Equal(t, `[ {"id":1} ]`, body[sp.start:sp.end])
	sp, err = memberSpan([]byte(body), 2)
	require.NoError(t, err)
	assert.Equal(t, `{}`, body[sp.start:sp.end])
	_, err = memberSpan([]byte(body), 3)
	assert.Error(t, err)
	_, err = memberSpan([]byte(`[1]`), 0)
	assert.Error(t, err)
	assert.Equal(t, span{2, 4}, rootSpan([]byte("\n {} \t")))
}
