// Package recordstest is the fake records service of package recordsfake
// with what only tests use, in the manner of net/http/httptest:
//
//	srv := recordstest.NewServer(recordstest.WithDataset(recordstest.Dataset{
//		Actions: []recordstest.Action{{ID: "FIN-2026-07/1", Title: "Circulate the forecast", Status: "open"}},
//	}))
//	t.Cleanup(srv.Close)
//	client, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
//
// Servers record every request ([Server.Requests], [Server.Count]) and can
// inject faults ([Server.InjectFault]): latency, error statuses with
// Retry-After, truncated JSON and connections reset mid-body. The records,
// the wire format and its errors are recordsfake's (see its
// documentation); the tests' organisation is internal/testworld's.
//
// # Dialects
//
// The records service's own form is the [Plain] dialect. [WithDialect] makes the server
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
package recordstest
