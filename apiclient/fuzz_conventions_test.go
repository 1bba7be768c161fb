package apiclient

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

func FuzzParseContentRange(f *testing.F) {
	for _, s := range []string{"0-99/1234", "items 0-99/1234", "5-9/*", "*/1234", "*/*", "9-5/10", "0-10/10", " 1-1/2 ", "a-b/c", "0-9", "-", "/", "bytes 0-0/1", "0-99999999999999999999/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cr, ok := parseContentRange(s)
		if !ok {
			return
		}
		switch {
		case cr.first < 0 && (cr.last >= 0 || cr.total < 0):
			t.Fatalf("%q: an empty range needs a total: %+v", s, cr)
		case cr.first >= 0 && cr.last < cr.first:
			t.Fatalf("%q: last before first: %+v", s, cr)
		case cr.total >= 0 && cr.last >= cr.total:
			t.Fatalf("%q: range past the total: %+v", s, cr)
		}
	})
}

func FuzzParseFieldMap(f *testing.F) {
	for _, s := range []string{
		"action.title=subject,action.deadline=target_date,meeting.date=held_on,action.assignee=responsible.email",
		"Action.MeetingId=x", "action.title=", "=x", "action.colour=hue", "action.title=a..b", ",,,", "action.title=a,action.title=b",
		"minutes.body=text=html", "agenda.number=pos.n",
	} {
		f.Add(s)
	}
	known := map[string]bool{}
	for _, k := range KnownFields() {
		known[k] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseFieldMap(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("error of two lines: %v", err)
			}
			return
		}
		for k, p := range m {
			if !known[k] {
				t.Fatalf("%q: unknown field %q accepted", s, k)
			}
			if p == "" {
				t.Fatalf("%q: empty path for %s", s, k)
			}
		}
		// What String writes parses back to the same map, and compiles.
		again, err := ParseFieldMap(m.String())
		if err != nil || len(again) != len(m) {
			t.Fatalf("%q: String %q does not parse back: %v", s, m.String(), err)
		}
		_ = newSchema(m)
	})
}

func FuzzNormKey(f *testing.F) {
	for _, s := range []string{"due_date", "dueDate", "due-date", "DueDate", "DUE_DATE", "@odata.nextLink", "_embedded", "", "ü_Ä", "__"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := normKey(nil, []byte(s))
		if bytes.ContainsAny(n, "_-") {
			t.Fatalf("%q: %q keeps a separator", s, n)
		}
		if bytes.ContainsAny(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Fatalf("%q: %q keeps a capital", s, n)
		}
		if again := normKey(nil, n); !bytes.Equal(again, n) {
			t.Fatalf("%q: not idempotent: %q then %q", s, n, again)
		}
		if strings.EqualFold(s, strings.ToUpper(s)) && !bytes.Equal(normKey(nil, []byte(strings.ToUpper(s))), n) && isASCII(s) {
			t.Fatalf("%q: casing changes the key", s)
		}
	})
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzEnvelopes decodes a body as each record's list and single form, with
// the row-API headers, so every envelope and pagination hint meets odd
// input.
func FuzzEnvelopes(f *testing.F) {
	seeds := []struct{ body, contentRange, totalCount string }{
		{`{"_embedded":{"meetings":[{"id":"m1","Title":"T"}]},"_links":{"next":{"href":"/prefix/api/v1/meetings?page=1"}}}`, "", ""},
		{`{"value":[{"Id":"m1"}],"@odata.nextLink":"http://records.test/prefix/api/v1/meetings?$skip=1","@odata.count":3}`, "", ""},
		{`{"data":[{"type":"meetings","id":"m1","attributes":{"held-at":"2026-03-02"}}],"links":{"next":"?page[number]=2"},"meta":{"total":2}}`, "", ""},
		{`[{"id":"m1"},{"id":"m2"}]`, "0-1/5", ""},
		{`[{"id":"m1"}]`, "0-0/*", "9"},
		{`[]`, "*/0", "0"},
		{`[{"status":"approved","body":"b"}]`, "", ""},
		{`{"Data":{"Id":"a1","Status":"complete"}}`, "", ""},
		{`{"data":{"type":"minutes","id":"m1","attributes":{"status":"approved","html":"<p>x</p>"}}}`, "", ""},
		{`{"data":[],"offset":"x","total":-1}`, "", "-3"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.contentRange, s.totalCount)
	}
	c, err := NewClient("http://records.test"+basePath, "k")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, contentRange, totalCount string) {
		d := new(decoder)
		ms, n, pf, err := decodeList(d, body, "meetings", nil, -1, decodeMeeting)
		if err == nil {
			if len(ms) != n {
				t.Fatalf("decoded %d of %d meetings", len(ms), n)
			}
			for i, m := range ms {
				if !bytes.Contains(body, m.Raw) {
					t.Fatalf("meeting %d: Raw %q is not part of the body", i, m.Raw)
				}
			}
			resp := fuzzResponse("")
			resp.Header.Set("Content-Range", contentRange)
			resp.Header.Set("X-Total-Count", totalCount)
			resp.StatusCode = http.StatusPartialContent
			pr, err := c.nextPage(resp, pf, n)
			if err == nil && pr.next != nil && !sameOrigin(pr.next, c.base) {
				t.Fatalf("next page %s leaves the base host", pr.next)
			}
			if err == nil && pr.next != nil && pr.stuck != "" {
				t.Fatalf("both a next page and stuck: %+v", pr)
			}
		}
		var a Action
		if err := d.decodeActionBody(body, &a); err == nil && !bytes.Contains(body, a.Raw) {
			t.Fatalf("action Raw %q is not part of the body", a.Raw)
		}
		var m Minutes
		if err := d.decodeMinutesBody(body, &m); err == nil && !m.Status.Visible() {
			t.Fatalf("minutes with status %q returned", m.Status)
		}
	})
}
