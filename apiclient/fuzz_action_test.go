package apiclient

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecodeActionBody covers the one dialect the list fuzzers cannot
// reach: the answer to a status change, which may be a bare record or come
// wrapped ({"data": …}, {"action": …}, JSend's {"status": "success",
// "data": …}), partial, or empty.
func FuzzDecodeActionBody(f *testing.F) {
	for _, s := range []string{
		`{"id":"act-1","title":"T","status":"complete","assignee":{"email":"a@x.org","name":"A"},"due_date":"2026-03-14"}`,
		`{"data":{"id":7,"status":"DONE"}}`,
		`{"action":{"action_id":"a","text":"x","assigned_to":"U024BE7LH","deadline":"2026-03-14T17:30:00+02:00"}}`,
		`{"status":"success","data":{"row_id":"r","summary":"s","status":"in_progress"}}`,
		`{"status":"complete"}`,
		`{"id":"5","attributes":{"title":"T","status":"deferred","meeting":{"id":9,"title":"Board"}}}`,
		`{"id":"a","data":{"id":"b"}}`,
		`{"data":{"id":"a"},"action":{"id":"b"}}`,
		`{}`, `[]`, `null`, `"x"`, `{"id":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := new(decoder)
		var a Action
		if err := d.decodeActionBody(body, &a); err != nil {
			return
		}
		if !bytes.Contains(body, a.Raw) {
			t.Fatalf("Raw %q is not part of the body", a.Raw)
		}
		_ = a.Assignee.String()
		_ = a.Status.Valid()
		// Raw is the record the fields came from: decoding it alone gives
		// the same action.
		var again Action
		if err := new(decoder).decodeActionBody(a.Raw, &again); err != nil {
			t.Fatalf("Raw %q does not decode alone: %v", a.Raw, err)
		}
		if !again.Deadline.Equal(a.Deadline) {
			t.Fatalf("deadline %v, alone %v", a.Deadline, again.Deadline)
		}
		again.Deadline, again.Raw, a.Raw = a.Deadline, nil, nil
		if !reflect.DeepEqual(again, a) {
			t.Fatalf("differs when decoded alone:\n%+v\n%+v", a, again)
		}
	})
}
