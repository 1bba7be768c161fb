// Package recordstest is an in-memory Records API v1 server for tests,
// `recordsbot sandbox` and `recordsbot demo`, in the manner of
// net/http/httptest:
//
//	srv := recordstest.NewServer(recordstest.WithDataset(recordstest.Dataset{
//		Actions: []recordstest.Action{{ID: "FIN-2026-07/1", Title: "Circulate the forecast", Status: "open"}},
//	}))
//	t.Cleanup(srv.Close)
//	client, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
//
// It is a fake of the records service only and holds no organisation of
// its own: the tests' dataset is in internal/testworld, the demo's story in
// package demo.
//
// It speaks JSON over HTTP only and does not depend on the client, so a
// client bug cannot hide in shared code. Servers record every request
// ([Server.Requests], [Server.Count]) and can inject faults
// ([Server.InjectFault]): latency, error statuses with Retry-After,
// truncated JSON and connections reset mid-body.
//
// # Wire format
//
// The interface document (records-api-v1.md) leaves shapes, pagination and
// errors unspecified; this server fixes them as follows. Every request
// needs "Authorization: Bearer KEY"; paths are relative to .../api/v1.
//
//	GET /actions[?status=S][&cursor=C]          scope actions:read
//	    {"data": [ACTION...], "next_cursor": "C"}  next_cursor absent on the last page
//	PUT /actions/{id}  {"status": "S"}          scope actions:write
//	    {"data": ACTION}
//	GET /meetings[?page=N]                      scope meetings:read
//	    {"meetings": [MEETING...]}                 Link: <URL?page=N+1>; rel="next"
//	GET /meetings/{id-or-reference}             scope meetings:read
//	    {"data": MEETING + "agenda": [{"number": 1, "title", "description"}...]}
//	GET /meetings/{id-or-reference}/minutes     scope meetings:read
//	    {"minutes": {"status", "body" | "html", "url", "published_at"}}
//
// ACTION is {"id", "title", "status", "assignee": {"email", "name"},
// "due_date": "2026-07-14" or "deadline": RFC 3339, "meeting": {"id",
// "title"}, "committee", "created_at"}; MEETING is {"id", "reference",
// "title", "committee", "date" (RFC 3339), "location"}. Empty fields are
// left out. S is one of open, in_progress, complete, cancelled, deferred.
// IDs in paths are single escaped segments ("A%2F1" is "A/1").
//
// # Dialects
//
// The form above is the [Plain] dialect. [WithDialect] makes the server
// speak another common REST convention instead, each with its own real
// pagination: [JSONAPI] (data[].attributes and relationships, links.next
// absolute for actions and relative for meetings, meta.total; pages by
// page[number] and page[size]), [HAL] (_embedded.<name>, a relative
// _links.next.href, zero-based page and size), [OData] (value, an absolute
// @odata.nextLink with $skip, @odata.count only on $count=true) and
// [PostgREST] (bare arrays; offset and limit or a Range header;
// Content-Range with the total and 206 only on Prefer: count=exact; single
// records as one-element arrays). [WithCasing] spells member names in
// camelCase, kebab-case or PascalCase, and [WithPutAnswer] chooses how a
// PUT is answered: the row, a one-element array, an envelope or 204 No
// Content (OData's and PostgREST's default).
//
// [WithETags] makes every 200 to a GET carry a strong ETag (a hash of the
// body, so each page of a list has its own) and answers If-None-Match
// naming it with 304 Not Modified and no content, as a real service behind
// most frameworks or a CDN does. Off by default.
//
// Errors are {"error": CODE, "message": "..."}, CODE being the status text
// in snake case: 400 bad_request (unknown status, bad body, bad cursor or
// page), 401 unauthorized (no or unknown key), 403 forbidden ("missing
// scope actions:write"), 404 not_found (no such record or endpoint, or
// minutes not approved or published_draft), 405 method_not_allowed (with
// Allow).
package recordstest
