package apiclient

import (
	"bytes"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// Seeds for the list fuzzers: one per envelope, pagination form and alias
// family, so that plain `go test` exercises every dialect.
var listSeeds = []struct{ body, link string }{
	{`[]`, ``},
	{`[{"id":"act-1","meeting_id":"mtg-1","title":"T","description":"D","status":"open","assignee":{"email":"a@x.org","name":"A"},"due_date":"2026-03-14","created_at":"2026-11-02T09:01:00Z"}]`, ``},
	{`{"data":[{"id":1,"status":"OPEN"}],"next":"/prefix/api/v1/actions?page=2"}`, ``},
	{`{"items":[{"action_id":"a","text":"x","assigned_to":"U024BE7LH"}],"next_cursor":"c2"}`, ``},
	{`{"results":[{"row_id":7,"summary":"s","owner":"<@W0123ABC|j>"}],"cursor":"c1"}`, ``},
	{`{"actions":[{"id":"a","name":"n","assignee_email":"e@x"}],"next_page":3}`, ``},
	{`{"data":[{"id":"a","deadline":"2026-03-14T17:30:00+02:00"}],"page":1,"total_pages":4}`, ``},
	{`{"data":[{"id":"a","due":"bogus","due_at":"2026-02-30"}],"has_more":true}`, ``},
	{`{"data":[{"id":"a","meeting":{"id":9,"title":"Board"},"committee":{"name":"F"}}],"meta":{"next_cursor":"z"}}`, ``},
	{`{"data":[{"id":"5","attributes":{"title":"T","status":"done"}}],"links":{"next":{"href":"?page=2"}}}`, ``},
	{`{"data":null,"pagination":{"current_page":"2","last_page":"x"}}`, ``},
	{`[{"id":"1"},{"id":"2"}]`, `<?page=2>; rel="next", <?page=9>; rel=last`},
	{`[{"id":"1"}]`, `<https://evil.example/x>; rel=next`},
	{"[\n {\"id\" : \"\\\"q\\\"\", \"x\": [\"]}\"]} ]", `<a>; title="x, y"; rel="prefetch next"`},
	{`{"data":[{"type":"actions","id":"5","attributes":{"title":"T","due-date":"2026-03-14"},"relationships":{"meeting":{"data":{"type":"meetings","id":"9"}}}}],"links":{"next":"/prefix/api/v1/actions?page%5Bnumber%5D=2"},"meta":{"total":40}}`, ``},
	{`{"_embedded":{"actions":[{"Id":1,"Title":"T","DueDate":"2026-03-14","_links":{"self":{"href":"/a/1"}}}]},"_links":{"next":{"href":"/prefix/api/v1/actions?page=1&size=1"}},"total":3}`, ``},
	{`{"@odata.context":"x","value":[{"id":"a","assignedTo":"a@x.org","dueAt":"2026-03-14T10:00:00Z"}],"@odata.nextLink":"http://records.test/prefix/api/v1/actions?$skip=1","@odata.count":2}`, ``},
	{`{"Data":[{"ActionId":"a","MeetingId":4}],"TotalCount":9,"Offset":0}`, ``},
	{`[1, "x", null]`, ``},
	{`{"data":[{"id":NaN}]}`, ``},
	{`[{"id":"1"}`, ``},
}

// fuzzResponse is a response to a list request under the test base path.
func fuzzResponse(link string) *http.Response {
	u, _ := url.Parse("http://records.test" + basePath + "/actions?status=open")
	resp := &http.Response{Header: http.Header{}, Request: &http.Request{URL: u}}
	if link != "" {
		resp.Header.Set("Link", link)
	}
	return resp
}

func FuzzDecodeActions(f *testing.F) {
	for _, s := range listSeeds {
		f.Add([]byte(s.body), s.link)
	}
	c, err := NewClient("http://records.test"+basePath, "k")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, link string) {
		d := new(decoder)
		acts, n, pf, err := decodeList(d, body, "actions", nil, -1, decodeAction)
		if err != nil {
			return
		}
		if len(acts) != n {
			t.Fatalf("decoded %d of %d records", len(acts), n)
		}
		pr, err := c.nextPage(fuzzResponse(link), pf, n)
		if err == nil && pr.next != nil && !sameOrigin(pr.next, c.base) {
			t.Fatalf("next page %s leaves the base host", pr.next)
		}
		d2 := new(decoder)
		for i, a := range acts {
			_ = a.Assignee.String()
			_ = a.Assignee.IsZero()
			_ = a.Status.Valid()
			if !bytes.Contains(body, a.Raw) {
				t.Fatalf("action %d: Raw %q is not part of the body", i, a.Raw)
			}
			// Raw must be exactly the record the fields came from:
			// decoding it alone gives the same action.
			var again Action
			if err := d2.decodeActionBody(a.Raw, &again); err != nil {
				t.Fatalf("action %d: Raw %q does not decode alone: %v", i, a.Raw, err)
			}
			again.Raw, a.Raw = nil, nil
			if !again.Deadline.Equal(a.Deadline) {
				t.Fatalf("action %d: deadline %v, alone %v", i, a.Deadline, again.Deadline)
			}
			again.Deadline = a.Deadline
			if !reflect.DeepEqual(again, a) {
				t.Fatalf("action %d differs when decoded alone:\n%+v\n%+v", i, a, again)
			}
		}
	})
}

