package apiclient

import (
	"reflect"
	"testing"
)

// FuzzLeanListMatchesWhole holds parseListLean to the whole-body parse it
// replaces: for any body and item limit, decoding a list one record at a
// time gives the same records (Raw included), count, page fields and
// envelope, and fails exactly when the whole parse fails.
func FuzzLeanListMatchesWhole(f *testing.F) {
	for _, s := range listSeeds {
		f.Add(s.body, 1)
	}
	for _, b := range []string{
		`{"data":[{"id":"1"}],"data":[{"id":"2"}]}`,
		`{"data":{"x":1},"items":[{"id":"1"}]}`,
		`{"items":[{"id":"1"}],"data":[{"id":"2"}]}`,
		`{"d\u0061ta":[{"id":"1"}]}`,
		`{"data":[{"id":"1"}]} x`,
		`[{"id":"1"}] ]`,
		`[{"id":"1"},{"id":"2", "t": "\x"}]`,
		`{"data":[{"id":"1"}],"next":}`,
		`  [ {"id":"1"} , {"id":"2"} ]  `,
		`{"items":[{"id":"1"} {"id":"3"}],"data":[{"id":"2"}]}`,
		`{"actions":[{"id":"1"}],"items":[{"id":"2"}],"meta":{"total":2}}`,
		`{"data":[],"items":[{"id":"2"}]}`,
	} {
		f.Add(b, 1)
	}
	f.Fuzz(func(t *testing.T, body string, limit int) {
		if limit < -1 {
			limit = -1
		}
		decode := func(whole bool) ([]Action, int, pageFields, string, error) {
			d := &decoder{whole: whole}
			acts, n, pf, err := decodeList(d, []byte(body), "actions", nil, limit, decodeAction)
			return acts, n, pf, d.lastEnvelope, err
		}
		la, ln, lpf, lenv, lerr := decode(false)
		wa, wn, wpf, wenv, werr := decode(true)
		if (lerr == nil) != (werr == nil) {
			t.Fatalf("lean error %v, whole error %v", lerr, werr)
		}
		if werr != nil {
			return
		}
		if !reflect.DeepEqual(la, wa) || ln != wn || lpf != wpf || lenv != wenv {
			t.Fatalf("lean %+v n=%d %+v %q\nwhole %+v n=%d %+v %q", la, ln, lpf, lenv, wa, wn, wpf, wenv)
		}
	})
}

func TestLeanParseTakesTheCommonShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		lean bool
	}{
		{`[{"id":"1"}]`, true},
		{`{"data":[{"id":"1"}],"next_cursor":"c"}`, true},
		{`{"Items":[{"id":"1"}]}`, true},
		{`{"@odata.count":1,"value":[{"id":"1"}]}`, true},
		{`{"total":1,"actions":[{"id":"1"}]}`, true},
		{`{"_embedded":{"actions":[{"id":"1"}]}}`, false}, // nested: parsed whole
		{`{"d\u0061ta":[{"id":"1"}]}`, false},             // escaped name
		{`{"data":null}`, false},
	}
	for _, tt := range tests {
		d := new(decoder)
		lp, err := d.parseList([]byte(tt.body), "actions")
		if err != nil || lp.lean != tt.lean {
			t.Errorf("%s: lean %v, error %v; want lean %v", tt.body, lp.lean, err, tt.lean)
		}
	}
}