func FuzzDecodeMeeting(f *testing.F) {
	seeds := []string{
		`{"id":"m1","reference":"FIN-1","title":"T","committee":"F","date":"2026-03-02T18:00:00Z","location":"R","agenda":[{"number":"1","title":"A"},{"position":2,"name":"B","description":"d"}]}`,
		`{"meeting_id":9,"code":"B","name":"N","committee_name":{"name":"B"},"starts_at":"2026-03-02","location":{"name":"H"},"agenda_items":[{"order":"4b","text":"x","notes":"n"},"Close",7]}`,
		`{"row_id":"r","number":12,"held_at":"2026-03-02 10:00:00","scheduled_at":"x","start":"y","items":[null]}`,
		`{"data":{"id":"m1"}}`,
		`{"meeting":{"id":"m1"},"agenda":[{"title":"A"}]}`,
		`{"id":"m","data":{"id":"other"}}`,
		`{"id":"5","attributes":{"title":"T"}}`,
		`[]`, `null`, `{"id":`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, s := range listSeeds {
		f.Add([]byte(s.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := new(decoder)
		var m Meeting
		if err := d.decodeMeetingBody(body, &m); err == nil {
			if !bytes.Contains(body, m.Raw) {
				t.Fatalf("Raw %q is not part of the body", m.Raw)
			}
			for _, it := range m.Agenda {
				_ = it.Title + it.Number + it.Description
			}
		}
		ms, n, _, err := decodeList(d, body, "meetings", nil, -1, decodeMeeting)
		if err == nil && len(ms) != n {
			t.Fatalf("decoded %d of %d meetings", len(ms), n)
		}
	})
}

func FuzzDecodeMinutes(f *testing.F) {
	seeds := []string{
		`{"meeting_id":"m1","status":"approved","body":"# M","url":"https://x.org/m","approved_at":"2026-03-10T12:00:00Z"}`,
		`{"data":{"status":"published_draft","html":"<p>h</p>","public_url":"javascript:x","html_url":"http://x/m","published_at":"2026-03-10"}}`,
		`{"minutes":{"status":"Approved","content":"c","format":"text/html","meeting":{"id":5}}}`,
		`{"status":"approved","minutes":"text","meeting":"m9","updated_at":"2026-03-10T12:00:00Z"}`,
		`{"status":"approved","markdown":"m","text":"t"}`,
		`{"status":"draft","body":"secret"}`,
		`{"status":"success","data":{"status":"approved","body":"b"}}`,
		`{"status":"approved","body":"b","data":{"status":"draft"}}`,
		`{"body":"no status"}`,
		`{"status":null}`,
		`[{"status":"approved"}]`,
		`"approved"`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := new(decoder)
		var m Minutes
		if err := d.decodeMinutesBody(body, &m); err != nil {
			if m.Body != "" || m.Raw != nil {
				t.Fatalf("hidden or broken minutes leaked: %+v", m)
			}
			return
		}
		if !m.Status.Visible() {
			t.Fatalf("returned minutes with status %q", m.Status)
		}
		if m.Format != FormatMarkdown && m.Format != FormatHTML {
			t.Fatalf("format %q", m.Format)
		}
		if m.URL != "" && !strings.HasPrefix(strings.ToLower(m.URL), "http") {
			t.Fatalf("url %q is not http(s)", m.URL)
		}
		_ = m.Draft()
	})
}

func FuzzParseLinkHeader(f *testing.F) {
	seeds := []string{
		`<https://api.x/a?page=2>; rel="next", <https://api.x/a?page=5>; rel="last"`,
		`</a?page=2>;rel=next`,
		`<b>; rel="prefetch next"`,
		`<a>; title="x, y; z"; rel="next", <b>; rel=prev`,
		`<a>; title="say \"hi\", ok"; rel=next`,
		`<a?x=1,2>; rel=next`,
		`<a>; rel=prev; rel=next`,
		`garbage, <a>; rel=next`,
		`<a; rel=next`,
		`<a>; rel="next`,
		`  < a >  ;  rel = "next"  ,  `,
		``, `<`, `;`, `"`, `\`, `<>; rel=next`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		links := parseLinkHeader(s)
		for _, l := range links {
			if strings.Contains(l.URI, ">") {
				t.Fatalf("uri %q runs past its closing bracket", l.URI)
			}
			_ = l.hasRel("next")
		}
		got, ok := nextLink([]string{s})
		if ok && (got == "" || !strings.Contains(s, got)) {
			t.Fatalf("next %q is not a link of %q", got, s)
		}
	})
}
